"""The rating maths (game.ratings): each set at a table is a game ordered by its total."""

from __future__ import annotations

from game import ratings
from game.ratings import NEW, Rating, Result


def table(*totals: int, first: int = 1, incomplete: tuple[int, ...] = ()) -> list[Result]:
    return [
        Result(player=first + i, total=t, complete=first + i not in incomplete)
        for i, t in enumerate(totals)
    ]


def test_the_lowest_total_gains_and_the_highest_loses():
    after = ratings.rate_table({}, table(40, 120, 200, 310))
    assert after[1].mu > NEW.mu > after[4].mu
    assert after[1].mu > after[2].mu > after[3].mu > after[4].mu
    assert all(r.sets == 1 and r.sigma < NEW.sigma for r in after.values())


def test_equal_totals_tie():
    after = ratings.rate_table({}, table(100, 100, 250, 250))
    assert after[1] == after[2]
    assert after[3] == after[4]


def test_a_player_who_wins_every_set_rises_above_everyone_they_beat():
    rounds = []
    for n in range(6):
        # Player 1 wins every set against a changing set of opponents (players 2..13).
        opponents = [2 + (n * 3 + k) % 12 for k in range(3)]
        rounds.append(
            [[Result(1, 30)] + [Result(p, 100 + 40 * k) for k, p in enumerate(opponents)]]
        )
    final = ratings.rate_all(rounds)
    beaten = [p for p in final if p != 1]
    assert all(final[1].display > final[p].display for p in beaten)
    assert all(final[1].mu > final[p].mu for p in beaten)
    assert final[1].sets == 6


def test_an_incomplete_set_is_left_out_and_the_rest_rated_among_themselves():
    after = ratings.rate_table({}, table(50, 90, 10, 200, incomplete=(3,)))
    assert 3 not in after
    assert set(after) == {1, 2, 4}
    assert after == ratings.rate_table({}, table(50, 90, first=1) + [Result(4, 200)])


def test_a_table_with_fewer_than_two_complete_sets_is_no_game():
    assert ratings.rate_table({}, table(50, 90, 10, incomplete=(1, 2))) == {}


def test_the_order_of_a_rounds_tables_does_not_matter():
    tables = [table(10, 20, 30, 40), table(5, 60, 70, 80, first=5)]
    start = {1: Rating(mu=30.0, sigma=4.0, sets=9)}
    assert ratings.rate_round(start, tables) == ratings.rate_round(start, tables[::-1])


def test_the_shown_rating_is_mu_less_three_sigma():
    assert Rating(mu=30.0, sigma=2.0).display == 24.0
    assert NEW.display == 0.0


def test_rating_is_deterministic():
    rounds = [[table(10, 20, 30, 40)], [table(40, 30, 20, 10)]]
    assert ratings.rate_all(rounds) == ratings.rate_all(rounds)
