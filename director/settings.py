"""An event's settings page: every setting the API takes, grouped as a director thinks
of them (the game, the deck and penalties, time, seating, who enters, visibility,
prizes), saved through `update_event` like the API's. A setting that can no longer
change is shown read-only with the reason; the service's refusals are shown beside
the field they name, and nothing is saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import services
from core.errors import ServiceError
from core.events.locked import locked_settings
from director.common import director_event
from director.settings_forms import EventSettingsForm, prize_rows, prizes_from_rows


def add_service_errors(error: ServiceError, form, rows) -> None:
    """The service's refusals beside the fields they name (the prize table's above its
    rows; any other at the top of the form)."""
    for field, texts in error.errors.items():
        if field == "prizes":
            rows.service_errors.extend(texts)
        elif field in form.fields and not form.fields[field].disabled:
            form.add_error(field, texts)
        else:
            form.add_error(None, texts)


@login_required
@require_http_methods(["GET", "POST"])
def event_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    locked = locked_settings(event)
    data = request.POST if request.method == "POST" else None
    form = EventSettingsForm(data, event=event, locked=locked)
    rows = prize_rows(data, event.prizes)
    rows.service_errors = []
    if request.method == "POST" and form.is_valid() and rows.is_valid():
        changes = form.changed_settings()
        prizes = prizes_from_rows(rows)
        if prizes != event.prizes:
            changes["prizes"] = prizes
        try:
            if changes:
                event = services.update_event(event=event, data=changes, by=request.user)
        except ServiceError as error:
            add_service_errors(error, form, rows)
        else:
            if changes:
                messages.success(request, _("The settings are saved."))
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect(reverse("director:event-settings", args=[event.slug]))
    context = {"event": event, "form": form, "rows": rows, "locked": locked}
    refused = form.errors or rows.total_error_count() or rows.service_errors
    status = 400 if form.is_bound and refused else 200
    return render(request, "director/settings.html", context, status=status)
