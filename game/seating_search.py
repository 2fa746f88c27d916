"""The search behind a seating: how often the players of a round have met (the weights),
the fewest repeat pairs any seating at tables of given sizes can have (the lower
bound), and the local search that swaps players between tables to keep repeats as few
as it can while keeping each policy's order. Plain Python, no Django; `seating.py`
builds a round from it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence


def met_weights(
    met: Mapping[frozenset[int], int], index: Mapping[int, int]
) -> list[dict[int, int]]:
    """Times met, by position in the sorted field; pairs with someone not playing
    this round (withdrawn, knocked out) are dropped."""
    weights: list[dict[int, int]] = [{} for _ in index]
    for pair, times in met.items():
        members = tuple(pair)
        if times <= 0 or len(members) != 2 or not all(m in index for m in members):
            continue
        a, b = index[members[0]], index[members[1]]
        weights[a][b] = weights[b][a] = int(times)
    return weights


def lower_bound(weights: Sequence[Mapping[int, int]], sizes: Sequence[int]) -> int:
    """The fewest repeat pairs any seating at tables of these sizes can have, by a
    counting argument; 0 when the argument excludes nothing.

    Each player sits with at least (smallest table - 1) others, so a player with fewer
    opponents left unmet has at least the difference, their deficit, as repeats.
    Summed over all players each repeat pair is counted at most twice: half the sum is
    a bound. Among players who never met, no repeat pair joins two of them, so the
    deficits of such a set (picked greedily, largest first) simply add up: a bound too.
    """
    others = len(weights) - 1
    deficit = [max(0, min(sizes) - 1 - (others - len(w))) for w in weights]
    apart = 0
    chosen: list[int] = []
    for p in sorted(range(len(weights)), key=lambda p: (-deficit[p], p)):
        if deficit[p] and not any(q in weights[p] for q in chosen):
            chosen.append(p)
            apart += deficit[p]
    return max(math.ceil(sum(deficit) / 2), apart)


# --- the local search ---------------------------------------------------------------------

# Repeats always outweigh placement: a placement cost (swiss) is at most a few places
# per player, far below this.
_REPEAT = 1 << 32


def improve(
    groups: list[list[int]],
    weights: Sequence[Mapping[int, int]],
    rng: random.Random,
    *,
    budget: int,
    bound: int = 0,
    may_swap: Callable[[int, int], bool] | None = None,
    place_cost: Callable[[int, int], int] | None = None,
    tables_for: Callable[[int], Sequence[int]] | None = None,
) -> list[list[int]]:
    """Fewest repeats (each weighted by how often the pair met), then least
    `place_cost`, by swapping two players at different tables.

    First a tabu search on the repeats: each step takes a player who has one, tries
    every allowed swap and makes the best one not forbidden; the two players just
    swapped stay put for a few steps, so the search climbs out of local minima. It stops
    at no repeats, or at `bound` once the weights show that optimal. Then, from the best
    seating seen, swaps that put players closer to their place without adding a repeat.
    Ties are drawn by `rng`, so a shuffled start stays random-looking.
    """
    board = _Board(groups, weights, place_cost, may_swap, tables_for)
    best_cost, best = board.cost, board.snapshot()
    tabu = [0] * board.n
    for step in range(1, budget + 1):
        if not board.clashing or best_cost <= _REPEAT * bound:
            break
        a = rng.choice(sorted(board.clashing))

        def allowed(
            b: int, delta: int, a: int = a, step: int = step, best: int = best_cost
        ) -> bool:
            # A recently swapped player stays put unless the swap beats the best seen.
            return max(tabu[a], tabu[b]) <= step or board.cost + delta < best

        moves, delta = board.best_moves(a, rng, allowed)
        if not moves:
            continue  # every swap is forbidden for now
        b = rng.choice(moves)
        board.swap(a, b, delta)
        tabu[a] = tabu[b] = step + 2 + rng.randrange(2 + min(8, board.n // 8))
        if board.cost < best_cost:
            best_cost, best = board.cost, board.snapshot()
    if place_cost is None:
        return best
    board = _Board(best, weights, place_cost, may_swap, tables_for)
    for _ in range(budget):
        if not board.misplaced:
            break
        a = rng.choice(sorted(board.misplaced))
        # Improving swaps only; one adding a repeat costs _REPEAT, so never improves.
        moves, delta = board.best_moves(a, rng, lambda b, d: d < 0)
        if not moves:
            board.misplaced.discard(a)
            continue
        board.swap(a, rng.choice(moves), delta)
    return board.snapshot()


class _Board:
    """A round being improved: the tables, where each player sits, and each player's
    repeats (summed weights) with their table-mates, kept up to date swap by swap."""

    def __init__(self, groups, weights, place_cost, may_swap, tables_for) -> None:
        self.tables = [list(g) for g in groups]
        self.weights = weights
        self.n = sum(len(t) for t in self.tables)
        self.where = [0] * self.n
        for t, members in enumerate(self.tables):
            for p in members:
                self.where[p] = t
        self.place = place_cost or (lambda p, t: 0)
        self.may_swap = may_swap
        self.reach = None if tables_for is None else [tables_for(p) for p in range(self.n)]
        self.conflict = [self._clash(p, self.tables[self.where[p]]) for p in range(self.n)]
        self.clashing = {p for p in range(self.n) if self.conflict[p]}
        self.misplaced = {p for p in range(self.n) if self.place(p, self.where[p])}
        self.cost = _REPEAT * sum(self.conflict) // 2 + sum(
            self.place(p, self.where[p]) for p in range(self.n)
        )

    def _clash(self, p: int, members: Iterable[int]) -> int:
        w = self.weights[p]
        return sum(w.get(x, 0) for x in members if x != p)

    def snapshot(self) -> list[list[int]]:
        return [t[:] for t in self.tables]

    def best_moves(self, a: int, rng: random.Random, allowed) -> tuple[list[int], int]:
        """The partners whose swap with `a` changes the cost least (all ties), among
        those `allowed(b, delta)` accepts, and that change."""
        ta, wa, place, reach = self.where[a], self.weights[a], self.place, self.reach
        mates = [x for x in self.tables[ta] if x != a]
        if reach is not None:
            targets: Iterable[int] = reach[a]
        elif len(self.tables) > 64:  # large fields: a sample of tables per step
            targets = sorted(rng.sample(range(len(self.tables)), 64))
        else:
            targets = range(len(self.tables))
        a_leaves = place(a, ta)
        moves: list[int] = []
        least = None
        for tb in targets:
            if tb == ta:
                continue
            members = self.tables[tb]
            a_moves = place(a, tb) - a_leaves
            for b in members:
                if self.may_swap is not None and not self.may_swap(a, b):
                    continue
                if reach is not None and ta not in reach[b]:
                    continue
                wb = self.weights[b]
                d = 0
                for x in mates:
                    d += wb.get(x, 0) - wa.get(x, 0)
                for y in members:
                    if y != b:
                        d += wa.get(y, 0) - wb.get(y, 0)
                delta = _REPEAT * d + a_moves + place(b, ta) - place(b, tb)
                if not allowed(b, delta):
                    continue
                if least is None or delta < least:
                    least, moves = delta, [b]
                elif delta == least:
                    moves.append(b)
        return moves, least or 0

    def swap(self, a: int, b: int, delta: int) -> None:
        ta, tb = self.where[a], self.where[b]
        wa, wb = self.weights[a], self.weights[b]
        for x in self.tables[ta]:
            if x != a:
                self.conflict[x] += wb.get(x, 0) - wa.get(x, 0)
        for y in self.tables[tb]:
            if y != b:
                self.conflict[y] += wa.get(y, 0) - wb.get(y, 0)
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.where[a], self.where[b] = tb, ta
        self.conflict[a] = self._clash(a, self.tables[tb])
        self.conflict[b] = self._clash(b, self.tables[ta])
        self.cost += delta
        for p in (*self.tables[ta], *self.tables[tb]):
            for group, flagged in (
                (self.clashing, self.conflict[p]),
                (self.misplaced, self.place(p, self.where[p])),
            ):
                if flagged:
                    group.add(p)
                else:
                    group.discard(p)
