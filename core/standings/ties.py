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
    before: tuple[Sequence[Any], Sequence[int | None]] | None = None,
) -> tuple:
    """`rows` (StandingRows in rank order) with `tie` filled where a neighbour has the
    same score; `keys`: each row's ranking keys as stored (`Standing.tiebreaks`), in the
    same order. `before`: the rows of the document made last, with their notes, and
    for each of `rows` the index there of the same row, but maybe for its place (None:
    a row made again). A row whose neighbours are, in the same order, the ones it had
    there keeps its note (what the notes compare, names, scores and ranking keys, is the
    same), and only the others' notes are worked out: after a few hands, the rows near
    the players who scored, not the players they passed."""
    rows = tuple(rows)
    if not rows or score_of(event, rows[0]) is None:
        return rows
    label = score_of(event, rows[0])[1]
    noted, origins = before or ((), ())
    if len(origins) != len(rows):
        ties = [tie_row(event, row, key) for row, key in zip(rows, keys, strict=True)]
        notes = tie_notes(ties, label)
        return tuple(
            replace(row, tie=note) if note else row for row, note in zip(rows, notes, strict=True)
        )
    made: dict[int, TieRow] = {}
    out = []
    for i, row in enumerate(rows):
        was = origins[i]
        if was is not None and same_neighbours(origins, i, len(noted)):
            kept = noted[was]  # its row then, with its note
            if not kept.tie:
                out.append(row)
            elif (kept.rank, kept.movement) == (row.rank, row.movement):
                out.append(kept)
            else:
                out.append(moved(kept, row.rank, row.movement))
            continue
        window = range(max(i - 1, 0), min(i + 2, len(rows)))
        for j in window:
            if j not in made:
                made[j] = tie_row(event, rows[j], keys[j])
        near = [made[j] for j in window]
        note = tie_note_at(near, i - window.start, label)
        out.append(replace(row, tie=note) if note else row)
    return tuple(out)


def moved(row: Any, rank: int, movement: int | None) -> Any:
    """`row` (a frozen dataclass's) at another place, all else the same: a copy with its
    rank and movement set, without `dataclasses.replace`'s call of the class with every
    field (a busy rebuild moves thousands of rows: the players passed)."""
    copy = object.__new__(type(row))
    copy.__dict__.update(row.__dict__)
    object.__setattr__(copy, "rank", rank)
    object.__setattr__(copy, "movement", movement)
    return copy


def same_neighbours(origins: Sequence[int | None], i: int, before: int) -> bool:
    """Whether row `i`'s neighbours above and below are the ones its row had in the
    document before (`before` rows long), in the same places around it."""
    was = origins[i]
    for step in (-1, 1):
        here, there = i + step, was + step
        has_here, has_there = 0 <= here < len(origins), 0 <= there < before
        if has_here != has_there or (has_here and origins[here] != there):
            return False
    return True


def tie_row(event: Event, row: Any, keys: Sequence[Sequence[object]] | None) -> TieRow:
    """What the tie notes compare of a row: its name as the board shows it (namesakes
    told apart), its score, and its ranking keys as stored."""
    return TieRow(
        name=row.name, score=score_of(event, row)[0], keys=tuple(tuple(pair) for pair in keys or ())
    )
