"""Every hand of a table, read in one query by the save that holds the table's lock.

A hand's save needs the attempts of the hand it writes, with their score and penalty
rows (to compare, to correct in place, to check the version); the sheet that shows
the saved row needs every hand of the table, for the running totals. `read` gets both
at once, and whether the players' entries still open for the hand are any: one query
(a LEFT JOIN of the table's hands, their scores and their penalties), taken after the
table's row lock, so nothing it reads can change before the save commits. The rows
come back as model instances, each hand holding its rows (`selectors.rows_of` gives
them with no query), their seats those the save already read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db import connection
from django.db.models import Exists, OuterRef

from core.hands.selectors import ROWS_HELD
from scoring.models import Hand, HandScore, Penalty, Proposal
from tournaments.models import Seat, Table

HAND_FIELDS = [f for f in Hand._meta.concrete_fields if f.name != "table"]
SCORE_FIELDS = [f for f in HandScore._meta.concrete_fields if f.name != "hand"]
PENALTY_FIELDS = [f for f in Penalty._meta.concrete_fields if f.name != "hand"]
COLUMNS = (
    [f"hands__{f.name}" for f in HAND_FIELDS]
    + [f"hands__scores__{f.name}" for f in SCORE_FIELDS]
    + [f"hands__penalties__{f.name}" for f in PENALTY_FIELDS]
)


@dataclass(frozen=True)
class Held:
    """A table's hands as the save read them: every attempt, in order."""

    attempts: tuple[Hand, ...]
    open_entries: bool | None  # players' entries open for the hand (None: not asked)

    def of(self, number: int) -> list[Hand]:
        """Hand `number`'s attempts, in order."""
        return [hand for hand in self.attempts if hand.number == number]

    def with_hand(self, hand: Hand, scores: Iterable[HandScore], penalties: Iterable[Penalty]):
        """The table's hands once `hand` (saved) holds these rows."""
        holding(hand, scores, penalties)
        others = [h for h in self.attempts if h.pk != hand.pk]
        ordered = sorted([*others, hand], key=lambda h: (h.number, h.attempt))
        return replace(self, attempts=tuple(ordered))


def holding(hand: Hand, scores: Iterable[HandScore], penalties: Iterable[Penalty]) -> Hand:
    """`hand` holding these rows (`core.hands.selectors.rows_of` gives them with no
    query)."""
    scores, penalties = list(scores), list(penalties)
    for row in [*scores, *penalties]:
        row.hand = hand
    setattr(hand, ROWS_HELD, (scores, penalties))
    return hand


def read(table: Table, seats: list[Seat], open_entries_of: int | None = None) -> Held:
    """Every attempt of every hand at `table` with its scores and penalties (their
    seats taken from `seats`, the table's, with their players), and, given a hand
    number, whether players' entries are still open for it: 1 query (one more in the
    unlikely case that a row names a seat no longer among `seats`)."""
    query = Table.objects.filter(pk=table.pk).order_by()
    columns = list(COLUMNS)
    if open_entries_of is not None:
        open_ = Proposal.objects.filter(
            table=OuterRef("pk"), number=open_entries_of, state__in=Proposal.OPEN
        )
        query = query.annotate(open_entries=Exists(open_))
        columns.append("open_entries")
    rows = list(query.values_list(*columns))
    by_seat = {seat.pk: seat for seat in seats}
    hands: dict[int, tuple[Hand, dict, dict]] = {}
    first_score, first_penalty = len(HAND_FIELDS), len(HAND_FIELDS) + len(SCORE_FIELDS)
    end = first_penalty + len(PENALTY_FIELDS)
    for row in rows:
        hand_values = row[:first_score]
        if hand_values[0] is None:
            continue  # the table has no hand yet
        if hand_values[0] not in hands:
            hands[hand_values[0]] = (made(Hand, HAND_FIELDS, hand_values), {}, {})
        _, scores, penalties = hands[hand_values[0]]
        score_values, penalty_values = row[first_score:first_penalty], row[first_penalty:end]
        if score_values[0] is not None and score_values[0] not in scores:
            scores[score_values[0]] = made(HandScore, SCORE_FIELDS, score_values)
        if penalty_values[0] is not None and penalty_values[0] not in penalties:
            penalties[penalty_values[0]] = made(Penalty, PENALTY_FIELDS, penalty_values)
    missing = {
        row.seat_id
        for _, scores, penalties in hands.values()
        for row in [*scores.values(), *penalties.values()]
        if row.seat_id not in by_seat
    } | {
        hand.went_out_id
        for hand, _, _ in hands.values()
        if hand.went_out_id is not None and hand.went_out_id not in by_seat
    }
    if missing:
        by_seat |= Seat.objects.select_related("entry__player").in_bulk(missing)
    attempts = []
    for hand, scores, penalties in hands.values():
        hand.table = table
        hand.went_out = by_seat[hand.went_out_id] if hand.went_out_id is not None else None
        for row in [*scores.values(), *penalties.values()]:
            row.seat = by_seat[row.seat_id]
        attempts.append(holding(hand, scores.values(), penalties.values()))
    attempts.sort(key=lambda h: (h.number, h.attempt))
    open_entries = bool(rows[0][-1]) if open_entries_of is not None and rows else None
    return Held(attempts=tuple(attempts), open_entries=open_entries)


def made(model, fields, values):
    """A model instance as a query would load it (saved, its fields these values)."""
    names = [f.attname for f in fields]
    instance = model(**dict(zip(names, values, strict=True)))
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance
