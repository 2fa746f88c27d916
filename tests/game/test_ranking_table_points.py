"""Places at a table, placement points and their scales, and the table-points format."""

from __future__ import annotations

import pytest

from game.ranking import (
    COMPLETE,
    UNDER_WAY,
    EntryRecord,
    SetRecord,
    rank,
)
from game.ranking_keys import Ranked
from game.table_points import placement_points, scale_for, table_places


def played(entry, round_, table, total, won=0, penalty=0, state=COMPLETE) -> SetRecord:
    return SetRecord(entry, round_, table, total, won, penalty, state)


def at_table(round_: int, table: int, totals: dict[int, int]) -> list[SetRecord]:
    return [played(entry, round_, table, points) for entry, points in totals.items()]


def order(ranked: list[Ranked]) -> list[int]:
    return [r.entry for r in ranked]


def table_points(sets, count: int, **kwargs) -> list[Ranked]:
    people = [EntryRecord(entry) for entry in range(1, count + 1)]
    return rank(format="table-points", sets=sets, entries=people, **kwargs)


# --- places ------------------------------------------------------------------------------


def test_places_go_lowest_total_first_and_ties_share_skipping_the_next() -> None:
    sets = at_table(1, 3, {11: 120, 12: 80, 13: 50, 14: 80})
    assert table_places(sets) == {13: 1, 12: 2, 14: 2, 11: 4}  # "1224"


def test_places_are_for_one_table_in_one_round() -> None:
    with pytest.raises(ValueError, match="one table in one round"):
        table_places(at_table(1, 1, {1: 50}) + at_table(1, 2, {2: 60}))


# --- placement points ---------------------------------------------------------------------


def test_places_earn_the_scale_in_order() -> None:
    assert placement_points({1: 1, 2: 2, 3: 3, 4: 4}) == {1: 4.0, 2: 2.0, 3: 1.0, 4: 0.0}


def test_two_tied_for_second_share_the_points_of_second_and_third() -> None:
    # (2 + 1) / 2 = 1.5 each
    assert placement_points({1: 1, 2: 2, 3: 2, 4: 4}) == {1: 4.0, 2: 1.5, 3: 1.5, 4: 0.0}


def test_three_tied_for_first_share_the_first_three_places() -> None:
    points = placement_points({1: 1, 2: 1, 3: 1, 4: 4}, [6, 3, 0, 0])
    assert points == {1: 3.0, 2: 3.0, 3: 3.0, 4: 0.0}  # (6 + 3 + 0) / 3


def test_a_tie_at_a_five_shares_the_five_table_scale() -> None:
    points = placement_points({1: 1, 2: 2, 3: 3, 4: 4, 5: 4})
    assert points[4] == points[5] == 0.375  # (0.75 + 0) / 2


def test_places_that_cannot_be_at_the_table_are_refused() -> None:
    with pytest.raises(ValueError, match="2 entries at place 3 do not fit a table of 3"):
        placement_points({1: 1, 2: 3, 3: 3})


# --- scales for tables of other sizes -----------------------------------------------------


def test_a_table_of_four_keeps_the_events_scale() -> None:
    assert scale_for(4, [4, 2, 1, 0]) == (4.0, 2.0, 1.0, 0.0)


def test_a_table_of_three_averages_the_scale_over_thirds() -> None:
    # Place 1 spans [0, 1/3): 1/4 of the field at 4 and 1/12 at 2 -> (1 + 1/6) * 3 = 3.5
    # Place 2 spans [1/3, 2/3): 1/6 at 2 and 1/6 at 1 -> 0.5 * 3 = 1.5
    # Place 3 spans [2/3, 1): 1/12 at 1 and 1/4 at 0 -> 1/12 * 3 = 0.25
    assert scale_for(3) == (3.5, 1.5, 0.25)


def test_a_table_of_five_averages_the_scale_over_fifths() -> None:
    # [0, .2) all 4; [.2, .4): .05 at 4 + .15 at 2 = .5 -> 2.5; [.4, .6): .1 at 2 + .1 at 1
    # -> 1.5; [.6, .8): .15 at 1 -> .75; [.8, 1) all 0
    assert scale_for(5) == (4.0, 2.5, 1.5, 0.75, 0.0)


def test_a_table_of_six_averages_the_scale_over_sixths() -> None:
    # [1/6, 1/3) is half 4, half 2 -> 3; [2/3, 5/6) half 1, half 0 -> 0.5
    assert scale_for(6) == (4.0, 3.0, 2.0, 1.0, 0.5, 0.0)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_every_seat_is_worth_the_same_on_average_whatever_the_table_size(size: int) -> None:
    # [4, 2, 1, 0] is 7 points for 4 seats: 1.75 a seat.
    assert sum(scale_for(size)) == pytest.approx(1.75 * size)


def test_another_scale_is_resampled_by_the_same_rule() -> None:
    # Twentieths: place i of 5 spans [4i, 4i + 4), slice j of 4 spans [5j, 5j + 5).
    # 2nd: 1 at 10 + 3 at 6 = 28, /4 -> 7; 3rd: 2 at 6 + 2 at 3 = 18 -> 4.5;
    # 4th: 3 at 3 + 1 at 1 = 10 -> 2.5; 5th: 4 at 1 -> 1
    assert scale_for(5, [10, 6, 3, 1]) == (10.0, 7.0, 4.5, 2.5, 1.0)


def test_a_scale_of_five_is_a_five_tables_own() -> None:
    assert scale_for(5, [5, 3, 2, 1, 0]) == (5.0, 3.0, 2.0, 1.0, 0.0)


@pytest.mark.parametrize("size", [0, -1, 2.5, True])
def test_a_table_size_must_be_a_positive_whole_number(size) -> None:
    with pytest.raises(ValueError, match="a table has at least one player"):
        scale_for(size)


# --- the table-points format -------------------------------------------------------------

# Round 1: two tables of four. Round 2: a three and a five.
EVENT = [
    *at_table(1, 1, {1: 50, 2: 80, 3: 80, 4: 120}),  # 4, 1.5, 1.5, 0
    *at_table(1, 2, {5: 70, 6: 90, 7: 100, 8: 200}),  # 4, 2, 1, 0
    *at_table(2, 1, {1: 60, 5: 40, 8: 90}),  # three: 5 3.5, 1 1.5, 8 0.25
    *at_table(2, 2, {2: 35, 3: 100, 4: 55, 6: 100, 7: 140}),  # five: 4, 1.125, 2.5, 1.125, 0
]


def test_table_points_add_up_placement_points_and_rank_the_most_first() -> None:
    ranked = table_points(EVENT, 8)
    points = {r.entry: r.table_points for r in ranked}
    assert points == {
        1: 5.5,  # 4 + 1.5
        2: 5.5,  # 1.5 + 4
        3: 2.625,  # 1.5 + (1.5 + 0.75) / 2
        4: 2.5,  # 0 + 2.5
        5: 7.5,  # 4 + 3.5
        6: 3.125,  # 2 + 1.125
        7: 1.0,  # 1 + 0
        8: 0.25,  # 0 + 0.25
    }
    # 1 and 2 tie on 5.5: the lower total goes first (1: 50 + 60 = 110, 2: 80 + 35 = 115).
    assert order(ranked) == [5, 1, 2, 6, 3, 4, 7, 8]
    assert ranked[1].tiebreaks[:4] == (
        ("table_points", 5.5),
        ("sets_played", 2),
        ("hands_missing", 0),
        ("points", 110),
    )


def test_a_table_points_tie_goes_through_the_chain_after_the_total() -> None:
    sets = [
        played(1, 1, 1, 50, won=2),
        *at_table(1, 1, {2: 90, 3: 100, 4: 110}),
        played(5, 1, 2, 50, won=5),
        *at_table(1, 2, {6: 60, 7: 70, 8: 80}),
    ]
    # 1 and 5 both won their table (4 points) with 50: 5 went out more often.
    assert order(table_points(sets, 8))[:2] == [5, 1]


def test_a_missed_round_counts_as_no_points_and_never_helps() -> None:
    sets = [
        *at_table(1, 1, {1: 50, 2: 60, 3: 70, 4: 80}),
        *at_table(2, 1, {1: 90, 2: 85, 3: 70}),  # three: 3 3.5, 2 1.5, 1 0.25
    ]
    ranked = table_points(sets, 5)
    # 1: 4.25; 3: 1 + 3.5 = 4.5; 2: 3.5; 4: 0 (one set, 80); 5: 0 (no set)
    assert order(ranked) == [3, 1, 2, 4, 5]
    assert (ranked[-1].sets_played, ranked[-1].table_points) == (0, 0.0)


def test_a_custom_scale_is_used() -> None:
    ranked = table_points(
        at_table(1, 1, {1: 50, 2: 60, 3: 70, 4: 80}), 4, table_points=[3, 2, 1, 0]
    )
    assert [r.table_points for r in ranked] == [3.0, 2.0, 1.0, 0.0]


def test_live_places_earn_placement_points_while_a_set_is_in_play() -> None:
    sets = [played(1, 1, 1, 30, state=UNDER_WAY), played(2, 1, 1, 12, state=UNDER_WAY)]
    sets += [played(3, 1, 1, 45, state=UNDER_WAY), played(4, 1, 1, 12, state=UNDER_WAY)]
    ranked = table_points(sets, 4)
    # 2 and 4 share 1st and 2nd: (4 + 2) / 2 = 3 each; 1 is 3rd, 3 is 4th.
    assert [r.table_points for r in ranked] == [3.0, 3.0, 1.0, 0.0]
    assert order(ranked)[2:] == [1, 3]
