"""Why one player is above another with the same score: the first key of the ranking
that tells them apart, in words. Plain Python on what `game.ranking.rank`
reports for each entry (`Ranked.tiebreaks`: the keys in the order applied, with the
values shown); the ranking itself is untouched."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.words import Said, joined, say

# key -> (what it is, whether more is better); knockout keys are never between two
# players on one score in the formats this explains.
KEYS: dict[str, tuple[Said, bool]] = {
    "sets_played": (say("sets played"), True),
    "hands_missing": (say("hands missing from incomplete sets"), False),
    "points": (say("points"), False),
    "table_points": (say("table points"), True),
    "hands_won": (say("hands won"), True),
    "penalty_points": (say("director-penalty points"), False),
    "best_set": (say("best set (lower is better)"), False),
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
    return say("none") if value is None else str(value)


def why_above(upper: TieRow, lower: TieRow) -> Said:
    """In words, why `upper` ranks above `lower` on the same score."""
    found = deciding_key(upper, lower)
    if found is None or found[0] == "draw":
        return say("the seeded draw")
    key, mine, theirs = found
    what, _ = KEYS.get(key, (key.replace("_", " "), True))
    return say(
        "%(what)s, %(mine)s to %(theirs)s", what=what, mine=shown(mine), theirs=shown(theirs)
    )


def level_on(score: object, score_label: str) -> Said:
    """The score two neighbours share, in words: "level on 775 points"."""
    if score_label == "points":
        return say("level on %(score)s points", score=shown(score))
    if score_label == "table points":
        return say("level on %(score)s table points", score=shown(score))
    return say("level on %(score)s %(label)s", score=shown(score), label=score_label)


def pair_notes(upper: TieRow, lower: TieRow, score_label: str) -> tuple[Said, Said] | None:
    """For two neighbours (`upper` just above `lower`) on the same score, the note each
    gets about the other; None when their scores differ."""
    if upper.score != lower.score:
        return None
    reason, level = why_above(upper, lower), level_on(upper.score, score_label)
    return (
        say("Above %(name)s (%(level)s): %(reason)s.", name=lower.name, level=level, reason=reason),
        say("Below %(name)s (%(level)s): %(reason)s.", name=upper.name, level=level, reason=reason),
    )


def tie_notes(rows: Sequence[TieRow], score_label: str) -> list[str]:
    """For each row (in rank order), a note on the players with its score just above
    and below it and what separated them; "" for a row whose score nobody next to it
    shares. `score_label` names the score: "points" or "table points"."""
    notes: list[list[Said]] = [[] for _ in rows]
    for i in range(1, len(rows)):
        pair = pair_notes(rows[i - 1], rows[i], score_label)
        if pair is not None:
            notes[i - 1].append(pair[0])
            notes[i].append(pair[1])
    return [joined(parts) if parts else "" for parts in notes]


def tie_note_at(rows: Sequence[TieRow], i: int, score_label: str) -> str:
    """The note `tie_notes` gives row `i`, worked out for that row alone."""
    parts = []
    if i > 0 and (above := pair_notes(rows[i - 1], rows[i], score_label)) is not None:
        parts.append(above[1])
    if i + 1 < len(rows) and (below := pair_notes(rows[i], rows[i + 1], score_label)) is not None:
        parts.append(below[0])
    return joined(parts) if parts else ""
