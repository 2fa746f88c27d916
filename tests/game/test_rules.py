"""Rulesets, scoring one hand with every check of RULES.md, and set results."""

from __future__ import annotations

import pytest

from game.cards import STANDARD_DECK, Card, Deck
from game.rules import (
    DEFAULT_TABLE_RULES,
    RULESETS,
    HandEntry,
    HandInvalid,
    HandSpec,
    PenaltyEntry,
    PenaltyResult,
    ScoredHand,
    SeatEntry,
    TableRules,
    get_ruleset,
    score_hand,
    set_result,
    set_totals,
)

JAMAICA, JAMAICA_12, TRINIDAD = RULESETS["jamaica"], RULESETS["jamaica-12"], RULESETS["trinidad"]
SEATS = (1, 2, 3, 4)
PER_HAND = TableRules(penalty_per_hand=True)  # an event that allows amounts per hand


def score(
    entry: HandEntry,
    *,
    number: int = 1,
    ruleset=JAMAICA,
    deck=STANDARD_DECK,
    seats=SEATS,
    table_rules: TableRules = DEFAULT_TABLE_RULES,
):
    return score_hand(
        ruleset=ruleset,
        deck=deck,
        number=number,
        seats=seats,
        entry=entry,
        table_rules=table_rules,
    )


def problems(entry: HandEntry, **kwargs) -> dict[str, list[str]]:
    with pytest.raises(HandInvalid) as caught:
        score(entry, **kwargs)
    return caught.value.by_field()


def played(went_out=2, points=None, cards=None, **kwargs) -> HandEntry:
    """A scored hand: `points` and `cards` map seats to what the director typed."""
    points = {1: 23, 3: 12, 4: 41} if points is None and cards is None else points or {}
    scores = [SeatEntry(seat, points=p) for seat, p in points.items()]
    scores += [SeatEntry(seat, cards=c) for seat, c in (cards or {}).items()]
    return HandEntry(went_out=went_out, scores=tuple(scores), **kwargs)


def scores_of(hand: ScoredHand) -> dict[int, int]:
    return {r.seat: r.score for r in hand.results}


# --- rulesets and contracts -------------------------------------------------------------

JAMAICA_TABLE = [
    (1, 9, "three threes"),
    (2, 10, "two threes, one four"),
    (3, 11, "one three, two fours"),
    (4, 12, "three fours"),
    (5, 12, "four threes"),
    (6, 13, "three threes, one four"),
    (7, 14, "two threes, two fours"),
    (8, 15, "one three, three fours"),
    (9, 16, "four fours"),
]
TRINIDAD_TABLE = [
    (1, "two threes"),
    (2, "one three, one four"),
    (3, "two fours"),
    (4, "three threes"),
    (5, "two threes, one four"),
    (6, "one three, two fours"),
    (7, "three fours"),
]


@pytest.mark.parametrize(("number", "dealt", "contract"), JAMAICA_TABLE)
def test_jamaica_hands_follow_the_rules_table(number: int, dealt: int, contract: str) -> None:
    assert JAMAICA.hand(number).cards_dealt == dealt
    assert JAMAICA.hand(number).contract == contract


def test_jamaica_deals_three_cards_per_three_and_four_per_four() -> None:
    assert JAMAICA.hand_count == 9
    for spec in JAMAICA.hands:
        assert spec.cards_dealt == 3 * spec.threes + 4 * spec.fours


@pytest.mark.parametrize(("number", "dealt", "contract"), JAMAICA_TABLE)
def test_jamaica_12_deals_twelve_in_hands_1_to_3_only(number: int, dealt: int, contract: str):
    spec = JAMAICA_12.hand(number)
    assert spec.cards_dealt == (12 if number <= 3 else dealt)
    assert spec.contract == contract


@pytest.mark.parametrize(("number", "contract"), TRINIDAD_TABLE)
def test_trinidad_hands_follow_its_table_with_twelve_cards(number: int, contract: str) -> None:
    assert TRINIDAD.hand(number).contract == contract
    assert TRINIDAD.hand(number).cards_dealt == 12
    assert TRINIDAD.hand_count == 7


def test_only_trinidad_has_challenges_and_only_jamaica_is_down_and_out() -> None:
    assert [r.challenge_allowed for r in (JAMAICA, JAMAICA_12, TRINIDAD)] == [False, False, True]
    assert [r.down_and_out_allowed for r in (JAMAICA, JAMAICA_12, TRINIDAD)] == [True, True, False]


def test_get_ruleset_names_the_unknown_code_and_the_valid_ones() -> None:
    assert get_ruleset("trinidad") is TRINIDAD
    with pytest.raises(ValueError, match="'tobago'.*jamaica, jamaica-12, trinidad"):
        get_ruleset("tobago")


def test_a_hand_outside_the_set_does_not_exist() -> None:
    with pytest.raises(ValueError, match="hand 8 does not exist: a trinidad set has 7 hands"):
        TRINIDAD.hand(8)


def test_contract_words_use_singular_for_one() -> None:
    assert HandSpec(0, 7, 1, 1).contract == "one three, one four"
    assert HandSpec(0, 16, 4, 1).contract == "four threes, one four"


# --- a normal hand ----------------------------------------------------------------------


def test_the_api_example_scores_cards_and_the_overcall_penalty() -> None:
    entry = HandEntry(
        went_out=2,
        scores=(
            SeatEntry(1, points=23),
            SeatEntry(2, points=0),
            SeatEntry(3, cards="JK AS 10H 7D"),
            SeatEntry(4, points=41),
        ),
        penalties=(PenaltyEntry(3, "overcall", extra_calls=1),),
    )
    hand = score(entry)
    assert (hand.contract, hand.cards_dealt, hand.outcome) == ("three threes", 9, "scored")
    assert scores_of(hand) == {1: 23, 2: 0, 3: 82 + 100, 4: 41}
    seat_3 = hand.result_for(3)
    assert (seat_3.card_points, seat_3.penalty_points) == (82, 100)
    assert seat_3.cards == (Card("JK"), Card("A", "S"), Card("10", "H"), Card("7", "D"))
    assert hand.penalties == (PenaltyResult(3, "overcall", 100, 1),)


@pytest.mark.parametrize("out_entry", [None, SeatEntry(2, points=0), SeatEntry(2, cards="")])
def test_the_player_who_went_out_may_be_left_out_or_entered_as_zero(out_entry) -> None:
    others = (SeatEntry(1, points=5), SeatEntry(3, points=6), SeatEntry(4, points=7))
    entry = HandEntry(went_out=2, scores=others + ((out_entry,) if out_entry else ()))
    hand = score(entry)
    assert [r.seat for r in hand.results] == [1, 2, 3, 4]
    assert hand.result_for(2).card_points == hand.result_for(2).score == 0


def test_down_and_out_doubles_card_points_only() -> None:
    hand = score(played(down_and_out=True))
    assert hand.down_and_out
    assert scores_of(hand) == {1: 46, 2: 0, 3: 24, 4: 82}
    assert hand.result_for(1).card_points == 23


def test_penalties_are_added_after_doubling() -> None:
    entry = played(down_and_out=True, penalties=(PenaltyEntry(4, "false_laydown", points=75),))
    assert score(entry, table_rules=PER_HAND).result_for(4).score == 41 * 2 + 75


def test_a_penalty_without_points_costs_the_events_director_penalty() -> None:
    entry = played(penalties=(PenaltyEntry(1, "false_laydown"),))
    hand = score_hand(
        ruleset=JAMAICA,
        deck=Deck(),
        number=1,
        seats=SEATS,
        entry=entry,
        table_rules=TableRules(director_penalty=250),
    )
    assert hand.result_for(1).score == 23 + 250


@pytest.mark.parametrize(("points", "shown"), [(49, "49"), (501, "501"), ("100", '"100"')])
def test_a_director_penalty_is_50_to_500_points(points: object, shown: str) -> None:
    entry = played(penalties=(PenaltyEntry(1, "overcall", points=points),))
    assert problems(entry, table_rules=PER_HAND) == {
        "penalties": [f"seat 1: a director penalty is 50 to 500 points, not {shown}"]
    }
    assert (
        score(played(penalties=(PenaltyEntry(1, "overcall", points=500),)), table_rules=PER_HAND)
        .result_for(1)
        .score
        == 523
    )


def test_a_table_of_five_scores_every_seat() -> None:
    entry = played(went_out=5, points={1: 3, 2: 4, 3: 5, 4: 6})
    assert scores_of(score(entry, seats=(1, 2, 3, 4, 5))) == {1: 3, 2: 4, 3: 5, 4: 6, 5: 0}


# --- redeal -----------------------------------------------------------------------------


def test_a_redeal_scores_nothing() -> None:
    hand = score(HandEntry(redeal=True), number=4)
    assert (hand.outcome, hand.went_out, hand.results) == ("redeal", None, ())
    assert hand.contract == "three fours"


def test_a_redeal_carries_no_scores() -> None:
    entry = played(redeal=True, down_and_out=True, penalties=(PenaltyEntry(1, "overcall"),))
    assert set(problems(entry)) == {"went_out", "down_and_out", "scores", "penalties"}
    assert "a redeal carries no scores" in problems(entry)["scores"][0]


# --- the hand number and who went out ---------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "number", "message"),
    [
        (JAMAICA, 10, "hand 10 does not exist: a jamaica set has 9 hands"),
        (TRINIDAD, 8, "hand 8 does not exist: a trinidad set has 7 hands"),
        (JAMAICA, 0, "hand 0 does not exist: a jamaica set has 9 hands"),
        (JAMAICA, "1", 'the hand number must be a whole number, not "1"'),
    ],
)
def test_the_hand_number_must_be_a_hand_of_the_set(ruleset, number, message) -> None:
    assert problems(played(), ruleset=ruleset, number=number) == {"number": [message]}


def test_a_scored_hand_needs_the_seat_that_went_out() -> None:
    entry = played(went_out=None, points={1: 23, 2: 0, 3: 12, 4: 41})
    assert problems(entry) == {"went_out": ["a scored hand needs the seat that went out"]}


@pytest.mark.parametrize(
    ("went_out", "message"),
    [
        (7, "seat 7 is not at this table (seats 1, 2, 3, 4)"),
        ("2", 'went_out must be one seat number, not "2"'),
        ([2, 3], "went_out must be one seat number, not [2, 3]"),
    ],
)
def test_went_out_must_be_one_seat_at_the_table(went_out, message) -> None:
    assert problems(played(went_out=went_out))["went_out"] == [message]


def test_two_players_cannot_both_go_out() -> None:
    entry = played(points={1: 23, 3: 0, 4: 41})
    assert problems(entry) == {
        "scores": ["seat 3: 0 points, but only the player who went out can score 0"]
    }


def test_no_cards_for_a_player_still_in_is_refused_too() -> None:
    entry = played(points={1: 23, 4: 41}, cards={3: ""})
    assert "seat 3: no cards entered" in problems(entry)["scores"][0]


def test_the_player_who_went_out_scores_no_card_points() -> None:
    assert problems(played(points={1: 23, 2: 5, 3: 12, 4: 41})) == {
        "scores": ["seat 2 went out, so its card points are 0, not 5"]
    }
    assert problems(played(points={1: 23, 3: 12, 4: 41}, cards={2: "2S"})) == {
        "scores": ["seat 2 went out, so it holds no cards, not 1"]
    }


# --- score entries ----------------------------------------------------------------------


ONE_AND_THREE = (SeatEntry(1, points=23), SeatEntry(3, points=12))


@pytest.mark.parametrize(
    ("seat_4", "message"),
    [
        ((), "seat 4: no score entered"),
        ((SeatEntry(4, 1), SeatEntry(4, 2)), "seat 4 has more than one score entry"),
        ((SeatEntry(4, 41), SeatEntry(5, 9)), "seat 5 is not at this table (seats 1, 2, 3, 4)"),
        ((SeatEntry(4, 41, "2S"),), "seat 4: give either points or cards, not both"),
        ((SeatEntry(4),), "seat 4: give either points or cards"),
        ((SeatEntry(4, -5),), "seat 4: points cannot be negative (-5)"),
        ((SeatEntry(4, "41"),), 'seat 4: points must be a whole number, not "41"'),
        ((SeatEntry(4, 4.5),), "seat 4: points must be a whole number, not 4.5"),
        ((SeatEntry(4, True),), "seat 4: points must be a whole number, not true"),
        ((SeatEntry(4, cards="AS 1H"),), 'seat 4: "1H" is not a card: unknown rank "1"'),
        ((SeatEntry(4, cards=7),), 'seat 4: cards must be text like "JK AS 10H", not 7'),
        ((SeatEntry(4, 41), "seat 4"), "entry 4 of scores is not a seat's score"),
        ((SeatEntry(4, 41), SeatEntry("4", 1)), 'entry 4 of scores: "4" is not a seat'),
    ],
)
def test_each_seat_still_in_needs_one_clear_score(seat_4: tuple, message: str) -> None:
    (only,) = problems(HandEntry(went_out=2, scores=(*ONE_AND_THREE, *seat_4)))["scores"]
    assert only.startswith(message)


def test_scores_must_be_a_list() -> None:
    assert problems(HandEntry(went_out=2, scores="1: 23"))["scores"][0] == (
        'scores must be a list, not "1: 23"'
    )


# --- the bound on card points -----------------------------------------------------------


def test_card_points_up_to_what_22_cards_can_hold_are_accepted_in_hand_9() -> None:
    assert score(played(points={1: 400, 3: 1, 4: 1}), number=9).result_for(1).score == 400


def test_card_points_beyond_what_the_cards_can_hold_are_refused_with_the_reason() -> None:
    assert problems(played(points={1: 23, 3: 12, 4: 401}), number=9) == {
        "scores": [
            "seat 4: 401 points is more than 22 cards can hold "
            "(400; hand 9 deals 16, plus 6 from three calls)"
        ]
    }
    assert (
        "331 points is more than 15 cards can hold (330;"
        in problems(played(points={1: 23, 3: 12, 4: 331}), number=1)["scores"][0]
    )


def test_a_bigger_deck_allows_more_points() -> None:
    entry = played(points={1: 23, 3: 12, 4: 480})
    assert score(entry, number=9, deck=Deck(packs=2, jokers=6)).result_for(4).score == 480
    assert "scores" in problems(entry, number=9)


def test_an_overcall_lets_the_bound_grow_by_two_cards_per_extra_call() -> None:
    def hand9(points: int, extra_calls: int | None) -> HandEntry:
        penalty = PenaltyEntry(4, "overcall", extra_calls=extra_calls)
        return played(points={1: 23, 3: 12, 4: points}, penalties=(penalty,))

    assert score(hand9(420, None), number=9).result_for(4).score == 420 + 100
    assert score(hand9(440, 2), number=9).result_for(4).card_points == 440
    (message,) = problems(hand9(441, 2), number=9)["scores"]
    assert message == (
        "seat 4: 441 points is more than 26 cards can hold "
        "(440; hand 9 deals 16, plus 6 from three calls and 4 from 2 extra calls)"
    )


def test_cards_entered_may_not_outnumber_what_a_player_can_hold() -> None:
    low = [f"{rank}{suit}" for rank in "23456" for suit in "SHDC"]  # 20 cards
    assert score(played(cards={1: " ".join([*low, "7S", "7H"])}, points={3: 1, 4: 1}), number=9)
    entry = played(cards={1: " ".join([*low, "7S", "7H", "7D"])}, points={3: 1, 4: 1})
    assert problems(entry, number=9) == {
        "scores": [
            "seat 1: 23 cards, but a player can hold at most 22 "
            "(hand 9 deals 16, plus 6 from three calls)"
        ]
    }


# --- the deck limit across the table ----------------------------------------------------


def test_no_card_appears_at_the_table_more_often_than_the_deck_holds() -> None:
    entry = played(cards={1: "10H 2S", 3: "10h", 4: "10H JK JK JK JK JK"})
    assert problems(entry, number=9) == {
        "scores": [
            "the 10H appears 3 times at the table (seats 1, 3, 4), but the deck holds only 2",
            "the JK appears 5 times at the table (seat 4), but the deck holds only 4",
        ]
    }
    assert score(entry, number=9, deck=Deck(packs=3, jokers=5)).result_for(4).card_points == 260


def test_a_deck_without_jokers_holds_none() -> None:
    entry = played(cards={1: "2S", 3: "3S", 4: "JK"})
    assert problems(entry, deck=Deck(jokers=0))["scores"] == [
        "the JK appears once at the table (seat 4), but the deck holds none"
    ]


# --- penalties --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "message"),
    [
        (
            PenaltyEntry(2, "overcall"),
            "seat 2 went out, but a player charged an over-call may not go out in that hand",
        ),
        (
            PenaltyEntry(1, "overcall", extra_calls=0),
            "seat 1: extra_calls counts the calls beyond three, at least 1, not 0",
        ),
        (
            PenaltyEntry(1, "overcall", extra_calls="2"),
            'seat 1: extra_calls counts the calls beyond three, at least 1, not "2"',
        ),
        (
            PenaltyEntry(1, "false_laydown", extra_calls=1),
            "seat 1: extra_calls belongs to an overcall or a challenge",
        ),
        (
            PenaltyEntry(1, "cheating"),
            'seat 1: "cheating" is not a penalty (overcall, false_laydown, challenge)',
        ),
        (PenaltyEntry(6, "overcall"), "seat 6 is not at this table (seats 1, 2, 3, 4)"),
        (
            PenaltyEntry(1, "challenge"),
            "seat 1: a challenge is a Trinidad rule; a jamaica set has none",
        ),
    ],
)
def test_a_penalty_must_fit_the_hand(penalty: PenaltyEntry, message: str) -> None:
    assert problems(played(penalties=(penalty,))) == {"penalties": [message]}


def test_the_same_penalty_twice_on_one_seat_is_refused_but_two_kinds_add_up() -> None:
    twice = (PenaltyEntry(1, "overcall"), PenaltyEntry(1, "overcall"))
    assert problems(played(penalties=twice)) == {
        "penalties": ["seat 1 has more than one overcall penalty"]
    }
    both = (PenaltyEntry(1, "overcall"), PenaltyEntry(1, "false_laydown", points=50))
    assert score(played(penalties=both), table_rules=PER_HAND).result_for(1).score == 23 + 150


# --- Trinidad ---------------------------------------------------------------------------


def test_a_trinidad_challenge_costs_50_and_sits_the_player_out() -> None:
    entry = played(
        went_out=1, points={2: 30, 3: 12, 4: 41}, penalties=(PenaltyEntry(2, "challenge"),)
    )
    hand = score(entry, ruleset=TRINIDAD)
    seat_2 = hand.result_for(2)
    assert (seat_2.card_points, seat_2.penalty_points, seat_2.score) == (30, 50, 80)
    assert seat_2.sat_out
    assert not hand.result_for(3).sat_out
    assert hand.penalties == (PenaltyResult(2, "challenge", 50, 0),)


def test_a_right_challenge_may_record_the_over_callers_extra_calls() -> None:
    penalty = PenaltyEntry(4, "challenge", extra_calls=1)
    entry = played(points={1: 23, 3: 12, 4: 370}, penalties=(penalty,))
    assert score(entry, ruleset=TRINIDAD).result_for(4).score == 420  # 20 cards can hold 370
    assert (
        "370 points is more than 18 cards"
        in problems(played(points={1: 23, 3: 12, 4: 370}), ruleset=TRINIDAD)["scores"][0]
    )


@pytest.mark.parametrize(
    ("penalty", "message"),
    [
        (PenaltyEntry(2, "challenge"), "seat 2 went out, so it cannot have sat out a challenge"),
        (PenaltyEntry(1, "challenge", points=100), "seat 1: a challenge costs 50 points, not 100"),
    ],
)
def test_a_challenge_is_50_points_on_a_player_still_in(penalty, message) -> None:
    assert problems(played(penalties=(penalty,)), ruleset=TRINIDAD) == {"penalties": [message]}


def test_trinidad_has_no_down_and_out() -> None:
    assert problems(played(down_and_out=True), ruleset=TRINIDAD) == {
        "down_and_out": [
            "a trinidad set has no down and out unless the event agrees to it "
            "(trinidad_doubling): the others simply score their cards"
        ]
    }


# --- everything at once -----------------------------------------------------------------


def test_every_problem_of_a_hand_is_reported_together() -> None:
    entry = HandEntry(
        went_out=2,
        down_and_out="yes",
        scores=(SeatEntry(1, 0), SeatEntry(2, 5), SeatEntry(3, cards="ZZ"), SeatEntry(9, 1)),
        penalties=(PenaltyEntry(2, "overcall"), PenaltyEntry(3, "bribe")),
    )
    with pytest.raises(HandInvalid) as caught:
        score(entry, number=12)
    invalid = caught.value
    assert [p.field for p in invalid.problems] == [
        "number", "down_and_out", "scores", "scores", "scores", "scores", "scores",
        "penalties", "penalties",
    ]  # fmt: skip
    by_field = invalid.by_field()
    assert by_field["scores"][0] == "seat 9 is not at this table (seats 1, 2, 3, 4)"
    assert any("seat 1: 0 points" in m for m in by_field["scores"])
    assert any("seat 4: no score entered" in m for m in by_field["scores"])
    assert "hand 12 does not exist: a jamaica set has 9 hands" in by_field["number"]
    assert isinstance(invalid, ValueError)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (HandEntry(redeal="no"), "redeal"),
        (played(down_and_out=1), "down_and_out"),
        (played(penalties=PenaltyEntry(1, "overcall")), "penalties"),
        (played(penalties=({"seat": 1, "kind": "overcall"},)), "penalties"),
    ],
)
def test_values_of_the_wrong_type_are_problems_not_crashes(entry: HandEntry, field: str) -> None:
    assert field in problems(entry)


@pytest.mark.parametrize(
    "seats", [(1, 2), (1, 2, 3, 4, 5, 6, 7), (1, 1, 2, 3), (0, 1, 2), "1234", ("1", 2, 3)]
)
def test_a_table_that_cannot_exist_is_the_callers_bug(seats) -> None:
    with pytest.raises(ValueError) as caught:
        score(played(), seats=seats)
    assert not isinstance(caught.value, HandInvalid)


# --- a whole set ------------------------------------------------------------------------


def test_set_totals_add_every_scored_hand_and_ignore_redeals() -> None:
    hands = [score(played(), number=1), score(HandEntry(redeal=True), number=2)]
    hands.append(score(played(went_out=1, points={2: 7, 3: 8, 4: 9}), number=2))
    assert set_totals(hands, SEATS) == {1: 23, 2: 7, 3: 20, 4: 50}
    assert set_totals([], SEATS) == {1: 0, 2: 0, 3: 0, 4: 0}


def test_the_lowest_total_wins_and_tied_seats_share_a_place() -> None:
    result = set_result({1: 50, 2: 30, 3: 30, 4: 90})
    assert result.places == ((1, (2, 3)), (3, (1,)), (4, (4,)))
    assert [result.place_of(seat) for seat in SEATS] == [3, 1, 1, 4]
    assert result.totals == {1: 50, 2: 30, 3: 30, 4: 90}
    with pytest.raises(KeyError):
        result.place_of(5)


def test_a_set_where_everyone_ties_has_one_shared_first_place() -> None:
    assert set_result({1: 10, 2: 10, 3: 10}).places == ((1, (1, 2, 3)),)
