"""Setting up a new event from the director's pages (for a user who may create events)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core import selectors, services
from core.errors import ServiceError
from director.forms import NewEventForm


@login_required
@require_http_methods(["GET", "POST"])
def new_event(request: HttpRequest) -> HttpResponse:
    if not selectors.can_create_events(request.user):
        raise Http404("Only a user who may create events sets one up.")
    form = NewEventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.set_up_event(
                data=form.settings(),
                check_in=form.cleaned_data["check_in"],
                club_avoidance=form.cleaned_data["club_avoidance"],
                by=request.user,
            )
        except ServiceError as error:
            for field, messages in error.errors.items():
                form.add_error(field if field in form.fields else None, messages)
        else:
            return redirect("director:event", event.slug)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "director/new_event.html", {"form": form}, status=status)
