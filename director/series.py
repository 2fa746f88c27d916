"""The organiser's pages for a series (login required), under /organiser/: create a
series, change its settings, add and remove legs, see its standings, create the final
from its qualifiers. Every change goes through `core.services`; a series the user does
not organise is a 404, as if it did not exist."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from core import selectors, services
from core.series import selectors as reads
from core.series.locked import final_choices, leg_choices, series_locks
from director.common import act, invalid_form
from director.series_forms import EventChoiceForm, FinalForm, NewSeriesForm, SeriesForm
from director.settings_forms import prize_row_errors, prize_rows, prizes_from_rows
from tournaments.models import Event, Series

SEEDED_BY = {
    "series": gettext_lazy("series rank"),
    "rating": gettext_lazy("rating across events"),
}


def organised(request: HttpRequest, slug: str) -> Series:
    found = reads.organised_series(request.user).filter(slug=slug).first()
    if found is None:
        raise Http404("No such series.")
    return found


def series_url(series: Series) -> str:
    return reverse("organiser:series", args=[series.slug])


@login_required
@require_safe
def series_list(request: HttpRequest) -> HttpResponse:
    context = {
        "series_list": reads.series_list(request.user),
        "can_create": reads.can_create_series(request.user),
        "form": NewSeriesForm(),
    }
    return render(request, "director/series_list.html", context)


@login_required
@require_POST
def create_series(request: HttpRequest) -> HttpResponse:
    if not reads.can_create_series(request.user):
        raise PermissionDenied("You may not create a series.")
    form = NewSeriesForm(request.POST)
    back = reverse("organiser:series-list")
    if not form.is_valid():
        return invalid_form(request, form, back)
    created: list[Series] = []

    def create():
        created.append(services.create_series(data=form.data_for_service(), by=request.user))

    response = act(request, _("The series is created."), create, back)
    return redirect(series_url(created[0])) if created else response


@login_required
@require_safe
def series_page(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    directed = selectors.directed_events(request.user).order_by("-starts_on", "name")
    locks = series_locks(series)
    legs = reads.leg_rows(reads.legs_of(series), frozen=locks.frozen)
    # The menus offer what the services would take: none for legs once they are frozen.
    can_add = (
        [] if locks.legs else leg_choices(series, selectors.with_copy_of(directed, request.user))
    )
    context = {
        "series": series,
        "legs": legs,
        "rows": reads.series_standings(series),
        "countback_words": reads.COUNTBACK_WORDS,
        "locks": locks,
        "can_add": can_add,
        "can_be_final": final_choices(series, directed),
        "form": SeriesForm(series=series, locked=locks.settings),
        "prize_rows": prize_rows(None, series.prizes),
        "stale": reads.standings_stale(series),
        "out_of_step": selectors.out_of_step(series),
        "final_started": locks.started,
        # As seeding the final judges them: finished by their director, not merely
        # scored (a leg whose last round is closed scores, yet may still be reopened).
        "unfinished": [leg.event for leg in legs if leg.event.status != Event.Status.FINISHED],
    }
    return render(request, "director/series.html", context)


@login_required
@require_POST
def change_series(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    form = SeriesForm(request.POST, series=series, locked=series_locks(series).settings)
    # The page's prize rows; a form without them leaves the prizes as they are.
    rows = prize_rows(request.POST, series.prizes) if "prize-TOTAL_FORMS" in request.POST else None
    if not form.is_valid() or (rows is not None and not rows.is_valid()):
        for text in prize_row_errors(rows) if rows is not None else ():
            messages.error(request, text)
        return invalid_form(request, form, series_url(series))
    data = form.data_for_service()
    if rows is not None:
        data["prizes"] = prizes_from_rows(rows)
    saved: list[Series] = []
    response = act(
        request,
        _("The series settings are saved; its standings are ranked again."),
        lambda: saved.append(services.update_series(series=series, data=data, by=request.user)),
        series_url(series),
    )
    return redirect(series_url(saved[0])) if saved else response


def chosen_event(request: HttpRequest, form: EventChoiceForm) -> Event:
    """The event the form names, among those this user may see (the service refuses,
    in words, one they do not direct)."""
    return selectors.event_for(request.user, form.cleaned_data["event"])


@login_required
@require_POST
def add_leg(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    form = EventChoiceForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, series_url(series))
    event = chosen_event(request, form)
    return act(
        request,
        _("%(name)s is a leg of the series.") % {"name": event.name},
        lambda: services.add_leg(series=series, event=event, by=request.user),
        series_url(series),
    )


@login_required
@require_POST
def remove_leg(request: HttpRequest, slug: str, event: str) -> HttpResponse:
    series = organised(request, slug)
    leg = reads.leg_of(series, event)
    return act(
        request,
        _("%(name)s is no longer a leg of the series.") % {"name": leg.name},
        lambda: services.remove_leg(series=series, event=leg, by=request.user),
        series_url(series),
    )


@login_required
@require_POST
def reopen_series(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    return act(
        request,
        _("The series is reopened: its legs, their results and its settings may change again."),
        lambda: services.reopen_series(
            series=series, reason=request.POST.get("reason", ""), by=request.user
        ),
        series_url(series),
    )


@login_required
@require_POST
def create_final(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    form = FinalForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, series_url(series))
    event = chosen_event(request, form)
    seed_by = form.cleaned_data["seed_by"]
    return act(
        request,
        lambda entries: (
            _(
                "%(count)s qualifiers are entered in %(name)s, seeded by %(seeded)s (seat round 1 "
                "'spread' to use the seeds)."
            )
            % {"count": len(entries), "name": event.name, "seeded": SEEDED_BY[seed_by]}
        ),
        lambda: services.create_final(
            series=series,
            event=event,
            by=request.user,
            seed_by=seed_by,
            force=form.cleaned_data["force"],
            reason=form.cleaned_data["reason"],
        ),
        series_url(series),
    )
