"""A whole set at one table: each seat's total, the finishing order, and when a table
that lost players can no longer play on. No Django here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Scored(Protocol):
    """A scored hand as `game.rules.ScoredHand` gives it (rules imports this module)."""

    number: int
    results: tuple[Any, ...]  # each with a seat and a score


# RULES.md, "Players, packs, table size": a table seats 3 to 6 players.
TABLE_MIN, TABLE_MAX = 3, 6


@dataclass(frozen=True)
class SetResult:
    totals: dict[int, int]
    # (place, seats sharing it), lowest total first; tied seats share a place and
    # the next place is skipped (standard competition ranking, "1224").
    places: tuple[tuple[int, tuple[int, ...]], ...]

    def place_of(self, seat: int) -> int:
        for place, seats in self.places:
            if seat in seats:
                return place
        raise KeyError(seat)


def set_totals(hands: Iterable[Scored], seats: Iterable[int]) -> dict[int, int]:
    """Each seat's set total; a redeal has no results, so it adds nothing."""
    totals = {seat: 0 for seat in seats}
    for hand in hands:
        for result in hand.results:
            if result.seat not in totals:
                raise ValueError(f"hand {hand.number} scores seat {result.seat}, not at the table")
            totals[result.seat] += result.score
    return totals


def set_result(totals: Mapping[int, int]) -> SetResult:
    """The finishing order of a set: the lowest total wins."""
    ordered = sorted(totals.items(), key=lambda item: (item[1], item[0]))
    places: list[tuple[int, tuple[int, ...]]] = []
    for i, (seat, total) in enumerate(ordered):
        if i and total == ordered[i - 1][1]:
            place, tied = places[-1]
            places[-1] = (place, (*tied, seat))
        else:
            places.append((i + 1, (seat,)))
    return SetResult(totals=dict(totals), places=tuple(places))


def ends_after(leave_points: Sequence[int | None], hand_count: int) -> int | None:
    """The last hand a table can play when players leave it mid-set, or None when at
    least three play every hand of the set.

    `leave_points` holds each seat's leave point: the hand after which the player left
    (None: they stay to the end). A hand needs three players, so the table closes after
    the hand before the first one fewer than three would play: a table of three whose
    seat 2 left after hand 4 ends after hand 4; its other players' sets are incomplete.
    """
    for number in range(1, hand_count + 1):
        playing = sum(1 for left in leave_points if left is None or number <= left)
        if playing < TABLE_MIN:
            return number - 1
    return None
