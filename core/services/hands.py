"""Director actions on hands: record (or correct) a hand, delete a hand.

`record_hand` validates through the pure `game.rules`, then writes the hand, its
scores and penalties in one transaction under a row lock on the table, so two
directors saving the same table are serialised and the later one, holding a stale
version, is refused rather than silently overwriting. It is also how a hand the
players entered and confirmed is recorded (`core.services.proposals`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from core.errors import HandRejected, InvalidInput, StaleVersion, StateConflict
from core.live import touch_table
from core.services.common import with_history_user
from core.services.standings import queue_standings_refresh
from core.services.tables import check_table_open
from game import rules
from scoring.models import Hand, HandScore, Penalty, Proposal
from tournaments.models import Seat, Table

SCORE_FIELDS = ("card_points", "cards", "penalty_points", "score", "sat_out")
PENALTY_FIELDS = ("points", "extra_calls")


@dataclass(frozen=True)
class Recorded:
    """The hand as it now stands, and whether this call changed anything."""

    hand: Hand
    changed: bool


def lock_table_for_write(table: Table) -> Table:
    """Lock the table row for the rest of the transaction and check it takes writes."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=table.pk)
    )
    check_table_open(table)
    return table


def current_version(attempts: list[Hand]) -> int:
    return max((h.version for h in attempts), default=0)


def check_version(attempts: list[Hand], expected_version: int | None) -> int:
    version = current_version(attempts)
    if expected_version is not None and expected_version != version:
        raise StaleVersion(
            f"This hand was changed by someone else (it is now at version {version}, "
            f"you edited version {expected_version}). Reload it and enter your change again.",
            field="version",
        )
    return version


def attempts_of(table: Table, number: int) -> list[Hand]:
    return list(
        Hand.objects.filter(table=table, number=number)
        .select_related("went_out")
        .prefetch_related("scores__seat", "penalties__seat")
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
    return hand_state(
        hand.outcome, went_out, hand.down_and_out, hand.scores.all(), hand.penalties.all()
    )


def new_state(scored: rules.ScoredHand, seats: dict[int, Seat]) -> tuple:
    scores, penalties = score_rows(Hand(), scored, seats)
    return hand_state(scored.outcome, scored.went_out, scored.down_and_out, scores, penalties)


def entry_of(hand: Hand) -> rules.HandEntry:
    """What a director would have typed for a stored hand (scores and penalties with
    their seats loaded): every seat's points or cards, and each penalty as charged."""
    if hand.outcome == Hand.Outcome.REDEAL:
        return rules.HandEntry(redeal=True)
    return rules.HandEntry(
        went_out=hand.went_out.position if hand.went_out else None,
        down_and_out=hand.down_and_out,
        scores=tuple(
            rules.SeatEntry(seat=s.seat.position, cards=s.cards)
            if s.cards
            else rules.SeatEntry(seat=s.seat.position, points=s.card_points)
            for s in hand.scores.all()
        ),
        penalties=tuple(
            rules.PenaltyEntry(
                seat=p.seat.position,
                kind=p.kind,
                extra_calls=p.extra_calls or None,
                points=p.points,
            )
            for p in hand.penalties.all()
        ),
    )


def check_stored_hand(hand: Hand, seats: dict[int, Seat]) -> None:
    """Check a hand written by other means than `record_hand` (an imported archive)
    exactly as `record_hand` would have: the rules engine scores what it says, and its
    stored rows must be what that gives. `seats` are the seats playing it, by position;
    the hand's event, scores, penalties and seats are loaded."""
    event = hand.table.round.event
    try:
        scored = rules.score_hand(
            ruleset=event.rules,
            deck=event.deck,
            number=hand.number,
            seats=sorted(seats),
            entry=entry_of(hand),
            table_rules=event.table_rules,
        )
    except rules.HandInvalid as invalid:
        raise HandRejected(invalid) from invalid
    if (hand.contract, hand.cards_dealt) != (scored.contract, scored.cards_dealt):
        raise InvalidInput(
            f"hand {hand.number} is {scored.contract} with {scored.cards_dealt} cards, "
            f"not {hand.contract} with {hand.cards_dealt}",
            field="hands",
        )
    if stored_state(hand) != new_state(scored, seats):
        raise InvalidInput(
            "its scores are not what the rules give for the points and penalties it holds",
            field="scores",
        )


def cards_text(result: rules.SeatResult) -> str:
    return " ".join(str(card) for card in result.cards) if result.cards is not None else ""


def score_entry(
    table: Table, number: int, entry: rules.HandEntry
) -> tuple[rules.ScoredHand, dict[int, Seat]]:
    """`entry` as the rules engine scores it at `table` (HandRejected, naming every
    problem, when it is not a valid hand there), with the seats that play the hand.
    `table` comes with its round and event."""
    event = table.round.event
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


def overrule_proposals(table: Table, number: int, by: AbstractBaseUser | None) -> None:
    """A director's entry for a hand wins over the players' entries still open for it
    (kept, with their history, as overruled). Needs the table's row lock."""
    open_ = Proposal.objects.select_for_update().filter(
        table=table, number=number, state__in=Proposal.OPEN
    )
    for proposal in open_:
        proposal.state = Proposal.State.OVERRULED
        with_history_user(proposal, by, "overruled by a director's entry").save()


@transaction.atomic
def record_hand(
    *,
    table: Table,
    number: int,
    entry: rules.HandEntry,
    by: AbstractBaseUser | None = None,
    expected_version: int | None = None,
    reason: str | None = None,
) -> Recorded:
    """Record hand `number` at `table`, or correct it.

    Re-sending what is already recorded changes nothing. With `expected_version`, the
    write is refused (StaleVersion) unless the hand is still at that version; 0 means
    "not recorded yet". A redeal is kept as its own attempt: recording a scored hand
    after a redeal adds the next attempt. Without `expected_version` a repeated redeal
    is taken for a resend; to record a second redeal of the same hand, send the version.
    `reason` goes into the history when no signed-in user records it (players who
    entered and confirmed it). The players' entries still open for the hand are
    overruled: what is recorded here wins. Needs the table's row lock, which it takes.
    """
    table = lock_table_for_write(table)
    event = table.round.event
    scored, seats = score_entry(table, number, entry)

    attempts = attempts_of(table, number)
    version = check_version(attempts, expected_version)
    overrule_proposals(table, number, by)
    touch_table(table)
    latest = attempts[-1] if attempts else None
    if latest is not None and stored_state(latest) == new_state(scored, seats):
        is_resend = scored.outcome == "scored" or expected_version is None
        if is_resend:
            return Recorded(hand=latest, changed=False)

    if latest is not None and latest.outcome == Hand.Outcome.SCORED:
        hand = latest  # a correction replaces the scored attempt in place
    else:
        hand = Hand(table=table, number=number, attempt=len(attempts) + 1)
    hand.contract = scored.contract
    hand.cards_dealt = scored.cards_dealt
    hand.outcome = scored.outcome
    hand.went_out = seats[scored.went_out] if scored.went_out is not None else None
    hand.down_and_out = scored.down_and_out
    hand.version = version + 1
    hand.recorded_by = by if by is not None and by.is_authenticated else None
    with_history_user(hand, by, reason).save()
    write_rows(hand, scored, seats, by, reason)
    queue_standings_refresh(event)
    return Recorded(hand=hand, changed=True)


def too_few_left(table: Table, number: int, seats: list[Seat]) -> str:
    """Why a table that lost players cannot play hand `number`."""
    left = [seat for seat in seats if not seat.plays_hand(number)]
    who = ", ".join(
        f"{seat.entry.player.name} (seat {seat.position}) left after hand {seat.left_after_hand}"
        for seat in left
    )
    playing = len(seats) - len(left)
    return (
        f"Table {table.number} cannot play hand {number}: only {playing} players are left "
        f"({who}), and a table needs at least {rules.TABLE_MIN}. It closed after hand "
        f"{table.closed_after_hand if table.closed_after_hand is not None else number - 1}; "
        "its sets are incomplete and rank after the round's complete sets."
    )


def score_rows(
    hand: Hand, scored: rules.ScoredHand, seats: dict[int, Seat]
) -> tuple[list[HandScore], list[Penalty]]:
    """The score and penalty rows that `scored` stands for (unsaved)."""
    scores = [
        HandScore(
            hand=hand,
            seat=seats[r.seat],
            card_points=r.card_points,
            cards=cards_text(r),
            penalty_points=r.penalty_points,
            score=r.score,
            sat_out=r.sat_out,
        )
        for r in scored.results
    ]
    penalties = [
        Penalty(
            hand=hand,
            seat=seats[p.seat],
            kind=p.kind,
            points=p.points,
            extra_calls=p.extra_calls,
        )
        for p in scored.penalties
    ]
    return scores, penalties


def sync_rows(
    existing: dict, wanted: dict, fields: tuple[str, ...], by, reason: str | None = None
) -> None:
    """Bring stored rows to the wanted ones, updating in place so each row's history
    shows before -> after; rows no longer wanted are deleted."""
    for key, row in existing.items():
        if key not in wanted:
            with_history_user(row, by, reason).delete()
    for key, new in wanted.items():
        row = existing.get(key)
        if row is None:
            with_history_user(new, by, reason).save()
        elif any(getattr(row, f) != getattr(new, f) for f in fields):
            for f in fields:
                setattr(row, f, getattr(new, f))
            with_history_user(row, by, reason).save()


def write_rows(
    hand: Hand,
    scored: rules.ScoredHand,
    seats: dict[int, Seat],
    by: AbstractBaseUser | None,
    reason: str | None = None,
) -> None:
    scores, penalties = score_rows(hand, scored, seats)
    sync_rows(
        {s.seat.position: s for s in hand.scores.select_related("seat")},
        {s.seat.position: s for s in scores},
        SCORE_FIELDS,
        by,
        reason,
    )
    sync_rows(
        {(p.seat.position, p.kind): p for p in hand.penalties.select_related("seat")},
        {(p.seat.position, p.kind): p for p in penalties},
        PENALTY_FIELDS,
        by,
        reason,
    )


@transaction.atomic
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
    overrule_proposals(table, number, by)
    touch_table(table)
    for hand in attempts:
        for row in [*hand.scores.all(), *hand.penalties.all()]:
            with_history_user(row, by).delete()
        with_history_user(hand, by).delete()
    if attempts:
        queue_standings_refresh(table.round.event)
    return len(attempts)
