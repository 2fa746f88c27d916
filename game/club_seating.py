"""Keeping players of the same club apart when a round is seated (an event option).

Plain Python, no Django. Given tables already seated by the event's policy, swap two
players at different tables while that seats fewer pairs of clubmates together and
adds no repeat meeting: repeats come first (a pair meeting again is worse than two
clubmates sharing a table), and the policy's own order is kept by the caller's
`may_swap` (swiss: neighbouring tables only; spread: players of the same strength
tier). In round 1 nobody has met, so clubs are spread as far as the tables allow.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence


def same_club(clubs: Mapping[int, str], a: int, b: int) -> bool:
    """Two players of one club (a player without a club has no clubmates)."""
    club = clubs.get(a, "").strip().casefold()
    return bool(club) and club == clubs.get(b, "").strip().casefold()


def club_pairs(tables: Sequence[Sequence[int]], clubs: Mapping[int, str]) -> list[tuple[int, int]]:
    """The pairs of clubmates seated at one table, (low id, high id), sorted."""
    return sorted(
        (min(a, b), max(a, b))
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if same_club(clubs, a, b)
    )


def keep_clubs_apart(
    groups: Sequence[Sequence[int]],
    clubs: Mapping[int, str],
    met: Mapping[frozenset[int], int],
    rng: random.Random,
    *,
    may_swap: Callable[[int, int], bool] | None = None,
    budget: int = 4000,
) -> list[list[int]]:
    """`groups` (tables of player ids) with clubmates moved apart by swaps that never
    add a repeat meeting; the fewest clubmate pairs this finds. Deterministic for a
    given `rng`."""
    tables = [list(t) for t in groups]
    where = {p: i for i, t in enumerate(tables) for p in t}

    def met_n(a: int, b: int) -> int:
        return met.get(frozenset((a, b)), 0)

    def delta(a: int, b: int) -> tuple[int, int]:
        """(repeat change, clubmate change) of swapping a and b."""
        ta, tb = tables[where[a]], tables[where[b]]
        repeats = sum(met_n(b, x) - met_n(a, x) for x in ta if x != a)
        repeats += sum(met_n(a, y) - met_n(b, y) for y in tb if y != b)
        mates = sum(same_club(clubs, b, x) - same_club(clubs, a, x) for x in ta if x != a)
        mates += sum(same_club(clubs, a, y) - same_club(clubs, b, y) for y in tb if y != b)
        return repeats, mates

    def clashing() -> list[int]:
        return sorted(
            {
                p
                for t in tables
                for a, b in itertools.combinations(t, 2)
                if same_club(clubs, a, b)
                for p in (a, b)
            }
        )

    stuck: set[int] = set()
    for _ in range(budget):
        candidates = [p for p in clashing() if p not in stuck]
        if not candidates:
            break
        a = rng.choice(candidates)
        best: list[int] = []
        best_key = (0, 0)
        for b in where:
            if where[b] == where[a] or (may_swap is not None and not may_swap(a, b)):
                continue
            repeats, mates = delta(a, b)
            if repeats > 0 or mates >= 0:
                continue
            key = (repeats, mates)
            if not best or key < best_key:
                best, best_key = [b], key
            elif key == best_key:
                best.append(b)
        if not best:
            stuck.add(a)
            continue
        b = rng.choice(sorted(best))
        ia, ib = where[a], where[b]
        tables[ia][tables[ia].index(a)] = b
        tables[ib][tables[ib].index(b)] = a
        where[a], where[b] = ib, ia
        stuck.clear()
    return tables
