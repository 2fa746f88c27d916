"""The constructed repeat-free schedules behind the mixer policy, and how a history of
rounds is recognised as part of one."""

from __future__ import annotations

import itertools
import random

import pytest

from game import seating_design
from game.seating import Contender, SeatingRequest, seat


def pairs_of(*rounds) -> set[tuple[int, int]]:
    return {
        tuple(sorted(pair))
        for tables in rounds
        for table in tables
        for pair in itertools.combinations(table, 2)
    }


# The 4x4 grid of players 0..15: rows, columns, and two Latin squares on it.
ROWS = [[4 * r + c for c in range(4)] for r in range(4)]
COLUMNS = [[4 * r + c for r in range(4)] for c in range(4)]
KLEIN = [[4 * r + c for r in range(4) for c in range(4) if r ^ c == s] for s in range(4)]
CYCLIC = [[4 * r + c for r in range(4) for c in range(4) if (r + c) % 4 == s] for s in range(4)]


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (32, 10), (64, 21)])
def test_the_schedule_reaches_the_most_rounds_without_a_repeat(players, rounds):
    plan = seating_design.schedule(players)

    assert plan is not None
    assert len(plan) == rounds == seating_design.max_rounds(players)
    for tables in plan:
        assert sorted(p for t in tables for p in t) == list(range(players))
        assert {len(t) for t in tables} == {4}
    meetings = [pair for tables in plan for t in tables for pair in itertools.combinations(t, 2)]
    assert len(meetings) == len(set(meetings))


@pytest.mark.parametrize("players", [8, 12, 24, 36, 48, 128])
def test_the_schedule_is_only_built_for_four_times_a_power_of_two_up_to_64(players):
    assert seating_design.schedule(players) is None
    assert seating_design.next_round(players, [], random.Random(0)) is None


@pytest.mark.parametrize("seed", range(3))
def test_any_first_round_is_continued_to_the_end_of_the_schedule(seed):
    rng = random.Random(seed)
    order = list(range(32))
    rng.shuffle(order)
    played = [[order[i : i + 4] for i in range(0, 32, 4)]]
    while (nxt := seating_design.next_round(32, pairs_of(*played), rng)) is not None:
        assert not pairs_of(nxt) & pairs_of(*played)
        played.append(nxt)

    assert len(played) == 10


def test_a_history_that_is_not_part_of_any_schedule_is_not_continued():
    # A cyclic Latin square has no transversal: no fourth round is free of repeats.
    assert seating_design.next_round(16, pairs_of(ROWS, COLUMNS, CYCLIC), random.Random(0)) is None
    assert seating_design.next_round(16, pairs_of(ROWS, COLUMNS, KLEIN), random.Random(0))


def test_a_history_with_uneven_meetings_is_not_continued():
    assert seating_design.next_round(16, pairs_of(ROWS, [[0, 5, 10, 15]]), random.Random(0)) is None


def test_the_next_round_depends_only_on_the_history_and_the_seed():
    history = pairs_of(ROWS, COLUMNS)
    first = seating_design.next_round(16, history, random.Random(4))

    assert first == seating_design.next_round(16, sorted(history, reverse=True), random.Random(4))


def test_mixer_falls_back_to_search_when_the_history_cannot_be_continued():
    met = {frozenset((a + 1, b + 1)): 1 for a, b in pairs_of(ROWS, COLUMNS, CYCLIC)}
    contenders = tuple(Contender(id=i) for i in range(1, 17))
    seating = seat(SeatingRequest(contenders=contenders, met=met, policy="mixer", seed=1))

    # Each table without a repeat would be a transversal of the square: one repeat each.
    assert seating.quality.lower_bound == 0
    assert seating.quality.repeat_meetings == 4
