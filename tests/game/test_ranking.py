"""Standings in the total format, the tiebreak chain, the draw, and what rank() checks.

Table points live in test_ranking_table_points.py, knockout in test_ranking_knockout.py.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from game.ranking import (
    COMPLETE,
    DEFAULT_TIEBREAKS,
    FORMATS,
    UNDER_WAY,
    EntryRecord,
    SetRecord,
    check_tiebreaks,
    draw_key,
    rank,
)
from game.ranking_keys import Ranked


def played(entry, round_, table, total, won=0, penalty=0, state=COMPLETE) -> SetRecord:
    return SetRecord(entry, round_, table, total, won, penalty, state)


def at_table(round_: int, table: int, totals: dict[int, int]) -> list[SetRecord]:
    return [played(entry, round_, table, points) for entry, points in totals.items()]


def entries(count: int, withdrawn=()) -> list[EntryRecord]:
    return [EntryRecord(entry, entry in withdrawn) for entry in range(1, count + 1)]


def order(ranked: list[Ranked]) -> list[int]:
    return [r.entry for r in ranked]


def by_entry(ranked: list[Ranked]) -> dict[int, Ranked]:
    return {r.entry: r for r in ranked}


def total(sets, count, **kwargs) -> list[Ranked]:
    return rank(format="total", sets=sets, entries=entries(count), **kwargs)


# --- the total format ------------------------------------------------------------------

TWO_ROUNDS = [
    played(1, 1, 1, 100),
    played(2, 1, 1, 60),
    played(3, 1, 1, 150),
    played(4, 1, 1, 90),
    played(1, 2, 1, 40),
    played(2, 2, 1, 120),
    played(3, 2, 1, 20),
    played(4, 2, 1, 95),
]


def test_total_ranks_the_lowest_sum_of_set_totals_first() -> None:
    ranked = total(TWO_ROUNDS, 4)
    # 1: 100 + 40 = 140, 3: 150 + 20 = 170, 2: 60 + 120 = 180, 4: 90 + 95 = 185
    assert order(ranked) == [1, 3, 2, 4]
    assert [r.rank for r in ranked] == [1, 2, 3, 4]
    assert [r.points for r in ranked] == [140, 170, 180, 185]
    first = ranked[0]
    assert (first.sets_played, first.best_set, first.status) == (2, 40, "active")
    assert (first.table_points, first.eliminated_in) == (0.0, None)


def test_the_tiebreaks_show_the_key_in_the_order_applied() -> None:
    first = total(TWO_ROUNDS, 4)[0]
    # "points" is the format's own criterion, so the chain does not repeat it.
    assert first.tiebreaks == (
        ("sets_played", 2),
        ("hands_missing", 0),
        ("points", 140),
        ("hands_won", 0),
        ("penalty_points", 0),
        ("best_set", 40),
        ("draw", draw_key(1)),
    )


def test_a_player_who_missed_a_round_ranks_below_everyone_who_played_it() -> None:
    # 5 arrived late: 30 points from one set would otherwise beat 140 from two.
    ranked = total([*TWO_ROUNDS, played(5, 2, 2, 30)], 5)
    assert order(ranked) == [1, 3, 2, 4, 5]
    assert by_entry(ranked)[5].sets_played == 1


def test_entries_with_no_sets_appear_last_with_nothing_counted() -> None:
    ranked = total(TWO_ROUNDS, 6)
    assert order(ranked)[:4] == [1, 3, 2, 4]
    assert set(order(ranked)[4:]) == {5, 6}  # the draw orders the two
    fresh = by_entry(ranked)[6]
    assert (fresh.points, fresh.sets_played, fresh.hands_won, fresh.best_set) == (0, 0, 0, None)
    assert fresh.status == "active"


def test_an_event_with_no_sets_yet_ranks_everyone_by_the_draw() -> None:
    ranked = total([], 3, draw_seed=7)
    assert order(ranked) == sorted([1, 2, 3], key=lambda e: draw_key(e, 7))
    assert [r.rank for r in ranked] == [1, 2, 3]


# --- live standings ----------------------------------------------------------------------


def test_incomplete_sets_count_as_they_stand() -> None:
    sets = [
        played(1, 1, 1, 100),
        played(2, 1, 1, 120),
        # Round 2 in play: 1's table is at hand 6, 2's at hand 3.
        played(1, 2, 1, 70, won=1, state=UNDER_WAY),
        played(2, 2, 2, 20, won=2, state=UNDER_WAY),
    ]
    ranked = total(sets, 2)
    assert order(ranked) == [2, 1]  # 2: 120 + 20 = 140 < 1: 100 + 70 = 170
    second = by_entry(ranked)[2]
    assert (second.points, second.sets_played, second.hands_won) == (140, 2, 2)
    # The best set is a finished one: 20 so far says nothing about the set's end.
    assert second.best_set == 120


def test_an_entry_whose_table_has_not_started_waits_below_those_that_have() -> None:
    sets = [played(1, 1, 1, 100), played(2, 1, 1, 50), played(1, 2, 1, 10, state=UNDER_WAY)]
    # 2 has no hand in round 2 yet: one set against 1's two.
    assert order(total(sets, 2)) == [1, 2]


# --- the tiebreak chain: each key decides when the ones before are equal ----------------


def test_more_hands_won_breaks_a_tie_on_points() -> None:
    sets = [played(1, 1, 1, 100, won=2), played(2, 1, 1, 100, won=3)]
    assert order(total(sets, 2)) == [2, 1]


def test_fewer_penalty_points_break_a_tie_on_points_and_hands_won() -> None:
    sets = [played(1, 1, 1, 200, won=2, penalty=100), played(2, 1, 1, 200, won=2)]
    assert order(total(sets, 2)) == [2, 1]


def test_the_lower_best_set_breaks_a_tie_on_points_hands_and_penalties() -> None:
    sets = [
        played(1, 1, 1, 90),
        played(1, 2, 1, 110),  # 200, best 90
        played(2, 1, 1, 150),
        played(2, 2, 1, 50),  # 200, best 50
    ]
    assert order(total(sets, 2)) == [2, 1]


def test_a_player_without_a_finished_set_loses_the_best_set_tiebreak() -> None:
    sets = [played(1, 1, 1, 80, state=UNDER_WAY), played(2, 1, 1, 80)]
    ranked = total(sets, 2)
    assert order(ranked) == [2, 1]
    assert by_entry(ranked)[1].best_set is None


def test_the_draw_settles_a_tie_on_every_other_key() -> None:
    sets = [played(entry, 1, 1, 100, won=1) for entry in range(1, 5)]
    ranked = total(sets, 4, draw_seed=2024)
    assert order(ranked) == sorted(range(1, 5), key=lambda e: draw_key(e, 2024))


def test_the_draw_is_reproducible_from_the_seed_and_differs_across_seeds() -> None:
    sets = [played(entry, 1, entry, 100) for entry in range(1, 9)]
    first = order(total(sets, 8, draw_seed=1))
    assert order(total(sets, 8, draw_seed=1)) == first
    # 8! orders: seeds 2 and 3 giving the very same one would be a 1 in 40,320 fluke.
    assert order(total(sets, 8, draw_seed=2)) != first
    assert order(total(sets, 8, draw_seed=3)) != first


def test_the_draw_is_a_sha256_of_seed_and_entry_so_recorded_seeds_replay() -> None:
    assert draw_key(17, 99) == hashlib.sha256(b"99:17").hexdigest()[:16]


def test_a_custom_tiebreak_order_is_applied_in_that_order() -> None:
    # 1 went out more often; 2 was never penalised.
    sets = [played(1, 1, 1, 300, won=4, penalty=100), played(2, 1, 1, 300, won=1)]
    assert order(total(sets, 2)) == [1, 2]
    assert order(total(sets, 2, tiebreaks=("penalty_points", "hands_won"))) == [2, 1]


def test_table_points_can_break_a_tie_in_the_total_format() -> None:
    # Two tables of four, [4, 2, 1, 0]: the same total earns more at the weaker table.
    sets = at_table(1, 1, {1: 50, 2: 60, 3: 70, 4: 80}) + at_table(
        1, 2, {5: 60, 6: 70, 7: 80, 8: 90}
    )
    ranked = total(sets, 8, tiebreaks=("table_points",))
    # 60: 5 (1st, 4) before 2 (2nd, 2); 70: 6 (2nd, 2) before 3 (3rd, 1); 80: 7 (1) before 4 (0)
    assert order(ranked) == [1, 5, 2, 6, 3, 7, 4, 8]
    assert by_entry(ranked)[5].table_points == 4.0
    assert by_entry(ranked)[5].tiebreaks[3] == ("table_points", 4.0)


def test_check_tiebreaks_appends_the_draw_and_rejects_what_could_never_decide() -> None:
    assert check_tiebreaks(()) == ("draw",)
    assert check_tiebreaks(DEFAULT_TIEBREAKS) == DEFAULT_TIEBREAKS
    assert check_tiebreaks(["best_set"]) == ("best_set", "draw")
    with pytest.raises(ValueError, match="unknown tiebreaks 'wins', 'luck'; known: points, "):
        check_tiebreaks(["points", "wins", "luck"])
    with pytest.raises(ValueError, match="more than once: hands_won"):
        check_tiebreaks(["hands_won", "points", "hands_won"])
    with pytest.raises(ValueError, match="'draw' .* must be the last"):
        check_tiebreaks(["draw", "points"])
    with pytest.raises(ValueError, match="list of names"):
        check_tiebreaks("points")


def test_rank_names_unknown_tiebreaks() -> None:
    with pytest.raises(ValueError, match="unknown tiebreaks 'coin_toss'"):
        total([], 1, tiebreaks=("points", "coin_toss"))


# --- withdrawn entries -----------------------------------------------------------------


def test_withdrawn_entries_keep_their_results_and_are_ranked_by_the_same_rules() -> None:
    sets = [*TWO_ROUNDS, played(5, 1, 2, 10), played(5, 2, 2, 20)]
    ranked = rank(format="total", sets=sets, entries=entries(5, withdrawn={5, 3}))
    # 5: 10 + 20 = 30, the lowest: still first, shown as withdrawn.
    assert order(ranked) == [5, 1, 3, 2, 4]
    assert [r.status for r in ranked] == ["withdrawn", "active", "withdrawn", "active", "active"]
    assert (ranked[0].points, ranked[0].sets_played) == (30, 2)


def test_a_player_who_withdrew_early_sinks_below_those_who_played_on() -> None:
    sets = [played(1, 1, 1, 100), played(2, 1, 1, 40), played(1, 2, 1, 100)]
    ranked = rank(format="total", sets=sets, entries=entries(2, withdrawn={2}))
    assert order(ranked) == [1, 2]  # 2 has one set to 1's two
    assert (ranked[1].status, ranked[1].points) == ("withdrawn", 40)


# --- determinism and speed --------------------------------------------------------------


def a_random_event(rng: random.Random, players: int, rounds: int) -> list[SetRecord]:
    """Tables of four, totals from a narrow range so that ties are common."""
    sets = []
    for round_ in range(1, rounds + 1):
        seating = list(range(1, players + 1))
        rng.shuffle(seating)
        for i, entry in enumerate(seating):
            won, penalty = rng.randint(0, 3), rng.choice((0, 0, 100))
            sets.append(played(entry, round_, i // 4 + 1, rng.randint(8, 12) * 10, won, penalty))
    return sets


@pytest.mark.parametrize("format", FORMATS)
def test_the_order_of_the_records_makes_no_difference(format: str) -> None:
    rng = random.Random(5)
    sets, people = a_random_event(rng, 24, 3), entries(24, withdrawn={4, 9})
    settings = {"format": format, "advance_per_table": 2, "draw_seed": 11}
    expected = rank(sets=sets, entries=people, **settings)
    for _ in range(5):
        rng.shuffle(sets)
        rng.shuffle(people)
        assert rank(sets=iter(sets), entries=iter(people), **settings) == expected


@pytest.mark.parametrize("format", FORMATS)
def test_a_thousand_entries_over_ten_rounds_all_get_distinct_ranks(format):
    # Timing lives in bench/standings.py; here only the outcome at full size.
    sets, people = a_random_event(random.Random(1), 1024, 10), entries(1024)
    ranked = rank(format=format, sets=sets, entries=people)
    assert [r.rank for r in ranked] == list(range(1, 1025))
    assert len({r.entry for r in ranked}) == 1024


# --- what rank() refuses ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "swiss"}, "unknown format 'swiss'; known: total, table-points, knockout"),
        ({"advance_per_table": 0}, "advance_per_table must be at least 1, not 0"),
        ({"rounds_closed": -1}, "rounds_closed must be a round number or None, not -1"),
        ({"table_points": []}, "table_points must be a list of numbers"),
        ({"table_points": [0, 1, 2, 4]}, "table_points must not rise"),
    ],
)
def test_bad_event_settings_are_named(kwargs: dict, message: str) -> None:
    settings = {"format": "total", "sets": [], "entries": entries(2)} | kwargs
    with pytest.raises(ValueError, match=message):
        rank(**settings)


def test_two_sets_for_one_entry_in_one_round_are_refused() -> None:
    with pytest.raises(ValueError, match="entry 1 has more than one set in round 1"):
        total([played(1, 1, 1, 50), played(1, 1, 2, 70)], 1)


def test_a_set_for_an_entry_not_listed_is_refused() -> None:
    with pytest.raises(ValueError, match=r"round 1, table 2\) is for entry 9, not in the entries"):
        total([played(9, 1, 2, 50)], 2)


def test_an_entry_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="entry 1 is listed more than once"):
        rank(format="total", sets=[], entries=[EntryRecord(1), EntryRecord(1, withdrawn=True)])
