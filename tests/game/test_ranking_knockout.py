"""The knockout format: who goes through, who goes out when, and how they are ranked."""

from __future__ import annotations

from game.ranking import (
    COMPLETE,
    INCOMPLETE,
    UNDER_WAY,
    EntryRecord,
    SetRecord,
    draw_key,
    rank,
)
from game.ranking_keys import Ranked


def played(entry, round_, table, total, won=0, penalty=0, state=COMPLETE) -> SetRecord:
    return SetRecord(entry, round_, table, total, won, penalty, state)


def at_table(round_: int, table: int, totals: dict[int, int], state=COMPLETE) -> list[SetRecord]:
    return [played(entry, round_, table, points, state=state) for entry, points in totals.items()]


def order(ranked: list[Ranked]) -> list[int]:
    return [r.entry for r in ranked]


def by_entry(ranked: list[Ranked]) -> dict[int, Ranked]:
    return {r.entry: r for r in ranked}


def knockout(sets, count: int, withdrawn=(), **kwargs) -> list[Ranked]:
    people = [EntryRecord(entry, entry in withdrawn) for entry in range(1, count + 1)]
    return rank(format="knockout", sets=sets, entries=people, **kwargs)


# Three tables of four, one through from each to a final three.
ONE_THROUGH = [
    *at_table(1, 1, {1: 100, 2: 60, 3: 130, 4: 90}),  # 2 through
    *at_table(1, 2, {5: 80, 6: 150, 7: 70, 8: 95}),  # 7 through
    *at_table(1, 3, {9: 110, 10: 85, 11: 140, 12: 50}),  # 12 through
    *at_table(2, 1, {2: 90, 7: 40, 12: 75}),  # 7 wins
]

# Two tables of four, two through from each to a final four.
ROUND_1 = [
    *at_table(1, 1, {1: 100, 2: 60, 3: 130, 4: 90}),  # 2, 4 through
    *at_table(1, 2, {5: 80, 6: 150, 7: 70, 8: 95}),  # 7, 5 through
]
TWO_THROUGH = [*ROUND_1, *at_table(2, 1, {2: 120, 4: 80, 5: 60, 7: 100})]  # 5, 4 stay in


def test_with_one_through_the_winner_leads_then_the_latest_out_by_set_total() -> None:
    ranked = knockout(ONE_THROUGH, 12)
    # 7 won the final; out in round 2: 12 (75), 2 (90); out in round 1 by their totals
    # there: 5 80, 10 85, 4 90, 8 95, 1 100, 9 110, 3 130, 11 140, 6 150.
    assert order(ranked) == [7, 12, 2, 5, 10, 4, 8, 1, 9, 3, 11, 6]
    assert [r.status for r in ranked[:3]] == ["active", "eliminated", "eliminated"]
    assert [r.eliminated_in for r in ranked] == [None, 2, 2] + [1] * 9


def test_going_out_later_ranks_higher_whatever_the_totals() -> None:
    ranked = by_entry(knockout(ONE_THROUGH, 12))
    # 2 went out in round 2 with 90, worse than 5's 80 in round 1 and more points overall.
    assert ranked[2].rank < ranked[5].rank
    assert (ranked[2].points, ranked[5].points) == (150, 80)


def test_with_two_through_the_top_two_of_the_final_stay_in() -> None:
    ranked = knockout(TWO_THROUGH, 8, advance_per_table=2)
    # Final: 5 60, 4 80 stay in; 7 100, 2 120 out; round 1: 8 95, 1 100, 3 130, 6 150.
    assert order(ranked) == [5, 4, 7, 2, 8, 1, 3, 6]
    assert [r.status for r in ranked].count("active") == 2
    assert [r.eliminated_in for r in ranked] == [None, None, 2, 2, 1, 1, 1, 1]


def test_those_still_in_are_ordered_by_place_then_set_total() -> None:
    sets = [
        *at_table(1, 1, {1: 100, 2: 110, 3: 200, 4: 210}),
        *at_table(1, 2, {5: 50, 6: 80, 7: 150, 8: 160}),
    ]
    ranked = knockout(sets, 8, advance_per_table=2, rounds_closed=0)
    # 1st places 5 (50), 1 (100); then 2nd places 6 (80), 2 (110): winning a table
    # counts before the total, though 6 scored less than 1.
    assert order(ranked)[:4] == [5, 1, 6, 2]
    assert ranked[1].tiebreaks[:6] == (
        ("still_in", True),
        ("round", 1),
        ("set_complete", True),
        ("set_hands_missing", 0),
        ("place", 1),
        ("set_total", 100),
    )


# --- a tie at the cut ------------------------------------------------------------------


def test_a_tie_at_the_cut_goes_to_more_hands_won() -> None:
    sets = [played(1, 1, 1, 60, won=3), played(2, 1, 1, 60, won=4)]
    ranked = knockout([*sets, *at_table(1, 1, {3: 90, 4: 100})], 4)
    assert order(ranked) == [2, 1, 3, 4]
    assert (ranked[1].status, ranked[1].eliminated_in) == ("eliminated", 1)


def test_a_tie_at_the_cut_on_hands_goes_to_fewer_penalty_points() -> None:
    sets = [played(1, 1, 1, 160, won=2, penalty=100), played(2, 1, 1, 160, won=2)]
    assert order(knockout([*sets, *at_table(1, 1, {3: 190})], 3))[0] == 2


def test_the_cut_follows_a_custom_tiebreak_order() -> None:
    sets = [played(1, 1, 1, 160, won=4, penalty=100), played(2, 1, 1, 160, won=1)]
    assert order(knockout(sets, 2))[0] == 1
    assert order(knockout(sets, 2, tiebreaks=("penalty_points", "hands_won")))[0] == 2


def test_a_tie_at_the_cut_on_everything_goes_to_the_seeded_draw() -> None:
    sets = at_table(1, 1, {1: 60, 2: 60, 3: 90})
    winners = set()
    for seed in range(20):
        winner = knockout(sets, 3, draw_seed=seed)[0]
        assert winner.entry == min((1, 2), key=lambda e, seed=seed: draw_key(e, seed))
        assert knockout(sets, 3, draw_seed=seed)[0] == winner  # the same seed, the same draw
        winners.add(winner.entry)
    assert winners == {1, 2}  # a fair draw: both win under some seed


# --- rounds in play ----------------------------------------------------------------------

LIVE = [*ROUND_1, *at_table(2, 1, {2: 40, 4: 20, 5: 30, 7: 50}, state=UNDER_WAY)]


def test_a_round_in_play_eliminates_nobody_and_orders_by_live_places() -> None:
    ranked = knockout(LIVE, 8, advance_per_table=2, rounds_closed=1)
    # Round 2 so far: 4 20, 5 30, 2 40, 7 50; round 1's out follow.
    assert order(ranked) == [4, 5, 2, 7, 8, 1, 3, 6]
    assert [r.status for r in ranked[:4]] == ["active"] * 4


def test_closing_the_round_decides_its_eliminations() -> None:
    ranked = knockout(LIVE, 8, advance_per_table=2, rounds_closed=2)
    assert order(ranked)[:4] == [4, 5, 2, 7]
    assert [r.eliminated_in for r in ranked[:4]] == [None, None, 2, 2]


def test_without_rounds_closed_every_round_with_sets_is_decided() -> None:
    ranked = knockout(LIVE, 8, advance_per_table=2)
    assert [r.eliminated_in for r in ranked[:4]] == [None, None, 2, 2]


def test_nobody_is_out_while_the_first_round_is_in_play() -> None:
    ranked = knockout(ROUND_1, 8, rounds_closed=0)
    # By place, then set total: 2 60, 7 70 | 5 80, 4 90 | 8 95, 1 100 | 3 130, 6 150
    assert order(ranked) == [2, 7, 5, 4, 8, 1, 3, 6]
    assert {r.status for r in ranked} == {"active"}


# --- withdrawals, byes, entries without sets ----------------------------------------------

WITHOUT_4 = [*ROUND_1, *at_table(2, 1, {2: 120, 5: 60, 7: 100})]  # 5, 7 stay in; 2 out


def test_a_withdrawn_entry_hands_its_place_at_the_cut_to_the_next_best() -> None:
    # 4 withdrew once round 1 closed: 1 (100) goes through from table 1 in its place.
    ranked = knockout(ROUND_1, 8, withdrawn={4}, advance_per_table=2)
    assert order(ranked) == [2, 7, 5, 1, 4, 8, 3, 6]
    four, one = by_entry(ranked)[4], by_entry(ranked)[1]
    assert (four.status, four.eliminated_in, four.points) == ("withdrawn", 1, 90)
    assert (one.status, one.eliminated_in) == ("active", None)


def test_a_player_who_withdrew_in_a_later_round_keeps_the_rounds_they_went_through() -> None:
    # 4 went through round 1, then withdrew during round 2 after 3 hands.
    sets = [*ROUND_1, *at_table(2, 1, {2: 40, 5: 30, 7: 50}, state=UNDER_WAY)]
    sets.append(SetRecord(4, 2, 1, 20, 0, 0, INCOMPLETE, hands_missing=6))
    live = knockout(sets, 8, withdrawn={4}, advance_per_table=2, rounds_closed=1)
    # Still in, by round 2's live places: the incomplete set after the others.
    assert order(live) == [5, 2, 7, 4, 8, 1, 3, 6]
    assert (by_entry(live)[4].status, by_entry(live)[4].eliminated_in) == ("withdrawn", None)
    closed = [
        SetRecord(s.entry, s.round, s.table, s.total, 0, 0) if s.state == UNDER_WAY else s
        for s in sets
    ]
    ranked = knockout(closed, 8, withdrawn={4}, advance_per_table=2, rounds_closed=2)
    # 4's 20 was the lowest total, but an incomplete set never goes through.
    assert order(ranked)[:4] == [5, 2, 7, 4]
    assert [r.eliminated_in for r in ranked[:4]] == [None, None, 2, 2]


def test_an_entry_still_in_that_was_not_seated_has_a_bye() -> None:
    ranked = knockout(WITHOUT_4, 8, advance_per_table=2)
    # 4 is through to round 3, after those who played round 2 and stayed in.
    assert order(ranked) == [5, 7, 4, 2, 8, 1, 3, 6]
    assert (by_entry(ranked)[4].status, by_entry(ranked)[4].eliminated_in) == ("active", None)


def test_entries_without_sets_are_byes_unless_withdrawn() -> None:
    ranked = knockout(ROUND_1, 10, withdrawn={10}, advance_per_table=2)
    # 9 is still in, after those who played; 10 is out in round 1, after all who played it.
    assert order(ranked) == [2, 7, 5, 4, 9, 8, 1, 3, 6, 10]
    nine, ten = by_entry(ranked)[9], by_entry(ranked)[10]
    assert (nine.status, nine.sets_played, nine.eliminated_in) == ("active", 0, None)
    assert (ten.status, ten.eliminated_in) == ("withdrawn", 1)


def test_an_entry_already_out_takes_no_place_at_a_later_cut() -> None:
    sets = [
        *at_table(1, 1, {1: 50, 2: 80}),  # 2 out
        *at_table(1, 2, {3: 60, 4: 70}),  # 4 out
        *at_table(2, 1, {1: 90, 2: 40, 3: 70}),  # 2 sat in anyway: 3 goes through
    ]
    ranked = knockout(sets, 4)
    assert order(ranked) == [3, 1, 4, 2]
    two, three = by_entry(ranked)[2], by_entry(ranked)[3]
    assert (two.eliminated_in, two.points) == (1, 120)  # its sets still add up
    assert ("place", 1) in three.tiebreaks
