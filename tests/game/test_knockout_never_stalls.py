"""A knockout never stalls: places a table cannot fill (its sets cut short, its players
withdrawn) go to the best of the round who did not go through, by their place at their
table, then by set total, so the next round can be seated while enough players remain."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ranking import COMPLETE, INCOMPLETE, SetRecord
from tests.game.test_ranking_knockout import by_entry, knockout


def at_table(round_: int, table: int, totals: dict[int, int], state=COMPLETE) -> list[SetRecord]:
    """A table's sets; cut short (incomplete), each missed the last hand."""
    missing = 1 if state == INCOMPLETE else 0
    return [
        SetRecord(entry, round_, table, total, 0, 0, state, hands_missing=missing)
        for entry, total in totals.items()
    ]


def still_in(ranked) -> set[int]:
    return {r.entry for r in ranked if r.status == "active"}


def test_a_table_that_sends_nobody_leaves_its_place_to_the_best_second():
    sets = [
        *at_table(1, 1, {1: 100, 2: 60, 3: 130, 4: 90}),  # 2 through; 4 second (90)
        *at_table(1, 2, {5: 80, 6: 150, 7: 70, 8: 95}),  # 7 through; 5 second (80)
        *at_table(1, 3, {9: 110, 10: 85, 11: 140, 12: 50}, state=INCOMPLETE),  # nobody
    ]
    ranked = knockout(sets, 12, rounds_closed=1)
    # Table 3's place goes to the best second of the round: 5 (80) before 4 (90).
    assert still_in(ranked) == {2, 7, 5}
    assert by_entry(ranked)[4].eliminated_in == 1


def test_with_two_through_two_tables_cut_short_still_seat_a_table():
    sets = [
        *at_table(1, 1, {1: 100, 2: 60, 3: 130, 4: 90}),
        *at_table(1, 2, {5: 80, 6: 150, 7: 70, 8: 95}, state=INCOMPLETE),
        *at_table(1, 3, {9: 110, 10: 85, 11: 140, 12: 50}, state=INCOMPLETE),
    ]
    ranked = knockout(sets, 12, rounds_closed=1, advance_per_table=2)
    # Six places; only table 1's four complete sets can take them.
    assert still_in(ranked) == {1, 2, 3, 4}


@settings(max_examples=200, deadline=None)
@given(
    tables=st.integers(2, 6),
    advance=st.integers(1, 3),
    cut=st.lists(st.booleans(), min_size=6, max_size=6),
    totals=st.lists(st.integers(0, 300), min_size=24, max_size=24),
)
def test_as_many_go_through_as_there_are_places_and_complete_sets(tables, advance, cut, totals):
    sets = []
    complete = 0
    for table in range(1, tables + 1):
        entries = range(4 * table - 3, 4 * table + 1)
        state = INCOMPLETE if cut[table - 1] else COMPLETE
        complete += 0 if cut[table - 1] else 4
        sets += at_table(1, table, {e: totals[e - 1] for e in entries}, state=state)
    ranked = knockout(sets, 4 * tables, rounds_closed=1, advance_per_table=advance)
    assert len(still_in(ranked)) == min(advance * tables, complete)


def test_places_follow_the_seats_so_an_odd_table_gives_no_better_chance():
    """13 fours and 4 threes, one place per four: 16 places, 13 to the fours and 3 to the
    threes, the three's left over drawn by table; 11 fours and 4 fives: one five in four
    sends two."""
    from game.ranking_keys import places_by_table

    sizes = {t: 4 for t in range(1, 14)} | {t: 3 for t in range(14, 18)}
    places = places_by_table(sizes, 1, lambda table: f"{(table * 7) % 17:02d}")
    assert sum(places.values()) == 16
    assert all(places[t] == 1 for t in range(1, 14))
    assert sorted(places[t] for t in range(14, 18)) == [0, 1, 1, 1]
    sizes = {t: 4 for t in range(1, 12)} | {t: 5 for t in range(12, 16)}
    places = places_by_table(sizes, 1, str)
    assert sorted(places[t] for t in range(12, 16)) == [1, 1, 1, 2]
    assert places_by_table({1: 4, 2: 4}, 2, str) == {1: 2, 2: 2}  # tables of four: as before
