"""Places and placement points at one table: who finished where (lowest total first,
incomplete sets after the others), and the placement points each place earns on the
event's scale, resampled for a table of another size. Plain data, no Django;
`game.ranking` adds them up over an event."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from numbers import Real
from typing import Protocol

from game.rules import set_result
from game.words import say

DEFAULT_TABLE_POINTS: tuple[int, ...] = (4, 2, 1, 0)


class PlacedSet(Protocol):
    """One entry's set at a table, as `game.ranking.SetRecord` gives it."""

    entry: int
    round: int
    table: int
    total: int

    @property
    def incomplete(self) -> bool: ...


def table_places(sets_at_one_table: Iterable[PlacedSet]) -> dict[int, int]:
    """entry -> place at one table: lowest total first, ties share ("1224"); incomplete
    sets after all the others, by their totals."""
    sets = list(sets_at_one_table)
    if len({(s.round, s.table) for s in sets}) > 1:
        raise ValueError("table_places takes the sets of one table in one round")
    if len({s.entry for s in sets}) != len(sets):
        raise ValueError("an entry has more than one set at this table")
    return places_of(sets)


def places_of(sets: Iterable[PlacedSet]) -> dict[int, int]:
    """entry -> place among any sets (of one table, or the contenders of one): the
    complete ones first, by total, then the incomplete ones."""
    sets = list(sets)
    played = [s for s in sets if not s.incomplete]
    places = _places_among(played)
    after = len(played)
    places.update({e: after + p for e, p in _places_among(s for s in sets if s.incomplete).items()})
    return places


def _places_among(sets: Iterable[PlacedSet]) -> dict[int, int]:
    result = set_result({s.entry: s.total for s in sets})
    return {entry: place for place, tied in result.places for entry in tied}


def scale_for(
    table_size: int, table_points: Sequence[float] = DEFAULT_TABLE_POINTS
) -> tuple[float, ...]:
    """Placement points for each place at a table of `table_size`, best first.

    The event's scale has one value per place at a table of its own length (four for
    the default [4, 2, 1, 0]). For another size n, each place stands for an equal 1/n
    slice of the finishing order and gets the scale's average over that same slice,
    reading the scale as m equal slices of 1/m:

        place i of n gets  n * (sum over j of overlap(slice i of n, slice j of m) * scale[j])

    So a table's points add up to n/m times the scale's sum: a seat is worth the same
    on average whatever the table's size, and nobody gains from being seated at a three
    or a five. With [4, 2, 1, 0]: a three gets [3.5, 1.5, 0.25] (winning a three beats
    two players, not three), a five [4, 2.5, 1.5, 0.75, 0], a six [4, 3, 2, 1, 0.5, 0];
    a four keeps the scale as it is. An integer scale of four gives quarters at most.
    """
    scale = check_scale(table_points)
    return tuple(float(value) for value in _resampled(_check_size(table_size), scale))


def placement_points(
    places: Mapping[int, int], table_points: Sequence[float] = DEFAULT_TABLE_POINTS
) -> dict[int, float]:
    """entry -> placement points at one table, from `table_places`.

    The table's size is the number of entries placed; its scale is `scale_for` that
    size. Entries tied for a place share equally the points of the places they cover:
    two tied for 2nd at a four with [4, 2, 1, 0] cover 2nd and 3rd, so get 1.5 each.
    """
    scale = check_scale(table_points)
    size = _check_size(len(places))
    tied = defaultdict(int)
    for place in places.values():
        tied[place] += 1
    for place, count in tied.items():
        if place < 1 or place + count - 1 > size:
            raise ValueError(f"{count} entries at place {place} do not fit a table of {size}")
    return {e: float(tied_share(size, place, tied[place], scale)) for e, place in places.items()}


def check_scale(table_points: Sequence[float]) -> tuple[Fraction, ...]:
    if isinstance(table_points, str) or not isinstance(table_points, Iterable):
        raise ValueError(
            say("table_points must be a list of numbers, not %(value)s", value=repr(table_points))
        )
    values = tuple(table_points)
    if not values or not all(
        isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v) for v in values
    ):
        raise ValueError(
            say("table_points must be a list of numbers, not %(value)s", value=repr(list(values)))
        )
    if any(later > earlier for earlier, later in zip(values, values[1:], strict=False)):
        # Best place first: a rising scale would rank the table upside down.
        raise ValueError(
            say(
                "table_points must not rise from one place to the next: %(values)s",
                values=str(values),
            )
        )
    # Exact fractions, so equal sums compare equal whatever order they were added in.
    return tuple(Fraction(v) for v in values)


def _check_size(table_size: int) -> int:
    if isinstance(table_size, bool) or not isinstance(table_size, int) or table_size < 1:
        raise ValueError(f"a table has at least one player, not {table_size!r}")
    return table_size


@lru_cache(maxsize=256)
def _resampled(size: int, scale: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    m = len(scale)
    # In units of 1/(size*m): place i spans [i*m, (i+1)*m), scale slice j [j*size, (j+1)*size).
    places = []
    for i in range(size):
        weighted = Fraction(0)
        for j, value in enumerate(scale):
            overlap = min((i + 1) * m, (j + 1) * size) - max(i * m, j * size)
            if overlap > 0:
                weighted += overlap * value
        places.append(weighted / m)
    return tuple(places)


@lru_cache(maxsize=1024)
def tied_share(size: int, place: int, tied: int, scale: tuple[Fraction, ...]) -> Fraction:
    covered = _resampled(size, scale)[place - 1 : place - 1 + tied]
    return sum(covered, Fraction(0)) / tied
