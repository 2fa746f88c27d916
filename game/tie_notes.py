"""Why one player is above another with the same score: the first key of the ranking
that tells them apart, in words. Plain Python on what `game.ranking.rank`
reports for each entry (`Ranked.tiebreaks`: the keys in the order applied, with the
values shown); the ranking itself is untouched."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# key -> (what it is, whether more is better); knockout keys are never between two
# players on one score in the formats this explains.
KEYS: dict[str, tuple[str, bool]] = {
    "sets_played": ("sets played", True),
    "hands_missing": ("hands missing from incomplete sets", False),
    "points": ("points", False),
    "table_points": ("table points", True),
    "hands_won": ("hands won", True),
    "penalty_points": ("director-penalty points", False),
    "best_set": ("best set (lower is better)", False),
}


@dataclass(frozen=True)
class TieRow:
    name: str
    score: object  # what the board shows as the score (points, or table points)
    keys: tuple[tuple[str, object], ...]  # (key, value shown), in the order applied


def deciding_key(upper: TieRow, lower: TieRow) -> tuple[str, object, object] | None:
    """The first key on which `upper` and `lower` differ: (key, upper's, lower's)."""
    theirs = dict(lower.keys)
    for key, value in upper.keys:
        if key in theirs and theirs[key] != value:
            return key, value, theirs[key]
    return None


def shown(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "none" if value is None else str(value)


def why_above(upper: TieRow, lower: TieRow) -> str:
    """In words, why `upper` ranks above `lower` on the same score."""
    found = deciding_key(upper, lower)
    if found is None or found[0] == "draw":
        return "the seeded draw"
    key, mine, theirs = found
    what, _ = KEYS.get(key, (key.replace("_", " "), True))
    return f"{what}, {shown(mine)} to {shown(theirs)}"


def tie_notes(rows: Sequence[TieRow], score_label: str) -> list[str]:
    """For each row (in rank order), a note on the players with its score just above
    and below it and what separated them; "" for a row whose score nobody next to it
    shares."""
    notes: list[list[str]] = [[] for _ in rows]
    for i in range(1, len(rows)):
        upper, lower = rows[i - 1], rows[i]
        if upper.score != lower.score:
            continue
        reason = why_above(upper, lower)
        level = f"level on {shown(upper.score)} {score_label}"
        notes[i - 1].append(f"Above {lower.name} ({level}): {reason}.")
        notes[i].append(f"Below {upper.name} ({level}): {reason}.")
    return [" ".join(parts) for parts in notes]
