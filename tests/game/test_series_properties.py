"""The series maths' guarantees (README, "Circuits"), over random seasons: players
level on every criterion but a draw get the same series points and the same carry, and
renumbering the players (which moves every draw: a leg's and the series') changes
nobody's points or carry."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import series

PROPERTIES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCALE = (100, 80, 65, 55, 50, 45, 40, 36, 32, 29)


@st.composite
def seasons(draw):
    """Legs as each player's result before the leg's draw (a small number: ties are
    common), the ids the players carry, and how many count and qualify."""
    players = draw(st.integers(2, 10))
    legs = []
    for _ in range(draw(st.integers(1, 4))):
        field = draw(st.lists(st.integers(0, players - 1), min_size=2, unique=True))
        legs.append({p: draw(st.integers(0, 3)) for p in field})
    best_of = draw(st.none() | st.integers(1, 3))
    qualifiers = draw(st.integers(0, players))
    ties_qualify = draw(st.booleans())
    ids = draw(st.permutations(range(100, 100 + players)))
    return players, legs, best_of, qualifiers, ties_qualify, ids


def play(legs, ids, best_of, qualifiers, ties_qualify, seed):
    """The series as ranked with players numbered `ids`: each leg's ranks put its level
    players in the order of their ids (the leg's draw), then the series' own draw."""
    places = []
    for number, results in enumerate(legs):
        order = sorted(results, key=lambda p: (results[p], ids[p]))
        ranked = [(rank, results[p]) for rank, p in enumerate(order, start=1)]
        shared = series.shared_places(ranked)
        for rank, p in enumerate(order, start=1):
            place, count = shared[rank]
            places.append(series.LegPlace(number, ids[p], place, count))
    rows = series.standings(
        places,
        scale=SCALE,
        best_of=best_of,
        qualifiers=qualifiers,
        ties_qualify=ties_qualify,
        draw_seed=seed,
    )
    back = {player_id: p for p, player_id in enumerate(ids)}
    carries = series.carries(rows, step=25)
    return {back[r.player]: (r.points, carries[r.player], r.tie_key) for r in rows}


@PROPERTIES
@given(season=seasons(), other=st.randoms(use_true_random=False), seed=st.text(max_size=8))
def test_renumbering_the_players_changes_no_points_and_no_carry(season, other, seed):
    players, legs, best_of, qualifiers, ties_qualify, ids = season
    shuffled = list(ids)
    other.shuffle(shuffled)
    first = play(legs, ids, best_of, qualifiers, ties_qualify, seed)
    again = play(legs, shuffled, best_of, qualifiers, ties_qualify, seed + "x")
    assert {p: v[:2] for p, v in first.items()} == {p: v[:2] for p, v in again.items()}


@PROPERTIES
@given(season=seasons())
def test_players_level_on_everything_but_a_draw_score_and_carry_alike(season):
    """Two players whose results are the same leg by leg (the same standing before each
    leg's draw in the same legs) always get the same points and the same carry."""
    players, legs, best_of, qualifiers, ties_qualify, ids = season
    ranked = play(legs, ids, best_of, qualifiers, ties_qualify, "seed")
    by_results: dict[tuple, set] = {}
    for p in ranked:
        results = tuple((number, leg[p]) for number, leg in enumerate(legs) if p in leg)
        # The same standing in a leg means the same shared place only with the same
        # field: key on every player's standing in the legs played.
        fields = tuple(tuple(sorted(leg.values())) for leg in legs if p in leg)
        by_results.setdefault((results, fields), set()).add(ranked[p][:2])
    assert all(len(found) == 1 for found in by_results.values())


def test_players_level_across_the_line_all_qualify_when_the_series_says_so():
    level = [series.LegPlace(0, p, 1, 3) for p in range(3)]
    rows = series.standings(level, scale=SCALE, qualifiers=1, ties_qualify=True)
    assert [r.qualified for r in rows] == [True, True, True]
    rows = series.standings(level, scale=SCALE, qualifiers=1)
    assert [r.qualified for r in rows] == [True, False, False]
    assert [r.decided_by for r in rows] == ["", "draw", "draw"]
