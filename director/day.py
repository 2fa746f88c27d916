"""The director's event-day jobs on who plays, from the dashboard: a late player, the
check-in list, a substitute for a no-show, a round beyond the planned number, and the
event's day options. Each is a POST that calls one service and comes back with the
service's answer as a message."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from core import services
from director.common import act, dashboard_url, director_event, event_form_action
from director.forms import CheckInForm, DayOptionsForm, LatePlayerForm, SubstituteForm
from tournaments.models import Entry


def late_message(entry: Entry) -> str:
    text = f"{entry.player.name} is entered"
    latest = entry.event.rounds.order_by("-number").first()
    if latest is not None and latest.status == "published":
        text += f"; round {latest.number} is in play without them, they are seated from the next"
    elif latest is not None and latest.status == "draft":
        text += f"; round {latest.number}'s draft is seated again with them"
    return text + "."


@login_required
@require_POST
def add_late_player(request: HttpRequest, slug: str) -> HttpResponse:
    return event_form_action(
        request,
        slug,
        LatePlayerForm,
        late_message,
        lambda event, data: services.add_late_player(
            event=event,
            name=data["name"],
            club=data["club"],
            seed_number=data["seed_number"],
            by=request.user,
        ),
    )


@login_required
@require_POST
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    def done(result: tuple[int, int]) -> str:
        changed, present = result
        return f"{present} player{'s' if present != 1 else ''} checked in ({changed} changed)."

    def call(event, data) -> tuple[int, int]:
        present = list(data["present"])
        changed = services.record_check_in(event=event, present=present, by=request.user)
        return changed, len(present)

    return event_form_action(request, slug, CheckInForm, done, call, form_takes_event=True)


@login_required
@require_POST
def substitute(request: HttpRequest, slug: str) -> HttpResponse:
    def call(event, data):
        sub = services.substitute_entry(
            entry=data["player"],
            name=data["name"],
            club=data["club"],
            player_entry=data["substitute"],
            by=request.user,
        )
        return sub, data["player"]

    return event_form_action(
        request,
        slug,
        SubstituteForm,
        lambda r: f"{r[0].player.name} replaces {r[1].player.name}, who is withdrawn.",
        call,
        form_takes_event=True,
    )


@login_required
@require_POST
def extra_round(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    return act(
        request,
        lambda e: (
            f"The event now plans {e.rounds_planned} rounds: round {e.rounds_planned} "
            "can start once the rounds before it are closed."
        ),
        lambda: services.add_extra_round(event=event, by=request.user),
        dashboard_url(event),
    )


@login_required
@require_POST
def day_options(request: HttpRequest, slug: str) -> HttpResponse:
    def done(e) -> str:
        check = "only checked-in players are seated" if e.check_in else "check-in is off"
        clubs = "clubs are kept apart" if e.club_avoidance else "clubs are not kept apart"
        return f"From the next round seated: {check}; {clubs}."

    return event_form_action(
        request,
        slug,
        DayOptionsForm,
        done,
        lambda event, data: services.set_day_options(
            event=event,
            check_in=data["check_in"],
            club_avoidance=data["club_avoidance"],
            by=request.user,
        ),
    )
