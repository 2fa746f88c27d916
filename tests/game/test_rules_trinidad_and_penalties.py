"""The Trinidad and penalty corners RULES.md decides for tournaments, each test quoting
the sentence it settles ("Decided for tournaments")."""

from __future__ import annotations

from game.rules import PenaltyEntry, SeatEntry, TableRules
from tests.game.test_rules_corner_cases import TRINIDAD, codes, hand, score

S, P = SeatEntry, PenaltyEntry
DOUBLING = TableRules(down_and_out=True)


def test_a_challenge_score_is_never_doubled_by_a_later_down_and_out():
    # "A challenge's result (the cards held plus 50) is that player's score for the
    # hand: a later down and out does not double it."
    entry = hand(
        S(2, points=55),
        S(3, points=10),
        S(4, points=7),
        penalties=(P(2, "challenge"),),
        down_and_out=True,
    )
    scored = score(entry, ruleset=TRINIDAD, table_rules=DOUBLING)
    assert scored.result_for(2).score == 55 + 50  # not (55 x 2) + 50 = 160
    assert scored.result_for(3).score == 20  # the others' cards still double
    assert scored.result_for(4).score == 14


def test_a_false_laydown_is_refused_on_the_seat_that_went_out():
    # "A false laydown is charged to a player who laid down without the contract and so
    # did not go out; a seat recorded as going out cannot carry one (record who really
    # went out instead)."
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=(P(1, "false_laydown"),))
    assert codes(entry)["false_laydown_went_out"] == (
        "seat 1 went out, but a false laydown is charged to a player who laid down without "
        "the contract and so did not go out: record who really went out"
    )
    elsewhere = hand(
        S(2, points=5), S(3, points=5), S(4, points=5), penalties=(P(2, "false_laydown"),)
    )
    assert score(elsewhere).result_for(2).score == 5 + 100


def test_extra_calls_are_bounded_by_what_is_left_after_every_seats_deal_and_the_discard():
    # "Extra calls are bounded by what the deck can still feed after every seat's deal
    # and the first discard." Hand 1 deals 9 to each of 4 seats from 108 cards: 71 are
    # left after the first discard, 35 calls of 2 cards, 32 beyond the three allowed.
    def overcalled(extra: int):
        return hand(
            S(2, points=5), S(3, points=5), S(4, points=5),
            penalties=(P(2, "overcall", extra_calls=extra),),
        )  # fmt: skip

    assert score(overcalled(32)).result_for(2).score == 5 + 100
    assert "at most 32 beyond three" in codes(overcalled(33))["extra_calls_too_many"]
    # Once 46 calls were taken (the deck less one seat's deal), a typo of 900 for 90
    # passed; now the seat's bound holds it.
    typo = hand(
        S(2, points=900), S(3, points=5), S(4, points=5),
        penalties=(P(2, "overcall", extra_calls=45),),
    )  # fmt: skip
    assert "extra_calls_too_many" in codes(typo, number=2)
