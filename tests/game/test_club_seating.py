"""Keeping clubmates apart: round 1 spreads each club over the tables as far
as they allow; later rounds never buy it with a repeat meeting; the quality report
counts the clubmates left together."""

from __future__ import annotations

import itertools
import random

from game import seating
from game.club_seating import club_pairs, keep_clubs_apart, same_club


def field(clubs: list[str]) -> tuple[seating.Contender, ...]:
    return tuple(
        seating.Contender(id=i, seed=i, club=club) for i, club in enumerate(clubs, start=1)
    )


def together(tables, clubs: dict[int, str]) -> int:
    return len(club_pairs([t.seats for t in tables], clubs))


def test_a_club_without_a_name_has_no_clubmates_and_case_does_not_matter():
    clubs = {1: "", 2: "", 3: "Kingston KC", 4: " kingston kc"}
    assert not same_club(clubs, 1, 2)
    assert same_club(clubs, 3, 4)


def test_round_1_spreads_every_club_over_the_tables():
    # 16 players, four clubs of four: every table can hold one of each.
    clubs = [c for c in "ABCD" for _ in range(4)]
    contenders = field(clubs)
    by_id = {c.id: c.club for c in contenders}
    for seed in range(10):
        plain = seating.seat(seating.SeatingRequest(contenders=contenders, seed=seed))
        apart = seating.seat(
            seating.SeatingRequest(contenders=contenders, seed=seed, avoid_clubs=True)
        )
        assert together(apart.tables, by_id) == 0, seed
        assert apart.quality.club_pairs == ()
        assert apart.quality.as_dict()["club_meetings"] == 0
        assert plain.quality.club_pairs is None and "club_meetings" not in plain.quality.as_dict()


def test_a_big_club_is_spread_as_far_as_the_tables_allow():
    # Eight from one club at three tables (12 players): at least 8 - 3 extra seats
    # means some clubmates must share; no table holds more than ceil(8 / 3) = 3.
    clubs = ["Big"] * 8 + ["x", "y", "z", "w"]
    contenders = field(clubs)
    plan = seating.seat(seating.SeatingRequest(contenders=contenders, seed=3, avoid_clubs=True))
    per_table = [sum(1 for p in t.seats if p <= 8) for t in plan.tables]
    assert sorted(per_table) == [2, 3, 3]
    assert plan.quality.as_dict()["club_meetings"] == 1 + 3 + 3


def test_clubs_are_never_kept_apart_at_the_price_of_a_repeat_meeting():
    groups = [[1, 2, 3, 4], [5, 6, 7, 8]]
    clubs = {1: "A", 2: "A", 5: "B", 6: "B"}
    # Every swap that separates 1 and 2 would seat someone with a player they met.
    met = {frozenset(pair): 1 for pair in itertools.product([1, 2], [5, 6, 7, 8])}
    met |= {frozenset(pair): 1 for pair in itertools.product([3, 4], [5, 6, 7, 8])}
    result = keep_clubs_apart(groups, clubs, met, random.Random(1))
    assert sorted(map(sorted, result)) == [[1, 2, 3, 4], [5, 6, 7, 8]]
    # Without the meetings, they are separated.
    result = keep_clubs_apart(groups, clubs, {}, random.Random(1))
    assert club_pairs(result, clubs) == []


def test_swiss_keeps_clubmates_apart_only_between_neighbouring_tables():
    contenders = tuple(
        seating.Contender(id=i, rank=i, club="A" if i in (1, 2) else "") for i in range(1, 13)
    )
    plan = seating.seat(
        seating.SeatingRequest(contenders=contenders, policy="swiss", seed=1, avoid_clubs=True)
    )
    tables = {p: t.number for t in plan.tables for p in t.seats}
    assert tables[1] != tables[2] and abs(tables[1] - tables[2]) == 1
    assert plan.quality.as_dict()["club_meetings"] == 0
