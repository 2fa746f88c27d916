"""The director's event-day jobs on who plays, from the dashboard: a late player, the
check-in list, a substitute for a no-show, a round beyond the planned number, and the
event's day options. Each is a POST that calls one service and comes back with the
service's answer as a message."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core import services
from director.common import act, dashboard_url, director_event, event_form_action
from director.forms import CheckInForm, DayOptionsForm, LatePlayerForm, SubstituteForm
from tournaments.models import Entry


def late_message(entry: Entry) -> str:
    latest = entry.event.rounds.order_by("-number").first()
    if latest is not None and latest.status == "published":
        text = _(
            "%(name)s is entered; round %(number)s is in play without them, they are seated "
            "from the next."
        )
    elif latest is not None and latest.status == "draft":
        text = _("%(name)s is entered; round %(number)s's draft is seated again with them.")
    else:
        text = _("%(name)s is entered.")
    return text % {"name": entry.player.name, "number": latest.number if latest else ""}


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
        return ngettext(
            "%(present)s player checked in (%(changed)s changed).",
            "%(present)s players checked in (%(changed)s changed).",
            present,
        ) % {"present": present, "changed": changed}

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
        lambda r: (
            _("%(substitute)s replaces %(name)s, who is withdrawn.")
            % {"substitute": r[0].player.name, "name": r[1].player.name}
        ),
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
            _(
                "The event now plans %(rounds)s rounds: round %(rounds)s can start once the rounds "
                "before it are closed."
            )
            % {"rounds": e.rounds_planned}
        ),
        lambda: services.add_extra_round(event=event, by=request.user),
        dashboard_url(event),
    )


@login_required
@require_POST
def day_options(request: HttpRequest, slug: str) -> HttpResponse:
    def done(e) -> str:
        check = _("only checked-in players are seated") if e.check_in else _("check-in is off")
        clubs = _("clubs are kept apart") if e.club_avoidance else _("clubs are not kept apart")
        return _("From the next round seated: %(check)s; %(clubs)s.") % {
            "check": check,
            "clubs": clubs,
        }

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
