"""A series (a circuit or season of events): series points by final place in each leg,
the best results counting, the series ranking and the qualifying cut. Plain Python,
no Django: `core.series.standings` reads the legs' final places and stores what this
returns.

- A leg scores by the points scale: place 1 earns `scale[0]`, place 2 `scale[1]`, ...;
  places beyond the scale score 0, and a leg that has not finished scores nothing.
- `best_of` N: a player's N best legs count (most points first; between equal points
  the earlier leg); the others are dropped, shown but not added. None: all count.
- Ranks are never shared: more points, then the better best place in any leg, then
  more legs played, then a seeded draw (`draw_key`, the same draw as an event's).
- The first `qualifiers` ranks qualify for the final.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game import prizes

DEFAULT_POINTS_SCALE: tuple[int, ...] = (
    100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16,
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
)  # fmt: skip
MAX_SCALE_LENGTH = 1000
MAX_SCALE_POINTS = 100_000


def default_points_scale() -> list[int]:
    return list(DEFAULT_POINTS_SCALE)


def check_points_scale(scale: object) -> tuple[int, ...]:
    """The scale as used, or ValueError saying what is wrong with it: whole numbers,
    0 or more, never more for a worse place."""
    if not isinstance(scale, (list, tuple)) or not scale:
        raise ValueError("must be a non-empty list of points, best place first")
    if len(scale) > MAX_SCALE_LENGTH:
        raise ValueError(f"may have at most {MAX_SCALE_LENGTH} places")
    for place, points in enumerate(scale, start=1):
        if isinstance(points, bool) or not isinstance(points, int):
            raise ValueError(f"place {place}: {points!r} is not a whole number")
        if not 0 <= points <= MAX_SCALE_POINTS:
            raise ValueError(f"place {place}: {points} is not 0 to {MAX_SCALE_POINTS}")
    for place in range(1, len(scale)):
        if scale[place] > scale[place - 1]:
            raise ValueError(
                f"place {place + 1} scores {scale[place]}, more than place {place} "
                f"({scale[place - 1]}): a worse place never scores more"
            )
    return tuple(scale)


def points_for(place: int, scale: Sequence[int]) -> int:
    """Series points for a final place in a leg (1 is first)."""
    if place < 1:
        raise ValueError(f"a place is 1 or more, not {place}")
    return scale[place - 1] if place <= len(scale) else 0


def draw_key(player: int, draw_seed: int = 0) -> str:
    """The player's ticket in the series' seeded draw: lower draws first."""
    return hashlib.sha256(f"series:{draw_seed}:{player}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class LegPlace:
    """A player's final place in one leg. `leg` orders the legs (earlier first)."""

    leg: int
    player: int
    place: int


@dataclass(frozen=True)
class LegResult:
    leg: int
    place: int
    points: int
    counted: bool


@dataclass(frozen=True)
class SeriesRow:
    player: int
    rank: int
    points: int
    events_played: int
    best_place: int
    results: tuple[LegResult, ...]
    qualified: bool
    draw: str

    @property
    def tie_key(self) -> tuple[int, int, int]:
        """Everything the ranking compares before the draw: equal keys are tied."""
        return (-self.points, self.best_place, -self.events_played)


def counted_results(
    places: Sequence[LegPlace], *, scale: Sequence[int], best_of: int | None
) -> tuple[LegResult, ...]:
    """One player's results in leg order, the best `best_of` marked counted."""
    ordered = sorted(places, key=lambda p: p.leg)
    scored = [(p, points_for(p.place, scale)) for p in ordered]
    if best_of is None:
        keep = set(range(len(scored)))
    else:
        best = sorted(range(len(scored)), key=lambda i: (-scored[i][1], scored[i][0].leg))
        keep = set(best[:best_of])
    return tuple(
        LegResult(leg=p.leg, place=p.place, points=points, counted=i in keep)
        for i, (p, points) in enumerate(scored)
    )


def standings(
    places: Iterable[LegPlace],
    *,
    scale: Sequence[int] = DEFAULT_POINTS_SCALE,
    best_of: int | None = None,
    qualifiers: int = 0,
    draw_seed: int = 0,
) -> list[SeriesRow]:
    """The series ranking from every player's final place in every finished leg."""
    if best_of is not None and best_of < 1:
        raise ValueError(f"best_of is 1 or more (or None for all), not {best_of}")
    if qualifiers < 0:
        raise ValueError(f"qualifiers is 0 or more, not {qualifiers}")
    by_player: dict[int, list[LegPlace]] = {}
    for place in places:
        by_player.setdefault(place.player, []).append(place)
    rows = []
    for player, own in by_player.items():
        legs = [p.leg for p in own]
        if len(set(legs)) != len(legs):
            raise ValueError(f"player {player} has two places in one leg")
        results = counted_results(own, scale=scale, best_of=best_of)
        rows.append(
            SeriesRow(
                player=player,
                rank=0,
                points=sum(r.points for r in results if r.counted),
                events_played=len(results),
                best_place=min(r.place for r in results),
                results=results,
                qualified=False,
                draw=draw_key(player, draw_seed),
            )
        )
    rows.sort(key=lambda r: (*r.tie_key, r.draw, r.player))
    return [
        SeriesRow(
            player=r.player,
            rank=rank,
            points=r.points,
            events_played=r.events_played,
            best_place=r.best_place,
            results=r.results,
            qualified=rank <= qualifiers,
            draw=r.draw,
        )
        for rank, r in enumerate(rows, start=1)
    ]


def carried_score(rank: int, step: int) -> int:
    """The points a finalist starts the final with, from their series rank: the leader
    starts at 0 and each rank below adds `step` (a lower total is better)."""
    if rank < 1 or step < 0:
        raise ValueError("rank is 1 or more and step 0 or more")
    return (rank - 1) * step


def tied_groups(rows: Sequence[SeriesRow]) -> list[list[int]]:
    """The ranks of the players tied on everything before the draw, in groups of rank
    order (a group of one is not tied): what a prize table may share between them."""
    return prizes.tied_groups(rows, lambda row: row.tie_key)
