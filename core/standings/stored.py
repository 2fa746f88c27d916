"""What a standings rebuild stores for each entry: one row of figures (`StoredRow`, the
columns of `scoring.models.Standing` it writes and compares) and its incomplete sets'
notes, built here beside the rebuild rather than by the pages' reads."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, NamedTuple

from game import ranking

CENTS = Decimal("0.01")


class StoredRow(NamedTuple):
    """A standing's figures as stored and compared: one field per written column."""

    rank: int
    points: int
    table_points: Decimal
    sets_played: int
    sets_incomplete: int
    incomplete: list[dict]
    hands_won: int
    penalty_points: int
    best_set: int | None
    adjusted_hands: int
    at_fault_hands: int
    adjusted: list[dict]
    status: str
    filled_in: list[int]
    movement: int | None
    tiebreaks: list[list[Any]]


# Every column a rebuild writes, in StoredRow's order.
WRITTEN = StoredRow._fields


# A row's figures but its place: what a player others passed keeps (`only_moved`).
KEPT_WHEN_MOVED = tuple(i for i, name in enumerate(WRITTEN) if name not in ("rank", "movement"))


def only_moved(before: tuple, after: tuple) -> bool:
    """Whether a stored row (its values in WRITTEN's order) and its new values differ in
    nothing but the place, rank and movement: a player others passed, most of a busy
    round's changed rows."""
    return all(before[i] == after[i] for i in KEPT_WHEN_MOVED)


def as_stored(value: float) -> Decimal:
    """Placement points as the database keeps them (two decimals)."""
    return Decimal(repr(float(value))).quantize(CENTS)


def stored_row(
    ranked: ranking.Ranked, notes: list[dict], movement: int | None, adjusted: list[dict]
) -> StoredRow:
    """What the rebuild stores for one ranked entry."""
    return StoredRow(
        rank=ranked.rank,
        points=ranked.points,
        table_points=as_stored(ranked.table_points),
        sets_played=ranked.sets_played,
        sets_incomplete=ranked.sets_incomplete,
        incomplete=notes,
        hands_won=ranked.hands_won,
        penalty_points=ranked.penalty_points,
        best_set=ranked.best_set,
        adjusted_hands=ranked.adjusted_hands,
        at_fault_hands=ranked.at_fault_hands,
        adjusted=adjusted,
        status=ranked.status,
        filled_in=list(ranked.filled_in),
        movement=movement,
        tiebreaks=[list(pair) for pair in ranked.tiebreaks],
    )


def incomplete_note(record: ranking.SetRecord, hands: int) -> dict:
    """An incomplete set as a standing stores it (`Standing.incomplete`)."""
    return {
        "round": record.round,
        "table": record.table,
        "played": hands - record.hands_missing,
        "hands": hands,
        "why": record.why,
    }


def incomplete_notes(sets: Iterable[ranking.SetRecord], hands: int) -> dict[int, list[dict]]:
    """entry -> a note for each of its incomplete sets among `sets`, by round."""
    notes: dict[int, list[dict]] = {}
    for record in sorted(sets, key=lambda r: r.round):
        if record.incomplete:
            notes.setdefault(record.entry, []).append(incomplete_note(record, hands))
    return notes


def adjusted_notes(sets: Iterable[ranking.SetRecord]) -> dict[int, list[dict]]:
    """entry -> a note for each hand adjusted among `sets` (`Standing.adjusted`), by
    round and hand."""
    notes: dict[int, list[dict]] = {}
    for record in sorted(sets, key=lambda r: r.round):
        for a in record.adjusted:
            notes.setdefault(record.entry, []).append(
                {
                    "round": record.round,
                    "table": record.table,
                    "hand": a.hand,
                    "score": a.score,
                    "at_fault": a.at_fault,
                    "rule": a.rule,
                }
            )
    return notes


def merged_notes(
    closed: dict[int, list[dict]] | None, live: dict[int, list[dict]]
) -> dict[int, list[dict]]:
    """The closed rounds' notes (kept once per process) with the rounds in play's, each
    entry's in round order."""
    if closed is None:
        return live
    notes = {entry: list(kept) for entry, kept in closed.items()}
    for entry, more in live.items():
        notes.setdefault(entry, []).extend(more)
    for entry_notes in notes.values():
        entry_notes.sort(key=lambda note: note["round"])
    return notes
