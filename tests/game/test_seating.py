"""Seating a round: table sizes, each policy, repeats, dealers and seats, quality."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from game.seating import (
    POLICIES,
    SWISS_REACH,
    Contender,
    Quality,
    Seating,
    SeatingError,
    SeatingRequest,
    TablePlan,
    assess,
    seat,
    table_sizes,
)


def field(count: int, **fields) -> tuple[Contender, ...]:
    """Players 1..count; `rank` and `seed` equal to the id when asked for."""
    return tuple(
        Contender(
            id=i,
            seed=i if fields.get("seeded") else None,
            rank=i if fields.get("ranked") else None,
        )
        for i in range(1, count + 1)
    )


def request(contenders, **kwargs) -> SeatingRequest:
    return SeatingRequest(contenders=tuple(contenders), **kwargs)


def groups(seating: Seating) -> list[set[int]]:
    return [set(t.seats) for t in seating.tables]


def met_by(*rounds: list[list[int]]) -> dict[frozenset[int], int]:
    """The `met` mapping after the given rounds (lists of tables)."""
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] += 1
    return dict(met)


def weighted(tables, met) -> int:
    return sum(
        met.get(frozenset(pair), 0) for table in tables for pair in itertools.combinations(table, 2)
    )


# --- table sizes ----------------------------------------------------------------------------


def fewest_odd(count: int, odd_size: int) -> list[int] | None:
    """Independent oracle: the most fours with `odd_size` tables making up the rest."""
    for fours in range(count // 4, -1, -1):
        rest = count - 4 * fours
        if rest % odd_size == 0:
            return sorted([4] * fours + [odd_size] * (rest // odd_size), reverse=True)
    return None


@pytest.mark.parametrize("odd_tables", ["fives", "threes"])
@pytest.mark.parametrize("count", range(3, 61))
def test_table_sizes_seat_everyone_at_three_to_five_with_the_most_fours(count, odd_tables):
    sizes = table_sizes(count, odd_tables)
    preferred, other = (5, 3) if odd_tables == "fives" else (3, 5)

    assert sum(sizes) == count
    assert all(3 <= s <= 5 for s in sizes)
    assert sizes == sorted(sizes, reverse=True)  # largest first
    assert sizes == (fewest_odd(count, preferred) or fewest_odd(count, other))


@pytest.mark.parametrize(
    ("count", "odd_tables", "expected"),
    [
        (3, "fives", [3]),
        (4, "fives", [4]),
        (5, "fives", [5]),
        (6, "fives", [3, 3]),
        (7, "fives", [4, 3]),
        (9, "fives", [5, 4]),
        (10, "fives", [5, 5]),
        (11, "fives", [4, 4, 3]),
        (15, "fives", [5, 5, 5]),
        (19, "fives", [5, 5, 5, 4]),
        (5, "threes", [5]),
        (6, "threes", [3, 3]),
        (7, "threes", [4, 3]),
        (9, "threes", [3, 3, 3]),
        (10, "threes", [4, 3, 3]),
        (13, "threes", [4, 3, 3, 3]),
        (32, "threes", [4] * 8),
    ],
)
def test_table_sizes_match_the_cases_worked_by_hand(count, odd_tables, expected):
    assert table_sizes(count, odd_tables) == expected


def test_table_sizes_default_to_fives():
    assert table_sizes(9) == [5, 4]


@pytest.mark.parametrize(("count", "verb"), [(0, "are"), (1, "is"), (2, "are")])
def test_fewer_than_three_players_cannot_be_seated(count, verb):
    expected = f"3 players are needed to seat a round; {count} {verb} active"
    with pytest.raises(SeatingError, match=expected):
        table_sizes(count)
    with pytest.raises(SeatingError, match=expected):
        seat(request(field(count)))


def test_an_unknown_odd_tables_setting_is_refused():
    with pytest.raises(SeatingError, match="odd_tables must be one of fives, threes"):
        table_sizes(12, "sixes")


def test_an_unknown_policy_is_refused():
    with pytest.raises(SeatingError, match="seating policy must be one of random, spread"):
        seat(request(field(8), policy="alphabetical"))


def test_a_player_listed_twice_is_refused():
    with pytest.raises(SeatingError, match=r"listed twice: \[3\]"):
        seat(request([*field(8), Contender(id=3)]))


def test_seating_error_is_a_value_error():
    assert issubclass(SeatingError, ValueError)


# --- every policy ---------------------------------------------------------------------------


@pytest.mark.parametrize("odd_tables", ["fives", "threes"])
@pytest.mark.parametrize("count", [3, 5, 6, 9, 13, 22])
@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy_seats_each_player_once_at_tables_of_the_right_sizes(
    policy, count, odd_tables
):
    contenders = tuple(
        Contender(id=100 + i, seed=i, rank=count + 1 - i, rating=1500 - i)
        for i in range(1, count + 1)
    )
    seating = seat(request(contenders, policy=policy, odd_tables=odd_tables, seed=7))

    seated = [pid for t in seating.tables for pid in t.seats]
    assert sorted(seated) == [c.id for c in contenders]
    assert [len(t.seats) for t in seating.tables] == table_sizes(count, odd_tables)
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    assert all(1 <= t.dealer <= len(t.seats) for t in seating.tables)
    assert seating.quality.repeat_meetings == 0
    assert seating.quality.lower_bound == 0


@pytest.mark.parametrize("policy", POLICIES)
def test_the_same_request_and_seed_give_the_same_seating(policy):
    history = met_by([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    contenders = tuple(
        Contender(id=i, seed=i, rank=17 - i, dealt_first=i % 2, positions=(i % 4 + 1,))
        for i in range(1, 17)
    )
    first = seat(request(contenders, met=history, policy=policy, seed=42))
    again = seat(request(contenders, met=dict(reversed(history.items())), policy=policy, seed=42))
    shuffled = seat(request(reversed(contenders), met=history, policy=policy, seed=42))

    assert first == again == shuffled


def test_random_seatings_differ_from_seed_to_seed():
    outcomes = {
        tuple(t.seats for t in seat(request(field(16), seed=seed)).tables) for seed in range(6)
    }
    assert len(outcomes) >= 5


# --- spread and knockout: snake order -------------------------------------------------------


def test_spread_snakes_the_seeds_across_tables():
    seating = seat(request(field(12, seeded=True), policy="spread"))

    assert groups(seating) == [{1, 6, 7, 12}, {2, 5, 8, 11}, {3, 4, 9, 10}]


def test_spread_skips_full_tables_when_a_table_has_five():
    seating = seat(request(field(13, seeded=True), policy="spread"))

    assert groups(seating) == [{1, 6, 7, 12, 13}, {2, 5, 8, 11}, {3, 4, 9, 10}]


def test_spread_ranks_by_rating_after_seeds_then_by_id():
    contenders = [
        Contender(id=1),
        Contender(id=2),
        Contender(id=3, rating=1400),
        Contender(id=4, rating=1900),
        Contender(id=5, seed=2),
        Contender(id=6, seed=1),
        Contender(id=7, rating=1700),
        Contender(id=8),
    ]
    # strength order: 6, 5 (seeds), 4, 7, 3 (ratings), 1, 2, 8 (ids)
    seating = seat(request(contenders, policy="spread"))

    assert groups(seating) == [{6, 7, 3, 8}, {5, 4, 1, 2}]


def test_spread_keeps_strength_bands_when_it_avoids_a_repeat():
    # Seeds 1 and 12 shared a table: the snake would seat them together again.
    history = met_by([[1, 12]])
    seating = seat(request(field(12, seeded=True), met=history, policy="spread"))

    assert seating.quality.repeat_meetings == 0
    band_of = {pid: (pid - 1) // 3 for pid in range(1, 13)}  # seeds 1-3, 4-6, ...
    for table in groups(seating):
        assert sorted(band_of[pid] for pid in table) == [0, 1, 2, 3]


def test_knockout_snakes_the_advancing_players_by_rank():
    advanced = [Contender(id=10 * r, rank=r) for r in range(1, 9)]
    seating = seat(request(advanced, policy="knockout"))

    assert groups(seating) == [{10, 40, 50, 80}, {20, 30, 60, 70}]
    assert seating.quality.rank_spread is None


def test_knockout_avoids_a_repeat_within_the_rank_bands():
    advanced = [Contender(id=r, rank=r) for r in range(1, 9)]
    history = met_by([[1, 4]])  # both at table 1 of the snake
    seating = seat(request(advanced, met=history, policy="knockout"))

    assert seating.quality.repeat_meetings == 0
    for table in groups(seating):
        assert sorted((rank - 1) // 2 for rank in table) == [0, 1, 2, 3]


# --- swiss ----------------------------------------------------------------------------------


def test_swiss_seats_neighbours_in_the_standings_together():
    contenders = [Contender(id=100 - r, rank=r) for r in range(1, 17)]
    seating = seat(request(contenders, policy="swiss"))

    by_rank = {c.id: c.rank for c in contenders}
    assert [sorted(by_rank[p] for p in t.seats) for t in seating.tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ]
    assert seating.quality.rank_spread == (3, 3, 3, 3)


def test_swiss_puts_unranked_players_last():
    contenders = [*field(6, ranked=True), Contender(id=7), Contender(id=8)]
    seating = seat(request(contenders, policy="swiss"))

    assert groups(seating) == [{1, 2, 3, 4}, {5, 6, 7, 8}]


def test_swiss_breaks_up_repeats_by_moving_players_a_short_way():
    # Pairs at the top two tables met last round; the standings barely moved.
    history = met_by([[1, 2], [3, 4], [5, 6]])
    seating = seat(request(field(24, ranked=True), met=history, policy="swiss"))

    assert seating.quality.repeat_meetings == 0
    for number, table in enumerate(groups(seating)):
        for rank in table:
            assert abs((rank - 1) // 4 - number) <= SWISS_REACH
    # Players with no repeat to avoid stay at their own table.
    assert groups(seating)[3:] == [{13, 14, 15, 16}, {17, 18, 19, 20}, {21, 22, 23, 24}]


@pytest.mark.parametrize("seed", range(6))
def test_swiss_moves_players_as_few_places_as_it_can(seed):
    # Ranks 1 and 2 met: the cheapest fix swaps rank 2 with rank 5 (3 + 1 places),
    # not rank 1 with rank 5 (4 + 1).
    seating = seat(request(field(8, ranked=True), met=met_by([[1, 2]]), policy="swiss", seed=seed))

    assert groups(seating) == [{1, 3, 4, 5}, {2, 6, 7, 8}]


def test_swiss_reports_the_rank_spread_of_each_table():
    contenders = [Contender(id=i, rank=r) for i, r in enumerate([1, 2, 2, 4, 5, 6, 7, 9], 1)]
    seating = seat(request(contenders, policy="swiss"))

    assert seating.quality.rank_spread == (3, 4)


# --- repeats --------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["random", "mixer"])
@pytest.mark.parametrize("seed", range(5))
def test_a_repeat_free_seating_is_found_when_one_exists(policy, seed):
    # Two rounds of a 4x4 grid (rows, then columns): a third round without repeats
    # exists (a Latin square), but a plain shuffle almost always repeats someone.
    rows = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    columns = [list(col) for col in zip(*rows, strict=True)]
    seating = seat(request(field(16), met=met_by(rows, columns), policy=policy, seed=seed))

    assert seating.quality.repeat_meetings == 0
    for table in groups(seating):
        assert len({(p - 1) // 4 for p in table}) == 4  # one from each row
        assert len({(p - 1) % 4 for p in table}) == 4  # and each column


@pytest.mark.parametrize("policy", ["random", "mixer"])
@pytest.mark.parametrize("seed", range(3))
def test_a_pair_who_met_often_weighs_more_than_two_who_met_once(policy, seed):
    # Eight players, two tables, no clean split. The fewest repeat pairs (one) is only
    # possible by seating 1 and 2 (three meetings) or 6 and 7 (two) together again.
    history = {frozenset(pair): times for pair, times in REPEATED.items()}
    seating = seat(request(field(8), met=history, policy=policy, seed=seed))

    splits = [
        [set(four), set(range(1, 9)) - set(four)]
        for four in itertools.combinations(range(1, 9), 4)
        if 1 in four
    ]
    assert weighted(groups(seating), history) == min(weighted(s, history) for s in splits) == 2
    assert seating.quality.repeat_meetings == 2
    assert not {(1, 2), (6, 7)} & set(seating.quality.repeat_pairs)


REPEATED = {
    (1, 2): 3,
    (6, 7): 2,
    (1, 3): 1,
    (1, 8): 1,
    (3, 4): 1,
    (4, 5): 1,
    (4, 7): 1,
    (4, 8): 1,
    (5, 6): 1,
}


def test_mixer_keeps_sixteen_players_repeat_free_for_five_rounds():
    history: Counter[frozenset[int]] = Counter()
    for number in range(1, 6):
        seating = seat(request(field(16), met=dict(history), policy="mixer", seed=number))
        assert seating.quality.repeat_meetings == 0, f"round {number}"
        history.update(met_by([t.seats for t in seating.tables]))
    assert set(history.values()) == {1}
    assert len(history) == 16 * 15 // 2  # everyone has met everyone exactly once


def test_mixer_continues_repeat_free_after_a_random_first_round():
    history = Counter(met_by([t.seats for t in seat(request(field(16), seed=9)).tables]))
    for number in range(2, 6):
        seating = seat(request(field(16), met=dict(history), policy="mixer", seed=number))
        assert seating.quality.repeat_meetings == 0, f"round {number}"
        history.update(met_by([t.seats for t in seating.tables]))


def test_mixer_without_a_construction_still_avoids_repeats():
    # 20 players (five tables) is not a field the construction covers: search alone.
    history: Counter[frozenset[int]] = Counter()
    for number in range(1, 5):
        seating = seat(request(field(20), met=dict(history), policy="mixer", seed=number))
        assert seating.quality.repeat_meetings == 0, f"round {number}"
        history.update(met_by([t.seats for t in seating.tables]))


def test_meetings_with_players_not_in_the_round_are_ignored():
    history = met_by([[1, 2, 3, 99]])
    seating = seat(request(field(4), met=history, policy="random"))

    assert seating.quality.repeat_pairs == ((1, 2), (1, 3), (2, 3))
    assert seating.quality.lower_bound == 3


# --- seats and the first dealer -------------------------------------------------------------


def test_the_player_who_dealt_first_least_deals_first():
    contenders = [Contender(id=1, dealt_first=1), Contender(id=2, dealt_first=1)]
    contenders += [Contender(id=3, dealt_first=0), Contender(id=4, dealt_first=2)]
    for seed in range(5):
        table = seat(request(contenders, seed=seed)).tables[0]
        assert table.seats[table.dealer - 1] == 3


def test_players_avoid_the_seat_positions_they_had_most():
    contenders = [Contender(id=i, positions=(i, i, (i % 4) + 1)) for i in range(1, 5)]
    for seed in range(5):
        table = seat(request(contenders, seed=seed)).tables[0]
        for position, pid in enumerate(table.seats, start=1):
            assert position not in (pid, pid % 4 + 1)


def test_the_first_dealer_is_drawn_among_equals():
    dealers = {seat(request(field(4), seed=seed)).tables[0].dealer for seed in range(12)}
    assert len(dealers) > 1


# --- the quality report ---------------------------------------------------------------------


def test_assess_lists_the_repeat_pairs_of_a_hand_made_seating():
    history = met_by([[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2]])
    quality = assess([[8, 1, 5, 2], [3, 6, 4, 7]], history)

    assert quality == Quality(
        repeat_meetings=4,
        repeat_pairs=((1, 2), (3, 4), (5, 8), (6, 7)),
        lower_bound=0,
        rank_spread=None,
    )


def test_assess_follows_a_directors_swap():
    history = met_by([[1, 2, 3, 4], [5, 6, 7, 8]])
    seating = seat(request(field(8), met=history, policy="mixer"))
    tables = [list(t.seats) for t in seating.tables]
    partner = next(p for p in tables[1] if frozenset((tables[0][0], p)) in history)
    tables[1][tables[1].index(partner)], tables[0][1] = tables[0][1], partner

    quality = assess(tables, history)
    assert quality.repeat_meetings > seating.quality.repeat_meetings
    assert (min(tables[0][0], partner), max(tables[0][0], partner)) in quality.repeat_pairs


def test_assess_reports_the_rank_spread_only_for_swiss():
    ranks = {1: 1, 2: 2, 3: 3, 4: 9, 5: 4, 6: 5, 7: 6, 8: 7}
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]

    assert assess(tables, {}, ranks, policy="swiss").rank_spread == (8, 3)
    assert assess(tables, {}, ranks, policy="mixer").rank_spread is None
    assert assess(tables, {}, None, policy="swiss").rank_spread is None


def test_the_lower_bound_counts_a_player_who_has_met_everyone():
    # Player 1 has met all seven others: whoever joins them is a repeat, three at least.
    history = met_by(*[[[1, other]] for other in range(2, 9)])
    seating = seat(request(field(8), met=history, policy="mixer"))

    assert seating.quality.lower_bound == 3
    assert seating.quality.repeat_meetings == 3


def test_the_lower_bound_is_zero_when_nothing_rules_out_a_clean_round():
    history = met_by([[1, 2, 3, 4], [5, 6, 7, 8]])
    assert assess([[1, 5, 2, 6], [3, 7, 4, 8]], history).lower_bound == 0


def test_the_lower_bound_of_a_field_that_has_all_met_is_every_pair():
    history = met_by([[1, 2, 3, 4, 5]])
    assert assess([[1, 2, 3, 4, 5]], history).lower_bound == 10


def test_quality_as_dict_is_ready_for_json():
    quality = assess([[1, 2, 3], [4, 5, 6]], met_by([[1, 2]]), {i: i for i in range(7)}, "swiss")

    assert quality.as_dict() == {
        "repeat_meetings": 1,
        "repeat_pairs": [[1, 2]],
        "lower_bound": 0,
        "rank_spread": [2, 2],
    }
    assert json.loads(json.dumps(quality.as_dict())) == quality.as_dict()


def test_the_dataclasses_are_frozen():
    plan = TablePlan(number=1, seats=(1, 2, 3, 4), dealer=2)
    with pytest.raises(AttributeError):
        plan.dealer = 3  # type: ignore[misc]
