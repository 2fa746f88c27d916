"""Adjusted scores for hands a table could not play (`game.adjusted`): from the field,
worse at fault, never for a player who withdrew, and how they rank."""

from __future__ import annotations

import pytest

from game import adjusted
from game.adjusted import Adjustment, SeatHands, adjust
from game.ranking import COMPLETE, INCOMPLETE, WITHDREW, EntryRecord, SetRecord, rank


def full(seat: int, table: int, scores: list[int], size: int = 4, **kw) -> SeatHands:
    return SeatHands(
        seat=seat,
        table=table,
        size=size,
        scores={n: s for n, s in enumerate(scores, 1)},
        **kw,
    )


cut = full  # a seat whose table stopped short: the hands it played only


def test_a_hand_not_played_is_scored_at_the_mean_of_everyone_who_played_it():
    seats = [
        full(1, 1, [0, 10, 20]),
        full(2, 1, [15, 0, 30]),
        full(3, 1, [30, 25, 0]),
        full(4, 1, [12, 40, 41]),
        cut(5, 2, [7, 0]),  # table 2 did not play hand 3
        cut(6, 2, [0, 9]),
    ]
    made = adjust(seats, hand_count=3)
    # Hand 3 was played by table 1 only: 20, 30, 0, 41 -> 22.75 -> 23.
    assert made == [
        Adjustment(5, 3, 23, False, adjusted.FIELD_MEAN),
        Adjustment(6, 3, 23, False, adjusted.FIELD_MEAN),
    ]
    assert made[0].words == "hand 3 adjusted: 23, the field's mean"


def test_the_field_is_tables_of_the_same_size_when_there_are_enough():
    fours = [full(s, 1 + (s - 1) // 4, [0, 40]) for s in range(1, 9)]  # 8 scores of 40
    fives = [full(10 + s, 3, [0, 10], size=5) for s in range(5)]  # 5 scores of 10
    late_four = cut(20, 4, [0])
    late_five = cut(21, 5, [0], size=5)
    made = {a.seat: a.score for a in adjust([*fours, *fives, late_four, late_five], 2)}
    # A four: 8 scores at fours, enough. A five: only 5 at fives, so the whole field:
    # (8 * 40 + 5 * 10) / 13 = 28.46 -> 28.
    assert made == {20: 40, 21: 28}


def test_with_nobody_playing_a_hand_the_rounds_other_hands_stand_in():
    seats = [full(1, 1, [10, 20]), full(2, 1, [0, 30]), cut(3, 2, [5])]
    assert adjust(seats, hand_count=3) == [
        # Hand 3: nobody played it. Every hand of the round at fours: 10, 20, 0, 30, 5.
        Adjustment(1, 3, 13, False, adjusted.FIELD_MEAN),
        Adjustment(2, 3, 13, False, adjusted.FIELD_MEAN),
        Adjustment(3, 2, 25, False, adjusted.FIELD_MEAN),
        Adjustment(3, 3, 13, False, adjusted.FIELD_MEAN),
    ]
    assert adjust([cut(1, 1, []), cut(2, 1, [])], hand_count=1) == [
        Adjustment(1, 1, 0, False, adjusted.FIELD_MEAN),
        Adjustment(2, 1, 0, False, adjusted.FIELD_MEAN),
    ]


def test_at_fault_is_the_fields_75th_percentile_and_says_so():
    seats = [full(s, 1, [0, score]) for s, score in zip(range(1, 5), (0, 10, 20, 30), strict=True)]
    seats.append(cut(9, 2, [0], at_fault=True))
    seats.append(cut(10, 2, [0]))
    made = {a.seat: a for a in adjust(seats, hand_count=2)}
    # 0, 10, 20, 30: the 75th percentile (PERCENTILE.INC) is 22.5 -> 23; the mean 15.
    assert (made[9].score, made[9].at_fault, made[9].rule) == (23, True, adjusted.AT_FAULT)
    assert made[9].words == "hand 2 adjusted: 23, at fault: the field's 75th percentile"
    assert (made[10].score, made[10].at_fault) == (15, False)


def test_a_player_who_withdrew_is_never_adjusted():
    seats = [full(1, 1, [0, 10]), cut(2, 2, [5], withdrew=True), cut(3, 2, [0])]
    assert [a.seat for a in adjust(seats, hand_count=2)] == [3]


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([5], 75, 5), ([0, 10], 50, 5), ([1, 2, 3, 4], 50, 3), ([0, 10, 20, 30], 75, 23)],
)
def test_percentiles_interpolate_and_round_half_up(values, q, expected):
    assert adjusted.percentile(values, q) == expected


def test_the_other_rules_the_bench_compares():
    seats = [full(1, 1, [0, 100, 2]), full(2, 1, [4, 0, 0]), cut(3, 2, [9, 3])]
    assert adjust(seats, 3, adjusted.FIELD_MEDIAN)[0].score == 1  # 2 and 0
    assert adjust(seats, 3, adjusted.PRO_RATA)[0].score == 6  # its own (9 + 3) / 2
    with pytest.raises(ValueError, match="unknown rule"):
        adjust(seats, 3, "coin")


def test_an_adjusted_set_is_complete_and_ranks_on_its_adjusted_total():
    made = (Adjustment(1, 9, 61, False, adjusted.FIELD_MEAN),)
    sets = [
        SetRecord(
            entry=1,
            round=1,
            table=1,
            total=256 + 61,
            hands_won=2,
            penalty_points=0,
            state=COMPLETE,
            adjusted=made,
        ),
        SetRecord(entry=2, round=1, table=2, total=967, hands_won=0, penalty_points=0),
    ]
    ranked = rank(format="total", sets=sets, entries=[EntryRecord(1), EntryRecord(2)])
    assert [(r.entry, r.adjusted_hands, r.at_fault_hands) for r in ranked] == [
        (1, 1, 0),
        (2, 0, 0),
    ]
    with pytest.raises(ValueError, match="only a set its adjusted scores complete"):
        SetRecord(
            entry=1,
            round=1,
            table=1,
            total=1,
            hands_won=0,
            penalty_points=0,
            state=INCOMPLETE,
            hands_missing=1,
            why=WITHDREW,
            adjusted=made,
        )
