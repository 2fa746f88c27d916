"""Prize tables and ties: the draw decides, or the tied players share."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.prizes import DRAW, SHARE, Prize, awards, check_table

TABLE = check_table(
    [
        {"place": 1, "amount": 500},
        {"place": 2, "amount": "300"},
        {"place": 3, "amount": 100, "item": "trophy"},
    ]
)


def test_without_ties_each_place_takes_its_prize():
    won = awards(TABLE, [[1], [2], [3], [4]])
    assert won[1].amount == Decimal("500.00")
    assert won[3].item == "trophy"
    assert 4 not in won


def test_tied_players_share_the_amounts_of_the_places_they_cover():
    won = awards(TABLE, [[1], [2, 3, 4]], policy=SHARE)
    assert [won[r].amount for r in (2, 3, 4)] == [
        Decimal("133.34"),
        Decimal("133.33"),
        Decimal("133.33"),
    ]
    assert won[3].item == "trophy"  # an item cannot be split: the draw's place takes it
    assert won[2].shared_with == (3, 4)


def test_with_the_draw_policy_the_draw_decides():
    won = awards(TABLE, [[1, 2], [3]], policy=DRAW)
    assert (won[1].amount, won[2].amount) == (Decimal("500.00"), Decimal("300.00"))
    assert not won[1].shared


def test_amounts_are_read_as_people_type_them():
    table = check_table(
        [
            {"place": 1, "amount": "J$50,000"},
            {"place": 2, "amount": "TT$ 1,250.50"},
            {"place": 3, "amount": "50 000"},
            {"place": 4, "amount": "2500.00"},
            {"place": 5, "amount": 75},
        ]
    )
    assert [p.amount for p in table] == [
        Decimal("50000.00"),
        Decimal("1250.50"),
        Decimal("50000.00"),
        Decimal("2500.00"),
        Decimal("75.00"),
    ]


def test_bad_tables_are_refused_naming_the_prize():
    for bad, why in (
        ([{"place": 0, "amount": 5}], "prize 1: place"),
        ([{"place": 1, "amount": 5}, {"place": 1, "amount": 3}], "given twice"),
        ([{"place": 1, "amount": "abc"}], "not an amount .write it as 50,000"),
        ([{"place": 1, "amount": "5,00"}], "not an amount"),
        ([{"place": 1, "amount": "-5"}], "not an amount"),
        ([{"place": 1, "amount": -1}], "0 to"),
        ([{"place": 1}], "amount, an item"),
        ("nope", "must be a list"),
    ):
        with pytest.raises(ValueError, match=why):
            check_table(bad)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 100_000), min_size=1, max_size=8),
    st.lists(st.integers(1, 4), min_size=1, max_size=8),
)
def test_sharing_never_creates_or_loses_money(amounts, sizes):
    prizes = tuple(Prize(i + 1, Decimal(a) / 100) for i, a in enumerate(amounts))
    groups, rank = [], 1
    for size in sizes:
        groups.append(list(range(rank, rank + size)))
        rank += size
    won = awards(prizes, groups, policy=SHARE)
    paid = sum((p.amount for p in prizes if p.place < rank), Decimal(0))
    assert sum((a.amount for a in won.values()), Decimal(0)) == paid
    for group in groups:
        shares = [won[r].amount for r in group if r in won]
        if shares:
            assert max(shares) - min(shares) <= Decimal("0.01") * len(group)
