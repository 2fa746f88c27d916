"""Repeat-free schedules by construction, for the mixer policy (see `seating.py`).

Local search finds a repeat-free round easily while many new opponents remain, but
seating one round at a time it paints itself into a corner: 32 players at eight tables
of four get stuck after six or seven rounds although ten are possible (the social
golfer problem 8-4-10). So for fields of 4·2^m players (16, 32, 64) this module
searches, once per field size, for a whole schedule of the longest possible length,
and `next_round` continues it: it recognises the rounds played so far as rounds of
the schedule under some renaming of the players, whoever seated them (round 1 is
usually a random draw), and returns one of the rounds not yet played.

The schedule is found by a small exact search, not stored: players are the points
(x, row) with x in GF(2)^m and four rows, and only schedules invariant under the
translations x -> x + g are searched (a prescribed automorphism group, the usual way
to make a design search small). Under that symmetry a round is one of:

- transversal: tables {(c_row + g, row)} for a vector c, one player from each row;
- two "pair orbits" on complementary pairs of rows: tables {(g, i), (g+t, i),
  (g+e, j), (g+e+t, j)};
- one pair orbit plus "coset orbits" (cosets of a 2-dimensional subspace V, inside
  one row) on the other two rows;
- coset orbits on all four rows.

Two players meet at most once exactly when every difference x - y inside a row, and
every difference between two rows, is used by at most one round, which the search
checks with bit masks. Standard library only: no Django.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

TABLE = 4  # the construction seats four per table
ROWS = 4  # players are (x, row) for four rows: one row per seat of a transversal table
ROW_PAIRS: tuple[tuple[int, int], ...] = tuple(itertools.combinations(range(ROWS), 2))
# ROW_PAIRS[i] and ROW_PAIRS[5 - i] cover all four rows: (0,1)+(2,3), (0,2)+(1,3), (0,3)+(1,2).
COMPLEMENTS = ((0, 5), (1, 4), (2, 3))

# Above 64 players a field has enough new opponents for any real event's length, and
# the search space (vectors over GF(2)^m) grows too fast to be worth it.
MIN_FIELD, MAX_FIELD = 16, 64
SEARCH_NODES = 200_000  # bounds the construction search (32 players need ~8,000)
MATCH_NODES = 500  # bounds the recognition; a match takes under 50 steps when it exists
MATCH_SETS = 300  # how many sets of rounds of the schedule to compare the history with

Schedule = tuple[tuple[tuple[int, ...], ...], ...]  # rounds -> tables -> players 0..n-1
Pair = tuple[int, int, int]  # (row pair index, t, e): a pair orbit


class _OutOfBudget(Exception):
    pass


def max_rounds(players: int) -> int:
    """Each round a player meets three new opponents at a table of four."""
    return (players - 1) // (TABLE - 1)


def applies(players: int) -> bool:
    q = players // ROWS
    return MIN_FIELD <= players <= MAX_FIELD and players % ROWS == 0 and (q & (q - 1)) == 0


@cache
def schedule(players: int) -> Schedule | None:
    """The longest repeat-free schedule the construction finds for `players` at tables
    of four, or None when it does not reach `max_rounds(players)`."""
    if not applies(players):
        return None
    q = players // ROWS
    try:
        found = _search(q, max_rounds(players))
    except _OutOfBudget:
        return None
    if found is None:
        return None
    rounds = _build(q, *found)
    # The search's bookkeeping is the proof; this check costs nothing and guards it.
    seen: set[tuple[int, int]] = set()
    for tables in rounds:
        if sorted(p for table in tables for p in table) != list(range(players)):
            return None
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                if pair in seen:
                    return None
                seen.add(pair)
    return rounds


def next_round(
    players: int, met: Iterable[tuple[int, int]], rng: random.Random
) -> list[list[int]] | None:
    """A repeat-free round over players 0..n-1 that keeps the schedule completable,
    given the pairs that have met once each; None when the history is not a set of
    rounds of the construction (or the construction does not apply)."""
    plan = schedule(players)
    if plan is None:
        return None
    edges = sorted({(min(a, b), max(a, b)) for a, b in met})
    per_round = players // TABLE * (TABLE * (TABLE - 1) // 2)
    played, rest = divmod(len(edges), per_round)
    if rest or played >= len(plan):
        return None
    if played == 0:
        # Every partition into fours is a round of the schedule under some renaming.
        order = list(range(players))
        rng.shuffle(order)
        return [sorted(order[i : i + TABLE]) for i in range(0, players, TABLE)]
    history = _adjacency(players, edges)
    if any(mask.bit_count() != (TABLE - 1) * played for mask in history):
        return None
    signature = _invariant(history)
    budget = [MATCH_NODES]
    candidates = itertools.combinations(range(len(plan)), played)
    for used in itertools.islice(candidates, MATCH_SETS):
        target = _adjacency(
            players,
            (pair for r in used for t in plan[r] for pair in itertools.combinations(t, 2)),
        )
        if _invariant(target) != signature:
            continue
        renaming = _isomorphism(history, target, budget)
        if renaming is not None:
            point_to_player = {point: player for player, point in enumerate(renaming)}
            unused = [r for r in range(len(plan)) if r not in used]
            chosen = plan[rng.choice(unused)]
            return [sorted(point_to_player[p] for p in table) for table in chosen]
        if budget[0] <= 0:
            return None
    return None


# --- the construction search ---------------------------------------------------------


def _bits(values: Iterable[int]) -> int:
    mask = 0
    for value in values:
        mask |= 1 << value
    return mask


def _subspaces(q: int) -> list[tuple[int, int, int]]:
    """The 2-dimensional subspaces of GF(2)^m, each as its three non-zero vectors."""
    return sorted({tuple(sorted((a, b, a ^ b))) for a in range(1, q) for b in range(a + 1, q)})


def _search(q: int, rounds: int):
    """Transversal rounds first (they use only differences between rows), then the
    other rounds from what is left; the number of transversal rounds tried from the
    most down."""
    nodes = [0]

    def tick() -> None:
        nodes[0] += 1
        if nodes[0] > SEARCH_NODES:
            raise _OutOfBudget

    subspaces = [(_bits(v), v) for v in _subspaces(q)]
    full_within = _bits(range(1, q))

    @cache
    def pack(free: int, count: int, start: int = 0) -> tuple[tuple[int, ...], ...] | None:
        """`count` disjoint subspaces inside the free differences of one row."""
        if count == 0:
            return ()
        for i in range(start, len(subspaces)):
            mask, vectors = subspaces[i]
            if mask & ~free:
                continue
            rest = pack(free & ~mask, count - 1, i + 1)
            if rest is not None:
                return (vectors, *rest)
        return None

    def complete(cross_used: list[int], count: int):
        """`count` non-transversal rounds using the between-row differences left."""
        options: list[list[Pair]] = []
        for p in range(len(ROW_PAIRS)):
            free = [e for e in range(q) if not cross_used[p] >> e & 1]
            options.append([(p, e ^ f, e) for e, f in itertools.combinations(free, 2)])
        couples = [(x, y) for a, b in COMPLEMENTS for x in options[a] for y in options[b]]
        singles = [x for opts in options for x in opts]

        def add(state, pair: Pair):
            within, cross = state
            p, t, e = pair
            i, j = ROW_PAIRS[p]
            diffs = 1 << e | 1 << (e ^ t)
            if within[i] >> t & 1 or within[j] >> t & 1 or cross[p] & diffs:
                return None
            within, cross = list(within), list(cross)
            within[i] |= 1 << t
            within[j] |= 1 << t
            cross[p] |= diffs
            return within, cross

        def finish(state, cosets_everywhere: int, singles_chosen: list[Pair]):
            need = [cosets_everywhere] * ROWS
            for p, _, _ in singles_chosen:
                for row in range(ROWS):
                    if row not in ROW_PAIRS[p]:
                        need[row] += 1
            packs = [pack(full_within & ~state[0][row], need[row]) for row in range(ROWS)]
            return None if any(p is None for p in packs) else packs

        def pick_singles(start, wanted, chosen, state, couples_chosen, cosets_everywhere):
            tick()
            if len(chosen) == wanted:
                packs = finish(state, cosets_everywhere, chosen)
                return None if packs is None else (couples_chosen, chosen, packs)
            for i in range(start, len(singles)):
                nxt = add(state, singles[i])
                if nxt is not None:
                    found = pick_singles(
                        i + 1, wanted, [*chosen, singles[i]], nxt, couples_chosen,
                        cosets_everywhere,
                    )  # fmt: skip
                    if found:
                        return found
            return None

        def pick_couples(start, wanted, chosen, state, n_singles, cosets_everywhere):
            tick()
            if len(chosen) == wanted:
                return pick_singles(0, n_singles, [], state, chosen, cosets_everywhere)
            for i in range(start, len(couples)):
                nxt = add(state, couples[i][0])
                nxt = nxt and add(nxt, couples[i][1])
                if nxt:
                    found = pick_couples(
                        i + 1, wanted, [*chosen, couples[i]], nxt, n_singles, cosets_everywhere
                    )
                    if found:
                        return found
            return None

        for cosets_everywhere in range(count + 1):
            for n_couples in range(count - cosets_everywhere + 1):
                n_singles = count - cosets_everywhere - n_couples
                start = ([0] * ROWS, [0] * len(ROW_PAIRS))
                found = pick_couples(0, n_couples, [], start, n_singles, cosets_everywhere)
                if found:
                    return found
        return None

    vectors = [(0, *v) for v in itertools.product(range(q), repeat=ROWS - 1)]
    differences = [[c[i] ^ c[j] for i, j in ROW_PAIRS] for c in vectors]

    for transversal in range(min(q, rounds), 0, -1):
        others = rounds - transversal
        # Without two free differences per pair of rows no pair orbit fits, and only
        # rounds of cosets remain: skip at once when a row cannot hold that many.
        if q - transversal < 2 and pack(full_within, others) is None:
            continue

        def pick_vectors(start, chosen, used, transversal=transversal, others=others):
            tick()
            if len(chosen) == transversal:
                rest = complete(used, others)
                return None if rest is None else (chosen, rest)
            for i in range(start, len(vectors)):
                d = differences[i]
                if any(used[p] >> d[p] & 1 for p in range(len(ROW_PAIRS))):
                    continue
                found = pick_vectors(
                    i + 1, [*chosen, vectors[i]], [u | 1 << x for u, x in zip(used, d, strict=True)]
                )
                if found:
                    return found
            return None

        # Translating each row makes one transversal round the zero vector.
        found = pick_vectors(1, [vectors[0]], [1] * len(ROW_PAIRS))
        if found:
            return found
    return None


def _build(q: int, transversals, rest) -> Schedule:
    couples, singles, packs = rest
    packs = [list(p) for p in packs]

    def point(x: int, row: int) -> int:
        return row * q + x

    def pair_tables(p: int, t: int, e: int) -> list[tuple[int, ...]]:
        i, j = ROW_PAIRS[p]
        return [
            (point(g, i), point(g ^ t, i), point(g ^ e, j), point(g ^ e ^ t, j))
            for g in range(q)
            if g < g ^ t
        ]

    def coset_tables(row: int, subspace: Sequence[int]) -> list[tuple[int, ...]]:
        members = (0, *subspace)
        return [
            tuple(point(g ^ v, row) for v in members)
            for g in range(q)
            if g == min(g ^ v for v in members)
        ]

    rounds: list[list[tuple[int, ...]]] = []
    for c in transversals:
        rounds.append([tuple(point(c[row] ^ g, row) for row in range(ROWS)) for g in range(q)])
    for first, second in couples:
        rounds.append(pair_tables(*first) + pair_tables(*second))
    for p, t, e in singles:
        tables = pair_tables(p, t, e)
        for row in range(ROWS):
            if row not in ROW_PAIRS[p]:
                tables += coset_tables(row, packs[row].pop())
        rounds.append(tables)
    while packs[0]:
        rounds.append([t for row in range(ROWS) for t in coset_tables(row, packs[row].pop())])
    return tuple(tuple(tuple(sorted(t)) for t in tables) for tables in rounds)


# --- recognising the rounds played ------------------------------------------------------


def _adjacency(players: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """Neighbours as bit masks: intersections and counts are then single operations."""
    masks = [0] * players
    for a, b in pairs:
        masks[a] |= 1 << b
        masks[b] |= 1 << a
    return masks


def _neighbours(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _invariant(adjacency: list[int]) -> tuple:
    """How many common neighbours each player has with each neighbour: equal for
    isomorphic graphs, and cheap, so most non-matching sets of rounds stop here."""
    return tuple(
        sorted(
            tuple(sorted((adjacency[v] & adjacency[w]).bit_count() for w in _neighbours(mask)))
            for v, mask in enumerate(adjacency)
        )
    )


def _refine(graphs: Sequence[list[int]], colours: list[list[int]]) -> list[list[int]] | None:
    """Colour refinement of two graphs at once, counting common neighbours along each
    edge; None as soon as the two colourings differ (no isomorphism extends them)."""
    lists = [[_neighbours(m) for m in g] for g in graphs]
    while True:
        signatures = [
            [
                (
                    colour[v],
                    tuple(sorted((colour[w], (g[v] & g[w]).bit_count()) for w in nbrs[v])),
                )
                for v in range(len(g))
            ]
            for g, nbrs, colour in zip(graphs, lists, colours, strict=True)
        ]
        palette = {s: i for i, s in enumerate(sorted(set(signatures[0]) | set(signatures[1])))}
        refined = [[palette[s] for s in sig] for sig in signatures]
        if Counter(refined[0]) != Counter(refined[1]):
            return None
        if len(set(refined[0])) == len(set(colours[0])):
            return refined
        colours = refined


def _isomorphism(a: list[int], b: list[int], budget: list[int]) -> list[int] | None:
    """A renaming v -> renaming[v] with a's edges exactly b's, by individualisation and
    refinement; `budget` (a one-item list) is shared across calls and spent here."""
    n = len(a)
    start = _refine((a, b), [[0] * n, [0] * n])

    def search(colours: list[list[int]]) -> list[int] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        ca, cb = colours
        sizes = Counter(ca)
        open_cells = [c for c, k in sizes.items() if k > 1]
        if not open_cells:
            where = {c: w for w, c in enumerate(cb)}
            renaming = [where[c] for c in ca]
            ok = all(_adjacency_image(a[v], renaming) == b[renaming[v]] for v in range(n))
            return renaming if ok else None
        cell = min(open_cells, key=lambda c: (sizes[c], c))
        v = ca.index(cell)
        fresh = max(ca) + 1
        for w in [w for w in range(n) if cb[w] == cell]:
            na, nb = ca[:], cb[:]
            na[v] = nb[w] = fresh
            refined = _refine((a, b), [na, nb])
            if refined is not None:
                found = search(refined)
                if found is not None:
                    return found
            if budget[0] < 0:
                return None
        return None

    return None if start is None else search(start)


def _adjacency_image(mask: int, renaming: list[int]) -> int:
    return _bits(renaming[w] for w in _neighbours(mask))
