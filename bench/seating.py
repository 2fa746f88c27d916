"""Seating benchmarks: repeat meetings and time, printed as figures (not a test).

Run from the repository root: `.venv/bin/python bench/seating.py`. Imports only the
pure seating module, so no Django settings are needed.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.seating import (  # noqa: E402  (after the path is set)
    Contender,
    Seating,
    SeatingRequest,
    seat,
    table_sizes,
)


class Event:
    """A field played round after round: meetings, first deals and positions fed back."""

    def __init__(self, players: int) -> None:
        self.ids = list(range(1, players + 1))
        self.met: Counter[frozenset[int]] = Counter()
        self.dealt: Counter[int] = Counter()
        self.positions: dict[int, list[int]] = {pid: [] for pid in self.ids}

    def request(self, policy: str, seed: int, ranks: dict[int, int] | None = None):
        contenders = tuple(
            Contender(
                id=pid,
                rank=None if ranks is None else ranks[pid],
                dealt_first=self.dealt[pid],
                positions=tuple(self.positions[pid]),
            )
            for pid in self.ids
        )
        return SeatingRequest(contenders=contenders, met=dict(self.met), policy=policy, seed=seed)

    def play(self, seating: Seating) -> None:
        for table in seating.tables:
            for pos, pid in enumerate(table.seats, start=1):
                self.positions[pid].append(pos)
            self.dealt[table.seats[table.dealer - 1]] += 1
            for a, b in combinations(table.seats, 2):
                self.met[frozenset((a, b))] += 1


def timed(request: SeatingRequest) -> tuple[Seating, float]:
    start = time.perf_counter()
    seating = seat(request)
    return seating, time.perf_counter() - start


def mixer_16() -> None:
    print("1. 16 players, 4 tables, mixer, 5 rounds")
    event = Event(16)
    repeats = []
    for number in range(1, 6):
        seating, _ = timed(event.request("mixer", seed=number))
        repeats.append(seating.quality.repeat_meetings)
        event.play(seating)
    print(f"   repeat meetings per round: {repeats}")


def mixer_32() -> None:
    print("2. 32 players, 8 tables, mixer, rounds seated one after another (up to 12)")
    event = Event(32)
    clean, streak, total = 0, True, 0.0
    for number in range(1, 13):
        seating, took = timed(event.request("mixer", seed=number))
        total += took
        quality = seating.quality
        streak = streak and quality.repeat_meetings == 0
        clean += streak
        print(
            f"   round {number:2}: {quality.repeat_meetings:2} repeat meetings"
            f" (lower bound {quality.lower_bound}), {took:6.3f} s"
        )
        event.play(seating)
    print(f"   consecutive rounds from round 1 with 0 repeat meetings: {clean}")
    print(f"   total time: {total:.3f} s")


def swiss_1024(drift: float | None = None) -> None:
    """Round 6 of 1,024 players after five swiss rounds. Standings are drawn at random
    each round or, with `drift`, move each player only a few places a round: neighbours
    then keep meeting, the hard case for swiss."""
    event = Event(1024)
    rng = random.Random(2024)
    order = event.ids[:]
    for number in range(1, 7):
        if drift is None:
            rng.shuffle(order)
        else:
            keys = {pid: i + rng.uniform(-drift, drift) for i, pid in enumerate(order)}
            order.sort(key=keys.__getitem__)
        ranks = {pid: rank for rank, pid in enumerate(order, start=1)}
        seating, took = timed(event.request("swiss", seed=number, ranks=ranks))
        if number < 6:
            event.play(seating)
    quality = seating.quality
    spread = quality.rank_spread or (0,)
    print(f"   seat(): {took:.3f} s")
    print(
        f"   repeat meetings: {quality.repeat_meetings} (lower bound {quality.lower_bound});"
        f" rank spread at a table: mean {sum(spread) / len(spread):.1f}, largest {max(spread)}"
    )


def field_sizes() -> None:
    print("4. table sizes for fields of 9 to 40 (largest first)")
    problems = []
    for count in range(9, 41):
        shown = []
        for odd_tables in ("fives", "threes"):
            sizes = table_sizes(count, odd_tables)
            if sum(sizes) != count or not all(3 <= s <= 5 for s in sizes):
                problems.append((odd_tables, count, sizes))
            shown.append(f"{odd_tables}: {' '.join(map(str, sizes)):<20}")
        print(f"   {count:2} players  {'  '.join(shown).rstrip()}")
    verdict = problems or "yes"
    print(f"   every table has 3 to 5 players and the sizes add up to the field: {verdict}")


if __name__ == "__main__":
    mixer_16()
    mixer_32()
    print("3. 1,024 players, swiss, round 6 after 5 swiss rounds with random standings")
    swiss_1024()
    print("   the same with standings moving only about 8 places a round (the hard case)")
    swiss_1024(drift=8)
    field_sizes()
