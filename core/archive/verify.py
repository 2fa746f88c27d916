"""Checking an imported event as the services would have checked it, row by row.

An archive's rows are written in bulk, not through the services, so before the import
commits every event setting, round, seat and hand is put through the same checks a
director's action goes through (`core.services`: the event's settings, table sizes,
the seating report, `game.rules.score_hand` on every hand, whose result must be what
the archive stores, a table's early end as the leave points give it, a round closed
with force only when hands are missing, and a finished event as `finish_event` takes
it). The first problem found refuses the whole archive, saying where it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from core.archive import ArchiveError
from core.common import full_clean_or_raise
from core.errors import ServiceError, StateConflict
from core.events.services import EVENT_FIELDS, check_settings
from core.hands.stored import check_stored_hand
from core.rounds.selectors import round_progress
from core.rounds.services import check_can_finish, check_table_sizes
from core.seating.services import check_quality
from game.sets import ends_after
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import PLAYED_ROUND_STATUSES, Event, Round, Seat, Table

POLICIES = {*Event.Seating.values, "knockout"}


def refuse(where: str, error: ServiceError | str) -> ArchiveError:
    reason = (
        error
        if isinstance(error, str)
        else "; ".join(
            " ".join(messages) if field == "non_field_errors" else f"{field}: {' '.join(messages)}"
            for field, messages in error.errors.items()
        )
    )
    reason = reason.rstrip(".")  # the services' messages end with one; so does this
    return ArchiveError(
        _("The archive is not valid: %(where)s: %(problem)s. Nothing was imported.")
        % {"where": where, "problem": reason}
    )


def check_event_settings(event: Event, values: Mapping[str, Any]) -> None:
    """The event's settings as `create_event` checks them (before it is saved)."""
    try:
        check_settings({name: values[name] for name in EVENT_FIELDS if name != "slug"})
        full_clean_or_raise(event, exclude=["slug"])
    except ServiceError as error:
        raise refuse("the event's settings", error) from error


def verify_event(
    event: Event, *, tables: set[int] | None = None, rounds: set[int] | None = None
) -> None:
    """Every round, table, seat and hand of an event just written from an archive; or,
    for a change published into it (`core.publishing`), every round but only the
    `tables` it touched (their seats and hands) and the forced closes of the `rounds`
    it touched or those tables are in."""
    all_rounds = list(Round.objects.filter(event=event).order_by("number"))
    entries = set(event.entries.values_list("pk", flat=True))
    for i, round_ in enumerate(all_rounds, start=1):
        check_round(event, round_, i, last=i == len(all_rounds), entries=entries)
    found = Table.objects.filter(round__event=event)
    full = tables is None
    if tables is not None:
        found = found.filter(pk__in=tables)
    tables = list(
        found.select_related("round").prefetch_related(
            Prefetch("seats", Seat.objects.order_by("position"))
        )
    )
    for table in tables:
        table.round.event = event
        check_seats(event, table)
    in_tables = Q(table__round__event=event) if full else Q(table__in=[t.pk for t in tables])
    hands = (
        Hand.objects.filter(in_tables)
        .select_related("went_out")
        .prefetch_related(
            Prefetch("scores", HandScore.objects.select_related("seat")),
            Prefetch("penalties", Penalty.objects.select_related("seat")),
        )
        .order_by("table_id", "number", "attempt")
    )
    by_table: dict[int, list[Hand]] = defaultdict(list)
    for hand in hands:
        by_table[hand.table_id].append(hand)
    for table in tables:
        check_hands(table, by_table.get(table.pk, []))
    if rounds is not None:
        rounds = rounds | {t.round_id for t in tables}
    for round_ in all_rounds:
        if rounds is None or round_.pk in rounds:
            check_forced_close(event, round_)
    if event.status == Event.Status.FINISHED:
        try:
            check_can_finish(event)
        except ServiceError as error:
            raise refuse("the event is finished", error) from error


def check_round(event: Event, round_: Round, number: int, *, last: bool, entries: set[int]):
    where = f"round {round_.number}"
    if round_.number != number:
        raise refuse(where, f"rounds must be numbered 1, 2, 3...; round {number} is missing")
    if round_.number > event.rounds_planned:
        raise refuse(where, f"the event plans {event.rounds_planned} rounds")
    if not last and round_.status != Round.Status.CLOSED:
        raise refuse(where, f"it is {round_.status}, but a later round has started")
    if round_.policy not in POLICIES:
        raise refuse(where, f"{round_.policy!r} is not a seating policy")
    try:
        check_quality(round_.quality, entries)
        if round_.status in PLAYED_ROUND_STATUSES:
            check_table_sizes(round_)
    except ServiceError as error:
        raise refuse(where, error) from error


def check_seats(event: Event, table: Table) -> None:
    where = f"round {table.round.number}, table {table.number}"
    seats = list(table.seats.all())
    if [s.position for s in seats] != list(range(1, len(seats) + 1)):
        raise refuse(where, "its seats must be numbered 1, 2, 3... without a gap")
    if any(s.round_id != table.round_id for s in seats):
        raise refuse(where, "a seat belongs to another round")
    if seats and sum(s.first_dealer for s in seats) != 1:
        raise refuse(where, "it must have exactly one first dealer")
    hand_count = event.rules.hand_count
    for seat in seats:
        if seat.left_after_hand is not None and seat.left_after_hand > hand_count:
            raise refuse(
                f"{where}, seat {seat.position}",
                f"a player cannot leave after hand {seat.left_after_hand} of {hand_count}",
            )
    check_table_end(table, seats, hand_count)


def check_table_end(table: Table, seats: list[Seat], hand_count: int) -> None:
    """The table's early end as `core.entries.leaving` keeps it: after the hand before
    the first one fewer than three players would play (`game.sets.ends_after`), or none
    when at least three play every hand of the set."""
    where = f"round {table.round.number}, table {table.number}"
    ends = ends_after([seat.left_after_hand for seat in seats], hand_count)
    stored = table.closed_after_hand
    if stored == ends:
        return
    if ends is None:
        reason = (
            f"it is closed after hand {stored}, but at least three of its players play "
            "every hand of the set; a table closes early only when fewer than three are left"
        )
    elif stored is None:
        reason = (
            f"fewer than three of its players are left after hand {ends}, so it closed "
            "after that hand, but the archive does not close it"
        )
    else:
        reason = (
            f"it is closed after hand {stored}, but fewer than three of its players are "
            f"left only after hand {ends}"
        )
    raise refuse(where, reason)


def check_forced_close(event: Event, round_: Round) -> None:
    """`forced_close` as `close_round` sets it: a closed round is forced exactly when
    tables had hands missing (`round_progress`), and a round not closed is not forced."""
    where = f"round {round_.number}"
    if round_.status != Round.Status.CLOSED:
        if round_.forced_close:
            raise refuse(where, f"it is {round_.status}, but marked closed with force")
        return
    missing = round_progress(event, round_.number, closed=True).missing()
    if round_.forced_close and not missing:
        raise refuse(
            where,
            "it is marked closed with force, but no hand is missing (a round is forced "
            "closed only when tables have hands missing)",
        )
    if missing and not round_.forced_close:
        raise refuse(
            where,
            "it is closed with hands missing (" + "; ".join(missing) + ") but not marked "
            "closed with force",
        )


def check_hands(table: Table, hands: list[Hand]) -> None:
    """Each hand as `record_hand` would take it: the table takes hands, each deal of a
    number comes in order with only the last one scored, and the rules engine gives
    exactly the stored scores."""
    if hands and table.round.status not in PLAYED_ROUND_STATUSES:
        where = f"round {table.round.number}, table {table.number}"
        raise refuse(where, StateConflict("hands are recorded in a round not yet published"))
    seats = {seat.pk: seat for seat in table.seats.all()}
    deals: dict[int, list[Hand]] = defaultdict(list)
    for hand in hands:
        deals[hand.number].append(hand)
    for number, attempts in deals.items():
        where = f"round {table.round.number}, table {table.number}, hand {number}"
        if [h.attempt for h in attempts] != list(range(1, len(attempts) + 1)):
            raise refuse(where, "its deals must be numbered 1, 2, 3... without a gap")
        if any(h.outcome != Hand.Outcome.REDEAL for h in attempts[:-1]):
            raise refuse(where, "only its last deal may be scored")
        for hand in attempts:
            hand.table = table
            outsiders = [
                row.seat_id
                for row in [*hand.scores.all(), *hand.penalties.all()]
                if row.seat_id not in seats
            ]
            if (hand.went_out_id and hand.went_out_id not in seats) or outsiders:
                raise refuse(where, "it names a seat of another table")
            playing = {s.position: s for s in seats.values() if s.plays_hand(number)}
            try:
                check_stored_hand(hand, playing)
            except ServiceError as error:
                raise refuse(where, error) from error
