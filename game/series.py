"""A series (a circuit or season of events): series points by final place in each leg,
the best results counting, the series ranking and the qualifying cut. Plain Python,
no Django: `core.series.standings` reads the legs' final places and stores what this
returns.

- A leg scores by the points scale: place 1 earns `scale[0]`, place 2 `scale[1]`, ...;
  places beyond the scale score 0, and a leg that has not finished scores nothing.
  Players of a leg level on everything its tiebreaks decide but the draw share the
  points of the places they cover (two level for 1st on 100, 80: 90 each), as table
  points are shared at one table: a leg's draw never hands out series points.
- `best_of` N: a player's N best legs count (most points first; between equal points
  the earlier leg); the others are dropped, shown but not added. None: all count.
- Ranks are never shared. Players level on series points are separated by the
  countback, in order: their counted results compared place by place (best first), then
  the better place in the latest leg they all played, then (only if still level) the
  series' verifiable draw (`draw_key`: a seed committed to from the series' creation,
  revealed when its final is seeded). Each row says which step placed it below the row
  above (`decided_by`).
- The first `qualifiers` ranks qualify for the final; with `ties_qualify`, so does
  everyone level with the last of them after the countback's non-random steps.
- A finalist's carried score follows the series rank (`carried_score`); players level
  after the non-random steps carry the same (`carries`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from game import prizes
from game.words import say, say_plural

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
        raise ValueError(say("must be a non-empty list of points, best place first"))
    if len(scale) > MAX_SCALE_LENGTH:
        raise ValueError(
            say_plural(
                "may have at most %(most)s places",
                "may have at most %(most)s places",
                MAX_SCALE_LENGTH,
                most=MAX_SCALE_LENGTH,
            )
        )
    for place, points in enumerate(scale, start=1):
        if isinstance(points, bool) or not isinstance(points, int):
            raise ValueError(
                say(
                    "place %(place)s: %(points)s is not a whole number",
                    place=place,
                    points=repr(points),
                )
            )
        if not 0 <= points <= MAX_SCALE_POINTS:
            raise ValueError(
                say(
                    "place %(place)s: %(points)s is not 0 to %(most)s",
                    place=place,
                    points=points,
                    most=MAX_SCALE_POINTS,
                )
            )
    for place in range(1, len(scale)):
        if scale[place] > scale[place - 1]:
            raise ValueError(
                say(
                    "place %(place)s scores %(points)s, more than place %(better)s "
                    "(%(better_points)s): a worse place never scores more",
                    place=place + 1,
                    points=scale[place],
                    better=place,
                    better_points=scale[place - 1],
                )
            )
    return tuple(scale)


def points_for(place: int, scale: Sequence[int], shared: int = 1) -> Fraction:
    """Series points for a final place in a leg (1 is first), shared equally by the
    `shared` players level there: the mean of the places they cover."""
    if place < 1:
        raise ValueError(f"a place is 1 or more, not {place}")
    if shared < 1:
        raise ValueError(f"a place is shared by 1 or more, not {shared}")
    covered = [scale[i] if i < len(scale) else 0 for i in range(place - 1, place - 1 + shared)]
    return Fraction(sum(covered), shared)


def draw_key(player: int, draw_seed: int | str = 0) -> str:
    """The player's ticket in the series' seeded draw: lower draws first. The first 16
    hex digits of SHA-256 of "series:SEED:PLAYER_ID"."""
    return hashlib.sha256(f"series:{draw_seed}:{player}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class LegPlace:
    """A player's final place in one leg. `leg` orders the legs (earlier first);
    `shared`: how many players share the place (level on all but the leg's draw), the
    place being the best they cover."""

    leg: int
    player: int
    place: int
    shared: int = 1


@dataclass(frozen=True)
class LegResult:
    leg: int
    place: int
    points: Fraction
    counted: bool
    shared: bool = False


# How series ties are decided, as the series' page and its print say it.
COUNTBACK_WORDS = (
    "Players level on points share nothing by chance: a leg's place shared by players "
    "level on all but its draw shares its points. Ties: more points, then the counted "
    "results compared place by place (best first), then the better place in the latest "
    "leg both played, then the series' draw (its seed committed to from the start, "
    "revealed when the final is seeded)."
)
DECIDED_WORDS = {
    "countback": "on countback (counted results place by place)",
    "latest_leg": "on the latest leg both played",
    "draw": "by the series' draw",
}


def shown(points: Fraction) -> int | float:
    """Series points as pages and the API give them: whole, or to two decimals."""
    return int(points) if points.denominator == 1 else round(float(points), 2)


# What separated a row from the one above it, in the countback's order.
ON_POINTS, ON_COUNTBACK, ON_LATEST_LEG, ON_DRAW = "points", "countback", "latest_leg", "draw"
DECIDED_BY = (ON_POINTS, ON_COUNTBACK, ON_LATEST_LEG, ON_DRAW)
NO_PLACE = 10**9  # a result a player does not have: worse than any place


@dataclass(frozen=True)
class SeriesRow:
    player: int
    rank: int
    points: Fraction
    events_played: int
    best_place: int
    results: tuple[LegResult, ...]
    qualified: bool
    draw: str
    # The countback's non-random steps: counted places best first, then the place in
    # the latest leg everyone level with this row on points and results played (None
    # when nobody is).
    countback: tuple[int, ...] = ()
    latest_place: int | None = None
    latest_leg: int | None = None
    decided_by: str = ""  # what placed it below the row above ("": the first row)

    @property
    def tie_key(self) -> tuple:
        """Everything the ranking compares before the draw: equal keys are level."""
        return (-self.points, self.countback, self.latest_place or NO_PLACE)


def counted_results(
    places: Sequence[LegPlace], *, scale: Sequence[int], best_of: int | None
) -> tuple[LegResult, ...]:
    """One player's results in leg order, the best `best_of` marked counted."""
    ordered = sorted(places, key=lambda p: p.leg)
    scored = [(p, points_for(p.place, scale, p.shared)) for p in ordered]
    if best_of is None:
        keep = set(range(len(scored)))
    else:
        best = sorted(range(len(scored)), key=lambda i: (-scored[i][1], scored[i][0].leg))
        keep = set(best[:best_of])
    return tuple(
        LegResult(leg=p.leg, place=p.place, points=points, counted=i in keep, shared=p.shared > 1)
        for i, (p, points) in enumerate(scored)
    )


def countback_of(results: Sequence[LegResult], length: int) -> tuple[int, ...]:
    """The counted places, best first, padded to `length` with NO_PLACE: compared place
    by place, the better first place wins, then the second, ..."""
    places = sorted(r.place for r in results if r.counted)
    return tuple(places) + (NO_PLACE,) * (length - len(places))


def standings(
    places: Iterable[LegPlace],
    *,
    scale: Sequence[int] = DEFAULT_POINTS_SCALE,
    best_of: int | None = None,
    qualifiers: int = 0,
    draw_seed: int | str = 0,
    ties_qualify: bool = False,
) -> list[SeriesRow]:
    """The series ranking from every player's final place in every finished leg."""
    if best_of is not None and best_of < 1:
        raise ValueError(f"best_of is 1 or more (or None for all), not {best_of}")
    if qualifiers < 0:
        raise ValueError(f"qualifiers is 0 or more, not {qualifiers}")
    by_player: dict[int, list[LegPlace]] = {}
    for place in places:
        by_player.setdefault(place.player, []).append(place)
    made = []
    for player, own in by_player.items():
        legs = [p.leg for p in own]
        if len(set(legs)) != len(legs):
            raise ValueError(f"player {player} has two places in one leg")
        results = counted_results(own, scale=scale, best_of=best_of)
        made.append((player, results))
    length = max((sum(r.counted for r in results) for _, results in made), default=0)
    rows = [
        SeriesRow(
            player=player,
            rank=0,
            points=sum((r.points for r in results if r.counted), Fraction(0)),
            events_played=len(results),
            best_place=min(r.place for r in results),
            results=results,
            qualified=False,
            draw=draw_key(player, draw_seed),
            countback=countback_of(results, length),
        )
        for player, results in made
    ]
    rows = with_latest_leg(rows)
    rows.sort(key=lambda r: (*r.tie_key, r.draw, r.player))
    ranked = []
    for rank, row in enumerate(rows, start=1):
        above = ranked[-1] if ranked else None
        ranked.append(replace(row, rank=rank, decided_by=decided_by(above, row)))
    cut = ranked[qualifiers - 1].tie_key if ties_qualify and 0 < qualifiers <= len(ranked) else None
    return [
        replace(r, qualified=r.rank <= qualifiers or (cut is not None and r.tie_key == cut))
        for r in ranked
    ]


def with_latest_leg(rows: list[SeriesRow]) -> list[SeriesRow]:
    """Each group level on points and counted places, with its members' places in the
    latest leg they all played (the countback's second step)."""
    groups: dict[tuple, list[SeriesRow]] = {}
    for row in rows:
        groups.setdefault((row.points, row.countback), []).append(row)
    out = []
    for group in groups.values():
        if len(group) < 2:
            out.extend(group)
            continue
        played = [{r.leg: r.place for r in row.results} for row in group]
        common = set.intersection(*(set(p) for p in played))
        if not common:
            out.extend(group)
            continue
        latest = max(common)
        out.extend(
            replace(row, latest_leg=latest, latest_place=own[latest])
            for row, own in zip(group, played, strict=True)
        )
    return out


def decided_by(above: SeriesRow | None, row: SeriesRow) -> str:
    """Which step of the ranking placed `row` below `above` ("" for the first row)."""
    if above is None:
        return ""
    if above.points != row.points:
        return ON_POINTS
    if above.countback != row.countback:
        return ON_COUNTBACK
    if (above.latest_place or NO_PLACE) != (row.latest_place or NO_PLACE):
        return ON_LATEST_LEG
    return ON_DRAW


def carried_score(rank: int, step: int) -> int:
    """The points a finalist starts the final with, from their series rank: the leader
    starts at 0 and each rank below adds `step` (a lower total is better)."""
    if rank < 1 or step < 0:
        raise ValueError("rank is 1 or more and step 0 or more")
    return (rank - 1) * step


def carries(rows: Sequence[SeriesRow], step: int) -> dict[int, int]:
    """player -> the score they carry into the final by their series rank, the same for
    players level after the countback's non-random steps (the best rank's carry)."""
    best: dict[tuple, int] = {}
    for row in sorted(rows, key=lambda r: r.rank):
        best.setdefault(row.tie_key, row.rank)
    return {row.player: carried_score(best[row.tie_key], step) for row in rows}


def tied_groups(rows: Sequence[SeriesRow]) -> list[list[int]]:
    """The ranks of the players level on everything before the draw, in groups of rank
    order (a group of one is not tied): what a prize table may share between them."""
    return prizes.tied_groups(rows, lambda row: row.tie_key)


def shared_places(ranked: Sequence[tuple[int, object]]) -> dict[int, tuple[int, int]]:
    """A leg's final standings as (rank, what its tiebreaks compared but the draw), in
    any order -> rank -> (the best place of its level group, how many share it)."""
    out: dict[int, tuple[int, int]] = {}
    group: list[int] = []
    previous: object = None
    for rank, key in [*sorted(ranked, key=lambda pair: pair[0]), (None, object())]:
        if group and (rank is None or key != previous):
            for member in group:
                out[member] = (group[0], len(group))
            group = []
        if rank is not None:
            group.append(rank)
            previous = key
    return out


def level_values(tiebreaks: Iterable[Sequence]) -> tuple:
    """What a leg's standing compared before its draw: its tiebreaks without the draw."""
    return tuple(tuple(item) for item in tiebreaks or () if item and item[0] != "draw")
