"""The director's actions on who plays, from the event dashboard: withdraw a player
(during a round, after the hand they left their table), and correct a withdrawn
player's leave point. Each is a POST that calls one service and comes back with the
service's answer as a message."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import selectors, services
from director.common import act, dashboard_url, director_event, invalid_form
from director.forms import LeavePointForm, WithdrawForm
from tournaments.models import Entry


def leaving_message(entry: Entry, withdrew: bool) -> str:
    """What a withdrawal (or a new leave point) did at the player's table, in words."""
    name = entry.player.name
    seat = selectors.seat_in_play(entry)
    if seat is None or seat.left_after_hand is None:
        text = _("%(name)s withdrew.") if withdrew else _("%(name)s now leaves.")
        return text % {"name": name}
    table = seat.table
    values = {"name": name, "hand": seat.left_after_hand, "table": table.number}
    if withdrew:
        text = _(
            "%(name)s withdrew after hand %(hand)s at table %(table)s: their set is incomplete "
            "and ranks after the round's complete sets."
        )
    else:
        text = _(
            "%(name)s now leaves after hand %(hand)s at table %(table)s: their set is "
            "incomplete and ranks after the round's complete sets."
        )
    text %= values
    if table.closed_after_hand is not None:
        closed = _(
            "Table %(table)s has fewer than three players left, so it closed after hand "
            "%(hand)s: once the round is closed, the hands it could not play are scored from "
            "the field for the players still at it."
        ) % {"table": table.number, "hand": table.closed_after_hand}
        text += " " + closed
    return text


def leaving_action(request: HttpRequest, slug: str, form_class: type, withdrew: bool, change):
    """Read a withdrawal or leave-point form; `change(entry, left_after_hand)` calls the
    service, and the message says what it did at the player's table."""
    event = director_event(request, slug)
    form = form_class(request.POST, event=event)
    url = dashboard_url(event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    entry = form.cleaned_data["player"]
    return act(
        request,
        lambda result: leaving_message(entry, withdrew),
        lambda: change(entry, form.cleaned_data["left_after_hand"]),
        url,
    )


@login_required
@require_POST
def withdraw_player(request: HttpRequest, slug: str) -> HttpResponse:
    return leaving_action(
        request,
        slug,
        WithdrawForm,
        True,
        lambda entry, left: services.withdraw_entry(
            entry=entry, left_after_hand=left, by=request.user
        ),
    )


@login_required
@require_POST
def change_leave_point(request: HttpRequest, slug: str) -> HttpResponse:
    return leaving_action(
        request,
        slug,
        LeavePointForm,
        False,
        lambda entry, left: services.set_leave_point(
            entry=entry, left_after_hand=left, by=request.user
        ),
    )
