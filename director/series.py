"""The organiser's pages for a series (login required), under /organiser/: create a
series, change its settings, add and remove legs, see its standings, create the final
from its qualifiers. Every change goes through `core.services`; a series the user does
not organise is a 404, as if it did not exist."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core import selectors, services
from core.series import selectors as reads
from director.common import act, invalid_form
from director.settings_forms import (
    HELP,
    PRIZE_TIE_CHOICES,
    prize_row_errors,
    prize_rows,
    prizes_from_rows,
)
from game.series import default_points_scale
from tournaments.models import Event, Series


class ScaleField(forms.CharField):
    """Series points as "100, 80, 65": best place first."""

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return None
        try:
            return [int(part) for part in value.replace(";", ",").split(",") if part.strip()]
        except ValueError as error:
            raise forms.ValidationError(
                "Give the series points as whole numbers, best place first: 100, 80, 65"
            ) from error


class SeriesForm(forms.Form):
    """A series' settings as its settings form changes them: a blank scale keeps the
    current one (`data_for_service`)."""

    name = forms.CharField(max_length=200)
    slug = forms.SlugField(
        max_length=80, required=False, label="Address (slug)", help_text="blank: keep it"
    )
    season = forms.CharField(max_length=40, required=False)
    points_scale = ScaleField(
        required=False, help_text="best place first; blank: keep the current scale"
    )
    best_of = forms.IntegerField(min_value=1, max_value=100, required=False)
    qualifiers = forms.IntegerField(min_value=0, max_value=1000, initial=16)
    ties_qualify = forms.BooleanField(
        required=False,
        label="Players level with the last qualifier all qualify",
        help_text="level after the countback's steps but the draw; off: the draw decides",
    )
    carry_over_step = forms.IntegerField(
        min_value=0,
        max_value=500,
        required=False,
        label="Carry-over step",
        help_text="the final starts the series leader at 0 and each rank below this many "
        "points more; blank or 0: everyone starts level",
    )
    wildcard_carry = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        label="Carry of other entrants",
        help_text="what an entrant of the final who is not a qualifier carries; blank: the "
        "lowest qualifier's carry",
    )
    public = forms.BooleanField(required=False, initial=True)
    prize_currency = forms.CharField(
        max_length=8, required=False, label="Prize currency", help_text=HELP["prize_currency"]
    )
    prize_ties = forms.ChoiceField(
        choices=PRIZE_TIE_CHOICES,
        required=False,
        label="Players tied on every score before the draw",
    )

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        if data.get("points_scale") is None:
            data.pop("points_scale", None)
        if data.get("carry_over_step") is None:
            data["carry_over_step"] = 0
        for name in ("slug", "prize_ties"):  # blank: as they are
            if not data.get(name):
                data.pop(name, None)
        return data


class NewSeriesForm(SeriesForm):
    """A new series: a blank scale is the default one (the service leaves it unset)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        first = ", ".join(str(points) for points in default_points_scale()[:3])
        self.fields["slug"].required = True
        self.fields["slug"].help_text = ""
        scale = self.fields["points_scale"]
        scale.help_text = f"best place first; blank: the default ({first}, ...)"


class EventChoiceForm(forms.Form):
    event = forms.SlugField(max_length=80)


class FinalForm(EventChoiceForm):
    seed_by = forms.ChoiceField(
        choices=[
            ("series", "by series rank"),
            ("rating", "by rating across events (players not rated yet after the rated)"),
        ],
        initial="series",
        required=False,
        error_messages={
            "invalid_choice": "Seed the final by series rank or by rating across events."
        },
    )

    force = forms.BooleanField(required=False, label="Seed it although a leg is not finished")
    reason = forms.CharField(max_length=300, required=False, label="Why")

    def clean_seed_by(self) -> str:
        return self.cleaned_data.get("seed_by") or "series"


SEEDED_BY = {"series": "series rank", "rating": "rating across events"}


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

    response = act(request, "The series is created.", create, back)
    return redirect(series_url(created[0])) if created else response


@login_required
@require_safe
def series_page(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    directed = selectors.directed_events(request.user).order_by("-starts_on", "name")
    legs = reads.leg_rows(reads.legs_of(series))
    context = {
        "series": series,
        "legs": legs,
        "rows": reads.series_standings(series),
        "can_add": selectors.with_copy_of(
            directed.filter(series__isnull=True).exclude(final_of=series), request.user
        ),
        "can_be_final": directed.filter(series__isnull=True).exclude(status=Event.Status.FINISHED),
        "form": SeriesForm(
            initial={
                "name": series.name,
                "season": series.season,
                "points_scale": ", ".join(str(p) for p in series.points_scale),
                "best_of": series.best_of,
                "qualifiers": series.qualifiers,
                "ties_qualify": series.ties_qualify,
                "carry_over_step": series.carry_over_step,
                "wildcard_carry": series.wildcard_carry,
                "public": series.public,
                "slug": series.slug,
                "prize_currency": series.prize_currency,
                "prize_ties": series.prize_ties,
            }
        ),
        "prize_rows": prize_rows(None, series.prizes),
        "stale": reads.standings_stale(series),
        "out_of_step": selectors.out_of_step(series),
        "final_started": services.final_started(series),
        "unfinished": [leg.event for leg in legs if not leg.scored],
    }
    return render(request, "director/series.html", context)


@login_required
@require_POST
def change_series(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    form = SeriesForm(request.POST)
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
        "The series settings are saved; its standings are ranked again.",
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
        f"{event.name} is a leg of the series.",
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
        f"{leg.name} is no longer a leg of the series.",
        lambda: services.remove_leg(series=series, event=leg, by=request.user),
        series_url(series),
    )


@login_required
@require_POST
def reopen_series(request: HttpRequest, slug: str) -> HttpResponse:
    series = organised(request, slug)
    return act(
        request,
        "The series is reopened: its legs, their results and its settings may change again.",
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
            f"{len(entries)} qualifiers are entered in {event.name}, seeded by "
            f"{SEEDED_BY[seed_by]} (seat round 1 'spread' to use the seeds)."
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
