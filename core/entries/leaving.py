"""Leaving a table mid-round: a withdrawn player's leave point (the hand after which
they left), checked against the hands already recorded, and a table that closes when
fewer than three players are left.

The rule: hands up to the leave point take the player's score; later hands are
played without them. So a leave point can only be set, or moved, across hands not
yet recorded: a recorded hand after it that carries the player's score, or one up
to it recorded without them, would say otherwise. The director is told which hands
to delete first. Every change is in the seat's and the table's history.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, Max, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.common import with_history_user
from core.errors import InvalidInput, StateConflict
from core.events.selectors import seat_in_play
from core.locks import for_request
from core.rounds.selectors import as_ranges
from core.standings.services import queue_standings_refresh
from game.cards import is_whole_number
from game.sets import ends_after
from scoring.models import Hand, HandScore
from tournaments.models import Entry, Event, Seat, Table


def last_hand_entered(table: Table) -> int:
    """The default leave point: the last hand scored at the table (0: none yet)."""
    scored = Hand.objects.filter(table=table, outcome=Hand.Outcome.SCORED)
    return scored.aggregate(n=Max("number"))["n"] or 0


def check_leave_point(seat: Seat, value: object) -> int:
    """`value` as a leave point for this seat, or the reason it cannot be one."""
    hand_count = seat.table.round.event.rules.hand_count
    name, table = seat.entry.player.name, seat.table.number
    if not is_whole_number(value) or not 0 <= value <= hand_count:
        raise InvalidInput(
            _(
                "A leave point is the last hand the player played, 0 to %(most)s "
                "(0: before the first hand), not %(value)s."
            )
            % {"most": hand_count, "value": repr(value)},
            field="left_after_hand",
        )
    played = HandScore.objects.filter(hand=OuterRef("pk"), seat=seat)
    recorded = (
        Hand.objects.filter(table_id=seat.table_id, outcome=Hand.Outcome.SCORED)
        .annotate(with_seat=Exists(played))
        .values_list("number", "with_seat")
        .order_by("number")
    )
    after = [number for number, with_seat in recorded if with_seat and number > value]
    if after:
        raise StateConflict(
            ngettext(
                "%(name)s has a score in hand %(hands)s at table %(table)s: a player who left "
                "after hand %(after)s plays no later hand. Delete it first (it can be entered "
                "again without %(name)s), or give a later leave point.",
                "%(name)s has a score in hands %(hands)s at table %(table)s: a player who left "
                "after hand %(after)s plays no later hand. Delete them first (they can be "
                "entered again without %(name)s), or give a later leave point.",
                len(after),
            )
            % {"name": name, "hands": as_ranges(after), "table": table, "after": value},
            field="left_after_hand",
        )
    without = [number for number, with_seat in recorded if not with_seat and number <= value]
    if without:
        raise StateConflict(
            ngettext(
                "Hand %(hands)s at table %(table)s was recorded without %(name)s: delete it "
                "first, then enter it again with %(name)s's score, or give an earlier leave "
                "point.",
                "Hands %(hands)s at table %(table)s were recorded without %(name)s: delete "
                "them first, then enter them again with %(name)s's score, or give an earlier "
                "leave point.",
                len(without),
            )
            % {"name": name, "hands": as_ranges(without), "table": table},
            field="left_after_hand",
        )
    return value


def sync_table_end(table: Table, by: AbstractBaseUser | None) -> Table:
    """Bring the table's end in step with its seats' leave points: a table left with
    fewer than three players for the next hand closes after the hand before it."""
    hand_count = table.round.event.rules.hand_count
    leave_points = list(Seat.objects.filter(table=table).values_list("left_after_hand", flat=True))
    ends = ends_after(leave_points, hand_count)
    if table.closed_after_hand != ends:
        table.closed_after_hand = ends
        with_history_user(table, by).save(update_fields=["closed_after_hand"])
    return table


def place_leave_point(seat: Seat, value: int | None, by: AbstractBaseUser | None) -> Seat:
    """Set (None: clear) the seat's leave point after checking it, then the table's end.
    Takes the table's row lock, as recording a hand does, so neither sees the other
    half done."""
    table = Table.objects.select_for_update(of=("self",)).select_related("round__event")
    seat.table = table.get(pk=seat.table_id)
    if value is not None:
        value = check_leave_point(seat, value)
    if seat.left_after_hand != value:
        seat.left_after_hand = value
        with_history_user(seat, by).save(update_fields=["left_after_hand"])
    sync_table_end(seat.table, by)
    queue_standings_refresh(seat.table.round.event)
    return seat


@for_request("event")
def set_leave_point(
    *, entry: Entry, left_after_hand: int, by: AbstractBaseUser | None = None
) -> Seat:
    """Change after which hand a withdrawn player left their table in the round in play
    (the director's correction: the player really left after hand 4). Recorded in the
    seat's history."""
    # The event first, then the entry: the order a standings rebuild takes them in.
    Event.objects.select_for_update().get(pk=entry.event_id)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.WITHDRAWN:
        raise InvalidInput(
            _("%(name)s has not withdrawn; only a player who left has a leave point.")
            % {"name": entry.player.name},
            field="left_after_hand",
        )
    seat = seat_in_play(entry)
    if seat is None:
        raise StateConflict(
            _(
                "%(name)s is not seated in a round in play; a leave point can change only "
                "while the round is in play (reopen a closed round first)."
            )
            % {"name": entry.player.name},
            field="left_after_hand",
        )
    return place_leave_point(seat, left_after_hand, by)


def leave_table(entry: Entry, left_after_hand: int | None, by: AbstractBaseUser | None) -> None:
    """A player withdrawing during a round: they leave their table after the hand given,
    by default the last hand entered there."""
    seat = seat_in_play(entry)
    if seat is None:
        if left_after_hand is not None:
            raise InvalidInput(
                _(
                    "%(name)s is not seated in a round in play, so there is no hand to leave "
                    "after: leave the leave point out."
                )
                % {"name": entry.player.name},
                field="left_after_hand",
            )
        return
    if left_after_hand is None:
        left_after_hand = seat.left_after_hand
    if left_after_hand is None:
        left_after_hand = last_hand_entered(seat.table)
    place_leave_point(seat, left_after_hand, by)


def rejoin_table(entry: Entry, by: AbstractBaseUser | None) -> None:
    """A withdrawn player registered again during the round: back at their table if no
    hand after their leave point was recorded without them; otherwise their set in
    this round stays incomplete and they play again from the next round."""
    seat = seat_in_play(entry)
    if seat is None or seat.left_after_hand is None:
        return
    later = Hand.objects.filter(
        table_id=seat.table_id, outcome=Hand.Outcome.SCORED, number__gt=seat.left_after_hand
    )
    if not later.exists():
        place_leave_point(seat, None, by)
