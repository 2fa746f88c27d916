"""Ranking on top of the closed rounds' tallies (`rank_on_closed`) gives exactly what
`rank` gives over every round's sets: random events, both formats that add up rounds,
incomplete sets, withdrawals, carried points and any tiebreak chain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ranking import (
    COMPLETE,
    INCOMPLETE,
    UNDER_WAY,
    EntryRecord,
    SetRecord,
    closed_tallies,
    rank,
    rank_on_closed,
)

CHAINS = [
    ("points", "hands_won", "penalty_points", "best_set", "draw"),
    ("table_points", "hands_won", "draw"),
    ("best_set", "penalty_points", "draw"),
    ("draw",),
]


@st.composite
def events(draw):
    players = draw(st.integers(3, 14))
    rounds = draw(st.integers(1, 4))
    sets = []
    for number in range(1, rounds + 1):
        seated = draw(st.permutations(range(1, players + 1)))
        seated = seated[: draw(st.integers(0, players))]
        for position, entry in enumerate(seated):
            state = draw(st.sampled_from([COMPLETE, COMPLETE, INCOMPLETE, UNDER_WAY]))
            if number < rounds and state == UNDER_WAY:
                state = COMPLETE  # a closed round has nothing under way
            sets.append(
                SetRecord(
                    entry=entry,
                    round=number,
                    table=position // 4 + 1,
                    total=draw(st.integers(0, 60)),
                    hands_won=draw(st.integers(0, 3)),
                    penalty_points=draw(st.sampled_from([0, 0, 10, 25])),
                    state=state,
                    hands_missing=draw(st.integers(1, 8)) if state == INCOMPLETE else 0,
                )
            )
    entries = [
        EntryRecord(entry, withdrawn=draw(st.booleans()), carried=draw(st.sampled_from([0, 0, 35])))
        for entry in range(1, players + 1)
    ]
    closed_up_to = draw(st.integers(0, rounds))
    return sets, entries, closed_up_to


# 150 events (Hypothesis's default is 100), each drawn with its format, tiebreak chain,
# table-points scale and draw seed: enough to cross every chain with both formats; 300
# took twice the time.
@settings(max_examples=150, deadline=None)
@given(
    event=events(),
    format=st.sampled_from(["total", "table-points"]),
    chain=st.sampled_from(CHAINS),
    scale=st.sampled_from([(4, 3, 2, 1), (3, 1, 0), (5, 2)]),
    seed=st.integers(0, 3),
)
def test_ranking_on_the_closed_rounds_tallies_equals_ranking_every_set(
    event, format, chain, scale, seed
):
    sets, entries, closed_up_to = event
    closed = [s for s in sets if s.round <= closed_up_to]
    live = [s for s in sets if s.round > closed_up_to]
    settings_ = dict(format=format, entries=entries, table_points=scale, tiebreaks=chain)
    whole = rank(sets=sets, draw_seed=seed, **settings_)
    with_points = format == "table-points" or "table_points" in chain
    tallies = closed_tallies(sets=closed, table_points=scale, with_table_points=with_points)
    assert rank_on_closed(closed=tallies, sets=live, draw_seed=seed, **settings_) == whole


def test_a_knockout_is_not_ranked_from_tallies():
    with pytest.raises(ValueError, match="knockout"):
        rank_on_closed(format="knockout", closed={}, sets=[], entries=[EntryRecord(1)])


def test_a_tally_for_an_entry_not_listed_is_refused():
    tallies = closed_tallies(sets=[SetRecord(7, 1, 1, 10, 0, 0)])
    with pytest.raises(ValueError, match="entry 7"):
        rank_on_closed(format="total", closed=tallies, sets=[], entries=[EntryRecord(1)])
