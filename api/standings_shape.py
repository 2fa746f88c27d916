"""The standings as the API represents them, made directly: what
`StandingsSerializer(standings).data` gives (the same keys in the same order, the same
values), without a serializer field's work for each of a row's twenty values. The
serializer stays the description (the OpenAPI schema, API.md); this is what the API
answers with. A 4,096-player list is made at every rebuild (`api.standings.
keep_whole_list`) and by a reader wherever it was not kept: the serializer took about
0.13 s of CPU for it, this about a tenth of that (docs/benchmarks.md, "twelfth pass").
`tests/api/test_standings_shape.py` holds the two equal on every kind of row.

As DRF does, a value that may be None (a round, a best set, a movement, a replacement)
is represented as None whatever its field; a row's lists of notes are never None."""

from __future__ import annotations

from typing import Any

from core.standings.selectors import AdjustedHand, IncompleteSet, PlayerRef, StandingRow, Standings


def represented(standings: Standings) -> dict[str, Any]:
    """`standings` as the API represents them (in the active language)."""
    return {
        "version": number(standings.version),
        "round": number(standings.round),
        "round_closed": truth(standings.round_closed),
        "final": truth(standings.final),
        "count": number(standings.count),
        "standings": [row_of(row) for row in standings.rows],
    }


def row_of(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": number(row.rank),
        "player": player_of(row.player),
        "points": number(row.points),
        "table_points": None if row.table_points is None else float(row.table_points),
        "sets_played": number(row.sets_played),
        "sets_incomplete": number(row.sets_incomplete),
        "incomplete": [incomplete_of(note) for note in row.incomplete],
        "adjusted_hands": number(row.adjusted_hands),
        "at_fault_hands": number(row.at_fault_hands),
        "adjusted": [adjusted_of(note) for note in row.adjusted],
        "hands_won": number(row.hands_won),
        "penalty_points": number(row.penalty_points),
        "best_set": number(row.best_set),
        "movement": number(row.movement),
        "status": choice(row.status),
        "replaced_by": player_of(row.replaced_by),
    }


def player_of(player: PlayerRef | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": number(player.id), "name": text(player.name)}


def incomplete_of(note: IncompleteSet) -> dict[str, Any]:
    return {
        "round": number(note.round),
        "table": number(note.table),
        "played": number(note.played),
        "hands": number(note.hands),
        "why": choice(note.why),
        "text": text(note.text),
    }


def adjusted_of(note: AdjustedHand) -> dict[str, Any]:
    return {
        "hand": number(note.hand),
        "score": number(note.score),
        "at_fault": truth(note.at_fault),
        "rule": choice(note.rule),
        "text": text(note.text),
        "round": number(note.round),
        "table": number(note.table),
    }


def number(value: Any) -> int | None:
    return None if value is None else int(value)


def truth(value: Any) -> bool | None:
    return None if value is None else bool(value)


def text(value: Any) -> str | None:
    return None if value is None else str(value)


def choice(value: Any) -> Any:
    """As a choice field represents one of its choices (all strings here)."""
    return value if value in ("", None) else str(value)
