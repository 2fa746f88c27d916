"""Seating a round: who sits at which table, in which seat, and who deals first.

Plain Python on plain data (DESIGN.md: the pure modules): `seat()` takes the active
contenders, how often each pair has already shared a table, a policy and a seed, and
returns the tables with a report on their quality; `assess()` recomputes that report
after a director moves players by hand. The same request and seed always give the
same seating: every random choice comes from `random.Random(seed)` and nothing
depends on the order of a dict or set. The weights of repeat meetings, their lower bound
and the local search that repairs a seating are in `seating_search.py`.

What each policy puts first, and what comes after it (API.md "Rounds and seating"):

- every policy first follows its own ordering goal (none for random and mixer), then
  keeps repeat meetings as few as it can, then balances who deals first and the seat
  positions each player has had;
- `random`: a seeded shuffle, repaired by tabu search over swaps between tables;
- `spread`: seeds (or ratings) snaked across tables so the strongest are apart; repairs
  only swap players of the same strength band, so the snake's shape survives;
- `swiss`: neighbours in the standings sit together; a repair moves a player at most
  SWISS_REACH (two) tables up or down, and as few places as it can;
- `mixer`: the fewest repeats, standings ignored: a longer tabu search, and for fields
  of 16, 32 or 64 a schedule built to run the most rounds without any repeat
  (`seating_design.py`);
- `knockout`: like spread, by current rank, for the players who advanced.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from game import seating_design
from game.club_seating import club_pairs, keep_clubs_apart
from game.seating_search import improve, lower_bound, met_weights
from game.words import Said, say, say_plural

RANDOM, SPREAD, SWISS, MIXER, KNOCKOUT = "random", "spread", "swiss", "mixer", "knockout"
POLICIES: tuple[str, ...] = (RANDOM, SPREAD, SWISS, MIXER, KNOCKOUT)
FIVES, THREES = "fives", "threes"
ODD_TABLES: tuple[str, ...] = (FIVES, THREES)

MIN_PLAYERS = 3
TABLE = 4  # RULES.md: tournaments seat four per table; 3 and 5 absorb the remainder
SWISS_REACH = 2  # tables a swiss repair may move a player away from their standing


class SeatingError(ValueError):
    """A round that cannot be seated as asked; the message says why, for a director."""


@dataclass(frozen=True)
class Contender:
    id: int  # entry id
    seed: int | None = None  # seed number, 1 strongest (spread)
    rating: int | None = None  # spread when there is no seed; higher is stronger
    rank: int | None = None  # current standings rank, 1 best (swiss, knockout)
    dealt_first: int = 0  # rounds this player has been the first dealer
    positions: tuple[int, ...] = ()  # seat positions in earlier rounds
    club: str = ""  # kept apart from clubmates when the request avoids clubs


@dataclass(frozen=True)
class SeatingRequest:
    contenders: tuple[Contender, ...]
    # frozenset({a, b}) -> how many times a and b have already shared a table
    met: Mapping[frozenset[int], int] = field(default_factory=dict)
    policy: str = RANDOM
    odd_tables: str = FIVES
    seed: int = 0
    # Keep players of the same club at different tables where no repeat meeting comes
    # of it (`game.club_seating`); the quality report then counts clubmates seated together.
    avoid_clubs: bool = False


@dataclass(frozen=True)
class TablePlan:
    number: int  # 1..n
    seats: tuple[int, ...]  # contender ids; position 1 is seats[0], then clockwise
    dealer: int  # position (1-based) of the first dealer


@dataclass(frozen=True)
class Quality:
    repeat_meetings: int  # pairs at one table this round who had already met
    repeat_pairs: tuple[tuple[int, int], ...]  # those pairs, (low id, high id), sorted
    lower_bound: int | None  # the fewest repeats any seating can have, where known
    rank_spread: tuple[int, ...] | None  # swiss: per table, max rank - min rank
    # With club avoidance: the pairs of clubmates at one table (None: not counted).
    club_pairs: tuple[tuple[int, int], ...] | None = None

    def as_dict(self) -> dict:
        report = {
            "repeat_meetings": self.repeat_meetings,
            "repeat_pairs": [list(pair) for pair in self.repeat_pairs],
            "lower_bound": self.lower_bound,
            "rank_spread": None if self.rank_spread is None else list(self.rank_spread),
        }
        if self.club_pairs is not None:
            report["club_meetings"] = len(self.club_pairs)
            report["club_pairs"] = [list(pair) for pair in self.club_pairs]
        return report


@dataclass(frozen=True)
class Seating:
    tables: tuple[TablePlan, ...]
    quality: Quality


# --- table sizes --------------------------------------------------------------------------


def table_sizes(count: int, odd_tables: str = FIVES) -> list[int]:
    """Tables for `count` players, largest first: fours, and as few tables of the
    `odd_tables` size (5 for "fives", 3 for "threes") as make up the rest; when that
    size cannot (11 players with fives, 5 with threes), as few of the other size.

    Mixing 3s and 5s is never needed: a 3 and a 5 are two 4s.
    """
    if odd_tables not in ODD_TABLES:
        raise SeatingError(_not_odd_tables(odd_tables))
    if count < MIN_PLAYERS:
        raise SeatingError(_too_few(count))
    preferred = 5 if odd_tables == FIVES else 3
    for odd_size in (preferred, 8 - preferred):
        # Fives and threes are 1 and 3 mod 4, so 0 to 3 of them fix any remainder.
        for odd in range(TABLE):
            rest = count - odd * odd_size
            if rest >= 0 and rest % TABLE == 0:
                return sorted([odd_size] * odd + [TABLE] * (rest // TABLE), reverse=True)
    raise AssertionError(f"no table sizes for {count}")  # pragma: no cover: 3.. all work


def _too_few(count: int) -> Said:
    return say_plural(
        "%(least)s players are needed to seat a round; %(count)s is active",
        "%(least)s players are needed to seat a round; %(count)s are active",
        count,
        least=MIN_PLAYERS,
        count=count,
    )


def _not_odd_tables(odd_tables: object) -> Said:
    return say(
        "odd_tables must be one of %(valid)s, not %(value)s",
        valid=", ".join(ODD_TABLES),
        value=repr(odd_tables),
    )


# --- seating a round ----------------------------------------------------------------------


def seat(request: SeatingRequest) -> Seating:
    _check(request)
    rng = random.Random(request.seed)
    # Sorted by id so the order the caller listed them in changes nothing.
    contenders = sorted(request.contenders, key=lambda c: c.id)
    ids = [c.id for c in contenders]
    sizes = table_sizes(len(ids), request.odd_tables)
    index = {pid: i for i, pid in enumerate(ids)}
    weights = met_weights(request.met, index)
    bound = lower_bound(weights, sizes)

    if request.policy in (RANDOM, MIXER):
        groups = _mixed(weights, sizes, rng, bound, thorough=request.policy == MIXER)
        ranks = None
    elif request.policy == SWISS:
        ranks = _standing_ranks(contenders)
        groups = _swiss(contenders, ranks, weights, sizes, rng, bound)
    else:
        key = _strength if request.policy == SPREAD else _standing
        groups = _snaked(contenders, key, weights, sizes, rng, bound)
        ranks = None

    clubs = None
    if request.avoid_clubs:
        clubs = {c.id: c.club for c in contenders}
        groups = _clubs_apart(groups, contenders, clubs, request, ranks, rng)

    tables = tuple(
        _arrange(number, [contenders[i] for i in group], rng)
        for number, group in enumerate(groups, start=1)
    )
    quality = assess([t.seats for t in tables], request.met, ranks, request.policy, clubs=clubs)
    return Seating(tables=tables, quality=quality)


def _clubs_apart(groups, contenders, clubs, request, ranks, rng) -> list[list[int]]:
    """`groups` (indices into `contenders`) with clubmates moved apart, keeping the
    policy's order: swiss swaps between neighbouring tables only, spread and knockout
    between players of one strength tier (one row of the snake)."""
    by_id = {c.id: i for i, c in enumerate(contenders)}
    tables = [[contenders[i].id for i in group] for group in groups]
    table_of = {pid: n for n, t in enumerate(tables) for pid in t}
    may_swap = None
    if request.policy == SWISS:

        def may_swap(a: int, b: int) -> bool:
            return abs(table_of[a] - table_of[b]) <= 1

    elif request.policy not in (RANDOM, MIXER):
        key = _strength if request.policy == SPREAD else _standing
        order = sorted(contenders, key=key)
        tier = {c.id: i // max(1, len(groups)) for i, c in enumerate(order)}

        def may_swap(a: int, b: int) -> bool:
            return tier[a] == tier[b]

    apart = keep_clubs_apart(tables, clubs, request.met, rng, may_swap=may_swap)
    return [[by_id[pid] for pid in t] for t in apart]


def _check(request: SeatingRequest) -> None:
    if request.policy not in POLICIES:
        raise SeatingError(
            say(
                "seating policy must be one of %(valid)s, not %(value)s",
                valid=", ".join(POLICIES),
                value=repr(request.policy),
            )
        )
    if request.odd_tables not in ODD_TABLES:
        raise SeatingError(_not_odd_tables(request.odd_tables))
    counts = Counter(c.id for c in request.contenders)
    twice = sorted(pid for pid, k in counts.items() if k > 1)
    if twice:
        raise SeatingError(
            say("each player is seated once; listed twice: %(twice)s", twice=str(twice))
        )
    if len(request.contenders) < MIN_PLAYERS:
        raise SeatingError(_too_few(len(request.contenders)))


def _mixed(weights, sizes, rng, bound, *, thorough: bool) -> list[list[int]]:
    n = len(weights)
    if thorough and set(sizes) == {TABLE}:
        # Only when every pair met at most once: the construction knows no repeats.
        met_once = [(a, b) for a in range(n) for b, t in weights[a].items() if a < b and t == 1]
        if sum(len(w) for w in weights) == 2 * len(met_once):
            planned = seating_design.next_round(n, met_once, rng)
            if planned is not None:
                rng.shuffle(planned)
                return planned
    order = list(range(n))
    rng.shuffle(order)
    budget = min(20_000, 2_000 + 200 * n) if thorough else min(4_000, 400 + 20 * n)
    return improve(_cut(order, sizes), weights, rng, budget=budget, bound=bound)


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    ends = list(itertools.accumulate(sizes))
    return [list(order[end - size : end]) for end, size in zip(ends, sizes, strict=True)]


# --- ordered policies ---------------------------------------------------------------------


def _strength(c: Contender) -> tuple:
    """Spread order: seeds first (1 strongest), then ratings (highest first), then id."""
    if c.seed is not None:
        return (0, c.seed, c.id)
    if c.rating is not None:
        return (1, -c.rating, c.id)
    return (2, 0, c.id)


def _standing(c: Contender) -> tuple:
    """Standings order: rank (1 best), unranked players (late entries) last, then id."""
    return (c.rank is None, c.rank or 0, c.id)


def _standing_ranks(contenders: Sequence[Contender]) -> dict[int, int]:
    """Ranks as given; unranked players ranked after everyone, in id order."""
    ranked = [c.rank for c in contenders if c.rank is not None]
    after = max(ranked, default=0)
    unranked = sorted(c.id for c in contenders if c.rank is None)
    ranks = {c.id: c.rank for c in contenders if c.rank is not None}
    ranks.update({pid: after + i for i, pid in enumerate(unranked, start=1)})
    return ranks


def _snaked(contenders, key, weights, sizes, rng, bound) -> list[list[int]]:
    """Snake order: table 1 gets the 1st, 2n-th, (2n+1)-th strongest and so on, tables
    with no seat left skipped. A repair swaps only players of the same pass (band)."""
    order = sorted(range(len(contenders)), key=lambda i: key(contenders[i]))
    groups: list[list[int]] = [[] for _ in sizes]
    band = [0] * len(order)
    queue = iter(order)
    for passing in range(max(sizes)):
        tables = [t for t in range(len(sizes)) if sizes[t] > passing]
        for t in tables if passing % 2 == 0 else reversed(tables):
            player = next(queue)
            groups[t].append(player)
            band[player] = passing
    return improve(
        groups,
        weights,
        rng,
        budget=min(4_000, 400 + 20 * len(order)),
        bound=bound,
        may_swap=lambda a, b: band[a] == band[b],
    )


def _swiss(contenders, ranks, weights, sizes, rng, bound) -> list[list[int]]:
    """Consecutive runs of the standings; repeats removed by swaps that keep each player
    within SWISS_REACH tables of their own, moving them as few places as possible."""
    order = sorted(range(len(contenders)), key=lambda i: (ranks[contenders[i].id], i))
    groups = _cut(order, sizes)
    place = [0] * len(order)
    home = [0] * len(order)
    for position, player in enumerate(order):
        place[player] = position
    first = [0, *itertools.accumulate(sizes)]
    for t, group in enumerate(groups):
        for player in group:
            home[player] = t

    def displacement(player: int, t: int) -> int:
        p = place[player]
        return max(0, first[t] - p, p - (first[t + 1] - 1))

    def nearby(player: int) -> range:
        return range(
            max(0, home[player] - SWISS_REACH), min(len(sizes), home[player] + SWISS_REACH + 1)
        )

    return improve(
        groups,
        weights,
        rng,
        budget=min(20_000, 200 + 12 * len(order)),
        bound=bound,
        place_cost=displacement,
        tables_for=nearby,
    )


# --- seats and the first dealer -----------------------------------------------------------


def _arrange(number: int, players: Sequence[Contender], rng: random.Random) -> TablePlan:
    """Seat positions so each player avoids the positions they have had most, then the
    first dealer among those who have dealt first least; ties drawn by `rng`."""
    order = list(players)
    rng.shuffle(order)
    best_cost, best_seats = None, order
    for seats in itertools.permutations(order):
        cost = sum(c.positions.count(pos) for pos, c in enumerate(seats, start=1))
        if best_cost is None or cost < best_cost:
            best_cost, best_seats = cost, list(seats)
    fewest = min(c.dealt_first for c in best_seats)
    dealers = [pos for pos, c in enumerate(best_seats, start=1) if c.dealt_first == fewest]
    return TablePlan(
        number=number, seats=tuple(c.id for c in best_seats), dealer=rng.choice(dealers)
    )


# --- quality ------------------------------------------------------------------------------


def assess(
    tables: Sequence[Sequence[int]],
    met: Mapping[frozenset[int], int],
    ranks: Mapping[int, int] | None = None,
    policy: str = RANDOM,
    *,
    clubs: Mapping[int, str] | None = None,
) -> Quality:
    """The quality report of a seating, also after a director's hand changes: repeats
    against `met`, the lower bound for tables of these sizes, and for swiss the rank
    spread of each table (players without a rank left out of it)."""
    repeats = sorted(
        (min(a, b), max(a, b))
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if met.get(frozenset((a, b)), 0) > 0
    )
    players = sorted(p for table in tables for p in table)
    sizes = [len(t) for t in tables if t]
    bound = None
    if sizes and len(players) == len(set(players)):
        bound = lower_bound(met_weights(met, {p: i for i, p in enumerate(players)}), sizes)
    spread = None
    if policy == SWISS and ranks is not None:
        spread = tuple(_rank_spread([ranks[p] for p in table if p in ranks]) for table in tables)
    return Quality(
        repeat_meetings=len(repeats),
        repeat_pairs=tuple(repeats),
        lower_bound=bound,
        rank_spread=spread,
        club_pairs=None if clubs is None else tuple(club_pairs(tables, clubs)),
    )


def _rank_spread(ranks: Sequence[int]) -> int:
    return max(ranks) - min(ranks) if ranks else 0
