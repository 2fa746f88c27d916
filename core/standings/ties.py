"""Tie notes for the standings: which tiebreak put one player above another
on the same score, for the leaderboard, the projector and the results PDF. No query:
the standings' rows come with the keys their ranking applied. A row keeps its note as
the game's words (`StandingRow.tie`): the standings are cached for every language, so
the note is said in the reader's when shown (`StandingRow.tie_note`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from game.tie_notes import TieRow, tie_note_at, tie_notes
from tournaments.models import Event


def score_of(event: Event, row: Any) -> tuple[object, str] | None:
    """The score the board shows for a row, and its name; None: a format whose order is
    not a score (knockout)."""
    if event.format == Event.Format.TABLE_POINTS:
        return row.table_points, "table points"
    if event.format == Event.Format.TOTAL:
        return row.points, "points"
    return None


def with_tie_notes(
    event: Event,
    rows: Sequence[Any],
    keys: Sequence[Sequence[Sequence[object]] | None],
    before: tuple[Sequence[Any], Sequence[Any]] | None = None,
) -> tuple:
    """`rows` (StandingRows in rank order) with `tie` filled where a neighbour has the
    same score; `keys`: each row's ranking keys as stored (`Standing.tiebreaks`), in the
    same order. `before`: the rows of the document made last, without and with their
    notes: a row that, with its neighbours, is the very row at that place there keeps
    its noted row, and only the others' notes are worked out (after one hand, a few)."""
    rows = tuple(rows)
    if not rows or score_of(event, rows[0]) is None:
        return rows
    label = score_of(event, rows[0])[1]
    plain, noted = before or ((), ())
    if len(plain) != len(rows):
        ties = [tie_row(event, row, key) for row, key in zip(rows, keys, strict=True)]
        notes = tie_notes(ties, label)
        return tuple(
            replace(row, tie=note) if note else row for row, note in zip(rows, notes, strict=True)
        )
    made: dict[int, TieRow] = {}
    out = []
    for i, row in enumerate(rows):
        window = range(max(i - 1, 0), min(i + 2, len(rows)))
        if all(rows[j] is plain[j] for j in window):
            out.append(noted[i])
            continue
        for j in window:
            if j not in made:
                made[j] = tie_row(event, rows[j], keys[j])
        near = [made[j] for j in window]
        note = tie_note_at(near, i - window.start, label)
        out.append(replace(row, tie=note) if note else row)
    return tuple(out)


def tie_row(event: Event, row: Any, keys: Sequence[Sequence[object]] | None) -> TieRow:
    """What the tie notes compare of a row: its name as the board shows it (namesakes
    told apart), its score, and its ranking keys as stored."""
    return TieRow(
        name=row.name, score=score_of(event, row)[0], keys=tuple(tuple(pair) for pair in keys or ())
    )
