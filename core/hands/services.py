"""Director actions on hands: record (or correct) a hand, delete a hand.

`record_hand` validates through the pure `game.rules`, then writes the hand, its
scores and penalties in one transaction under a row lock on the table, so two
directors saving the same table are serialised and the later one, holding a stale
version, is refused rather than silently overwriting. It is also how a hand the
players entered and confirmed is recorded (`core.table_entry.services`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.caching.stamps import touch_table
from core.common import the_row, with_history_user
from core.errors import HandRejected, InvalidInput, Missing, StaleVersion, StateConflict
from core.events.rulesets import freeze_house_rules, may_need_freezing
from core.hands import held, set_totals
from core.hands.rows import (
    PENALTY_FIELDS,
    SCORE_FIELDS,
    StoredRows,
    score_rows,
    write_rows,
)
from core.hands.selectors import HandView, rows_of, view_of
from core.locks import bound_now, bounded, for_request
from core.rounds.tables import check_table_open
from core.standings.services import queue_standings_refresh
from core.words import listing
from game import rules
from scoring.models import Hand, HandScore, Penalty, Proposal
from tournaments.models import Event, Seat, Table

# A director's reason for correcting (or restoring) a hand, kept as the change reason of
# the history of the hand and its rows (a text column there, so that "restored version
# N: " and the reason fit as well).
CORRECTION_REASON_MAX = 300


@dataclass(frozen=True)
class Recorded:
    """The hand as it now stands, and whether this call changed anything; `view`, the
    hand as the API and the sheet show it, made from what the call holds (no query)."""

    hand: Hand
    changed: bool
    view: HandView
    seats: tuple[Seat, ...]  # the table's, with their players, as the save read them
    # Every attempt of every hand at the table as the save left it, each holding its
    # rows (`core.hands.held`): the sheet draws the saved row and the running totals
    # from them with no query.
    hands: tuple[Hand, ...] = ()


def lock_table_for_write(table: Table) -> Table:
    """Lock the table row for the rest of the transaction and check it takes writes."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=table.pk)
    )
    check_table_open(table)
    return table


@dataclass(frozen=True)
class TableAt:
    """A table named by its numbers in an event, for a save that reads it only under
    its row lock (the API's PUT: the event and the writer's rights are known already)."""

    event: Event
    round_number: int
    number: int


def event_of(table: Table | TableAt) -> Event:
    return table.event if isinstance(table, TableAt) else table.round.event


def lock_table_with_seats(table: Table | TableAt) -> tuple[Table, list[Seat]]:
    """`lock_table_for_write`, and the table's seats with their players, in one query
    (the lock is on the table's row alone; the query sets a request's bound on the lock
    wait, `core.locks.bounded`). Missing for a TableAt naming no table."""
    if isinstance(table, TableAt):
        where = {
            "round__event": table.event,
            "round__number": table.round_number,
            "number": table.number,
        }
    else:
        where = {"pk": table.pk}
    # Unordered, and sorted here: ordering the rows costs a fifth of the query to
    # compile (`core.common.the_row` says why).
    seats = sorted(
        bounded(
            Seat.objects.select_for_update(of=("table",))
            .select_related("table__round__event", "entry__player")
            .filter(**{f"table__{field}": value for field, value in where.items()})
            .order_by()
        ),
        key=lambda seat: seat.position,
    )
    if not seats:
        bound_now()  # no row read, so none set it
        found = the_row(Table.objects.filter(**where))
        if found is None:
            raise Missing(_("No such table."))
        return lock_table_for_write(found), seats
    locked = seats[0].table
    for seat in seats:
        seat.table = locked
    check_table_open(locked)
    return locked, seats


def current_version(attempts: list[Hand]) -> int:
    return max((h.version for h in attempts), default=0)


def check_version(attempts: list[Hand], expected_version: int | None) -> int:
    version = current_version(attempts)
    if expected_version is not None and expected_version != version:
        raise StaleVersion(
            _(
                "This hand was changed by someone else (it is now at version %(version)s, "
                "you edited version %(expected)s). Reload it and enter your change again."
            )
            % {"version": version, "expected": expected_version},
            field="version",
        )
    return version


def attempts_of(table: Table, number: int) -> list[Hand]:
    return list(
        Hand.objects.filter(table=table, number=number)
        .select_related("went_out")
        .prefetch_related(
            Prefetch("scores", HandScore.objects.select_related("seat")),
            Prefetch("penalties", Penalty.objects.select_related("seat")),
        )
        .order_by("attempt")
    )


def hand_state(outcome: str, went_out: int | None, down_and_out: bool, scores, penalties) -> tuple:
    """What a hand says, comparable between a stored hand and a new entry."""
    if outcome == Hand.Outcome.REDEAL:
        return (outcome,)
    return (
        outcome,
        went_out,
        down_and_out,
        sorted((s.seat.position, *(getattr(s, f) for f in SCORE_FIELDS)) for s in scores),
        sorted(
            (p.seat.position, p.kind, *(getattr(p, f) for f in PENALTY_FIELDS)) for p in penalties
        ),
    )


def stored_state(hand: Hand) -> tuple:
    went_out = hand.went_out.position if hand.went_out else None
    return hand_state(hand.outcome, went_out, hand.down_and_out, *rows_of(hand))


def new_state(scored: rules.ScoredHand, seats: dict[int, Seat]) -> tuple:
    scores, penalties = score_rows(Hand(), scored, seats)
    return hand_state(scored.outcome, scored.went_out, scored.down_and_out, scores, penalties)


def score_entry(
    table: Table, number: int, entry: rules.HandEntry, at_table: list[Seat] | None = None
) -> tuple[rules.ScoredHand, dict[int, Seat]]:
    """`entry` as the rules engine scores it at `table` (HandRejected, naming every
    problem, when it is not a valid hand there), with the seats that play the hand.
    `table` comes with its round and event; `at_table`, its seats with their players
    when already read."""
    event = table.round.event
    if at_table is None:
        at_table = list(Seat.objects.filter(table=table).select_related("entry__player"))
    seats = {seat.position: seat for seat in at_table if seat.plays_hand(number)}
    if len(seats) < rules.TABLE_MIN and event.rules.has_hand(number):
        raise StateConflict(too_few_left(table, number, at_table), field="number")
    try:
        scored = rules.score_hand(
            ruleset=event.rules,
            deck=event.deck,
            number=number,
            seats=sorted(seats),
            entry=entry,
            table_rules=event.table_rules,
        )
    except rules.HandInvalid as invalid:
        raise HandRejected(invalid) from invalid
    return scored, seats


def correction_reason(value: object) -> str | None:
    """A director's reason for a correction (optional text kept in the hand's history
    and its archive), spaces tidied; None when none is given. Refused, naming the field
    `reason`, when it is not text or longer than the history keeps. Shown as typed,
    never worded as the reasons the site writes itself (`core.stored_texts.typed`)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(_("The reason for the change is text."), field="reason")
    reason = " ".join(value.split())
    if len(reason) > CORRECTION_REASON_MAX:
        raise InvalidInput(
            _("Keep the reason for the change to %(most)s characters (this one has %(length)s).")
            % {"most": CORRECTION_REASON_MAX, "length": len(reason)},
            field="reason",
        )
    return st.typed(reason) if reason else None


def overrule_proposals(table: Table, number: int, by: AbstractBaseUser | None) -> None:
    """A director's entry for a hand wins over the players' entries still open for it
    (kept, with their history, as overruled). Needs the table's row lock."""
    open_ = Proposal.objects.select_for_update().filter(
        table=table, number=number, state__in=Proposal.OPEN
    )
    for proposal in open_:
        proposal.state = Proposal.State.OVERRULED
        with_history_user(proposal, by, st.stored(st.OVERRULED)).save()


def overrule_open_proposals(event: Event, by: AbstractBaseUser | None) -> None:
    """The directors take the entry over (the event's `table_entry` set to directors):
    the players' entries still open are overruled, kept with their history, and the
    players' pages of their tables follow."""
    open_ = Proposal.objects.select_for_update().filter(
        table__round__event=event, state__in=Proposal.OPEN
    )
    for proposal in open_.select_related("table__round__event"):
        proposal.state = Proposal.State.OVERRULED
        with_history_user(proposal, by, st.stored(st.OVERRULED_DIRECTORS)).save()
        touch_table(proposal.table)


# The entry, or what makes it from the positions of the seats that play the hand, read
# under the table's lock (the sheet's form, whose boxes are the seats).
EntryFrom = rules.HandEntry | Callable[[list[int]], rules.HandEntry]


@for_request("table", bound_by_first_lock=True)
def record_hand(
    *,
    table: Table | TableAt,
    number: int,
    entry: EntryFrom,
    by: AbstractBaseUser | None = None,
    expected_version: int | None = None,
    reason: str | None = None,
) -> Recorded:
    """Record hand `number` at `table`, or correct it.

    Re-sending what is already recorded changes nothing. With `expected_version`, the
    write is refused (StaleVersion) unless the hand is still at that version; 0 means
    "not recorded yet". The one exception is the same save sent again (its client went
    away before the answer): made from the version before the stored one and saying
    exactly what is stored, it is answered as saved. A redeal is kept as its own
    attempt: recording a scored hand after a redeal adds the next attempt. Without
    `expected_version` a repeated redeal is taken for a resend; to record a second
    redeal of the same hand, send the version.
    `reason` goes into the history when no signed-in user records it (players who
    entered and confirmed it). The players' entries still open for the hand are
    overruled: what is recorded here wins. Needs the table's row lock, which it takes,
    waiting for it only briefly (`core.locks`: Busy when another save holds it).
    `table` may be named by its numbers (TableAt): it is then read only under the lock.
    `entry` may be a function of the positions of the seats that play the hand.
    """
    # House rules: as of the first hand. Asked only when the event's row as this request
    # read it may still need freezing (frozen values are never undone; a built-in
    # ruleset cannot become custom once a hand is recorded); checked again under the
    # table's lock below.
    freezing = may_need_freezing(event_of(table))
    if freezing:
        bound_now()  # the event's row is locked first
        freeze_house_rules(event_id=event_of(table).pk)
    table, at_table = lock_table_with_seats(table)
    event = table.round.event
    if not freezing and may_need_freezing(event):
        # Made custom between this request's read and the lock, before any hand: the
        # freeze comes before the table's lock, so nothing is written; saving again does it.
        raise StateConflict(
            _("The event's house rules were chosen meanwhile; save the hand again."),
            field="ruleset",
        )
    if callable(entry):
        entry = entry([seat.position for seat in at_table if seat.plays_hand(number)])
    scored, seats = score_entry(table, number, entry, at_table)

    # The players' entries open for the hand are asked for with its attempts; elsewhere
    # none is open (they are overruled when the directors take the entry over).
    players = event.table_entry == Event.TableEntry.PLAYERS
    found = held.read(table, at_table, open_entries_of=number if players else None)
    attempts = found.of(number)
    latest = attempts[-1] if attempts else None
    same = latest is not None and stored_state(latest) == new_state(scored, seats)
    if same and is_retried_save(attempts, expected_version):
        return unchanged(table, number, by, latest, scored, seats, at_table, found)
    version = check_version(attempts, expected_version)
    if same and (scored.outcome == "scored" or expected_version is None):
        return unchanged(table, number, by, latest, scored, seats, at_table, found)

    if latest is not None and latest.outcome == Hand.Outcome.SCORED:
        hand = latest  # a correction replaces the scored attempt in place, rows and all
        stored = StoredRows(*rows_of(hand))
    else:
        hand = Hand(table=table, number=number, attempt=len(attempts) + 1)
        stored = StoredRows(scores=[], penalties=[])  # a new attempt has no rows yet
    hand.contract = scored.contract
    hand.cards_dealt = scored.cards_dealt
    hand.outcome = scored.outcome
    hand.went_out = seats[scored.went_out] if scored.went_out is not None else None
    hand.down_and_out = scored.down_and_out
    hand.version = version + 1
    hand.recorded_by = by if by is not None and by.is_authenticated else None
    with_history_user(hand, by, reason).save()
    touched, scores, penalties = write_rows(hand, scored, seats, stored, by, reason)
    hand_changed(table, number, by=by, seat_ids=touched, open_entries=found.open_entries)
    deals = max(len(attempts), hand.attempt)
    view = view_of(hand, scores, penalties, hand.version, deals)
    hands = found.with_hand(hand, scores, penalties).attempts
    return Recorded(hand=hand, changed=True, view=view, seats=tuple(at_table), hands=hands)


def is_retried_save(attempts: list[Hand], expected_version: int | None) -> bool:
    """Whether a save whose stored hand already says what it says is that very save
    sent again: made from the version just before the stored one. Its client went away
    before the answer (a timeout, a dropped connection) and sends it once more; it is
    answered as saved, not as "changed by someone else". A different entry made from
    that version is still refused (StaleVersion)."""
    return expected_version is not None and current_version(attempts) == expected_version + 1


def unchanged(
    table: Table,
    number: int,
    by: AbstractBaseUser | None,
    latest: Hand,
    scored: rules.ScoredHand,
    seats: dict[int, Seat],
    at_table: list[Seat],
    found: held.Held,
) -> Recorded:
    """A save that changes nothing: the stored hand, as a resend is answered."""
    hand_changed(table, number, by=by, seat_ids=None, open_entries=found.open_entries)
    deals = len(found.of(number))
    view = view_of(latest, *score_rows(latest, scored, seats), latest.version, deals)
    return Recorded(
        hand=latest, changed=False, view=view, seats=tuple(at_table), hands=found.attempts
    )


def hand_changed(
    table: Table,
    number: int,
    *,
    by: AbstractBaseUser | None,
    seat_ids: set[int] | None,
    open_entries: bool | None = None,
) -> None:
    """What follows a hand changed at `table` (recorded, corrected, restored or
    deleted; the table with its round and event, under its row lock): the players'
    entries still open for it are overruled (what a director records wins), the
    table's players' entry page follows once committed, and, when rows changed
    (`seat_ids`: the seats whose scores were written or removed; None when nothing was),
    the seats' set totals are added up again and the standings rebuilt once committed.
    `open_entries`: whether the players' entries open for the hand are any, when the
    caller read it under the lock (None: they are looked for)."""
    event = table.round.event
    if event.table_entry == Event.TableEntry.PLAYERS and open_entries is not False:
        # Elsewhere none is open: they are overruled when the directors take entry over.
        overrule_proposals(table, number, by)
    touch_table(table)
    if seat_ids is not None:
        set_totals.keep(event_id=event.pk, table_id=table.pk, seat_ids=seat_ids)
        queue_standings_refresh(event)


def too_few_left(table: Table, number: int, seats: list[Seat]) -> str:
    """Why a table that lost players cannot play hand `number`."""
    left = [seat for seat in seats if not seat.plays_hand(number)]
    who = listing(
        _("%(name)s (seat %(seat)s) left after hand %(hand)s")
        % {"name": seat.entry.player.name, "seat": seat.position, "hand": seat.left_after_hand}
        for seat in left
    )
    playing = len(seats) - len(left)
    closed = table.closed_after_hand if table.closed_after_hand is not None else number - 1
    return _(
        "Table %(table)s cannot play hand %(hand)s: only %(playing)s players are left "
        "(%(who)s), and a table needs at least %(least)s. It closed after hand "
        "%(closed)s; once the round is closed, the hands it could not play are scored from "
        "the field for the players still at it."
    ) % {
        "table": table.number,
        "hand": number,
        "playing": playing,
        "who": who,
        "least": rules.TABLE_MIN,
        "closed": closed,
    }


@for_request("table")
def delete_hand(
    *,
    table: Table,
    number: int,
    by: AbstractBaseUser | None = None,
    expected_version: int | None = None,
) -> int:
    """Delete hand `number` at `table` with all its attempts (history keeps them).
    Returns how many attempts were removed; 0 when there was nothing to delete."""
    table = lock_table_for_write(table)
    attempts = attempts_of(table, number)
    check_version(attempts, expected_version)
    touched: set[int] = set()
    for hand in attempts:
        for row in [*hand.scores.all(), *hand.penalties.all()]:
            touched.add(row.seat_id)
            with_history_user(row, by).delete()
        with_history_user(hand, by).delete()
    hand_changed(table, number, by=by, seat_ids=touched if attempts else None)
    return len(attempts)
