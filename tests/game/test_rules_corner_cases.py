"""The rules' corner cases, each checked against the sources (RULES.md, and README's
choices where the sources are silent). Every test quotes the case it settles."""

from __future__ import annotations

import pytest

from game.cards import Deck
from game.rules import (
    RULESETS,
    HandEntry,
    HandInvalid,
    PenaltyEntry,
    SeatEntry,
    TableRules,
    deal_problem,
    ends_after,
    score_hand,
)

JAMAICA, TRINIDAD = RULESETS["jamaica"], RULESETS["trinidad"]
S, P = SeatEntry, PenaltyEntry
# Twenty cards worth 102: hand 4 deals 12, so 18 is the most three calls allow.
TWENTY = "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H 2D 3D 4D 5D"


def score(entry: HandEntry, *, ruleset=JAMAICA, number=1, table_rules=TableRules(), deck=None):  # noqa: B008
    return score_hand(
        ruleset=ruleset,
        deck=deck or Deck(),
        number=number,
        seats=(1, 2, 3, 4),
        entry=entry,
        table_rules=table_rules,
    )


def codes(entry: HandEntry, **kwargs) -> dict[str, str]:
    with pytest.raises(HandInvalid) as caught:
        score(entry, **kwargs)
    return {p.code: p.message for p in caught.value.problems}


def hand(*scores: SeatEntry, went_out=1, **extra) -> HandEntry:
    return HandEntry(went_out=went_out, scores=scores, **extra)


# "Trinidad: the cards of a player who sat out after a challenge go to the bottom of the
# discard pile and can come back into play, yet they are counted against the rest of the
# table's copies ("AS appears 3 times, the deck holds only 2")."


def test_a_challenged_players_cards_can_come_back_into_play() -> None:
    entry = hand(
        S(2, cards="AS AS 7D"),
        S(3, cards="AS 9C"),
        S(4, cards="AS"),
        penalties=(P(2, "challenge"),),
    )
    scored = score(entry, ruleset=TRINIDAD)
    assert scored.result_for(2).sat_out and scored.result_for(2).score == 15 + 15 + 7 + 50
    assert scored.result_for(3).score == 24


def test_the_others_still_cannot_hold_more_copies_than_the_deck() -> None:
    entry = hand(
        S(2, cards="7D"), S(3, cards="AS AS"), S(4, cards="AS"), penalties=(P(2, "challenge"),)
    )
    assert "the AS appears 3 times" in codes(entry, ruleset=TRINIDAD)["card_copies"]


def test_nor_can_the_challenged_player_alone() -> None:
    entry = hand(S(2, cards="AS AS AS"), S(3, points=5), S(4, points=5))
    challenged = hand(*entry.scores, penalties=(P(2, "challenge"),))
    assert "the AS appears 3 times" in codes(challenged, ruleset=TRINIDAD)["card_copies"]


# "A correct challenge is refused unless extra_calls is given, and the message does not
# say so."


def test_a_right_challenge_without_extra_calls_is_told_to_give_them() -> None:
    entry = hand(S(2, cards=TWENTY), S(3, points=5), S(4, points=5), penalties=(P(2, "challenge"),))
    message = codes(entry, ruleset=TRINIDAD, number=4)["challenge_extra_calls"]
    assert message == (
        "seat 2: 20 cards is more than 18 cards allow (hand 4 deals 12, plus 6 from three "
        "calls); the challenge was right, so give its extra_calls, the calls seat 2 made "
        "beyond three (at least 1)"
    )
    by_points = hand(
        S(2, points=370), S(3, points=5), S(4, points=5), penalties=(P(2, "challenge"),)
    )
    assert (
        "give its extra_calls"
        in codes(by_points, ruleset=TRINIDAD, number=4)["challenge_extra_calls"]
    )


def test_with_its_extra_calls_the_right_challenge_is_scored() -> None:
    challenge = P(2, "challenge", extra_calls=1)
    entry = hand(S(2, cards=TWENTY), S(3, points=5), S(4, points=5), penalties=(challenge,))
    scored = score(entry, ruleset=TRINIDAD, number=4)
    assert scored.result_for(2).score == 102 + 50
    assert scored.penalties[0].extra_calls == 1


# "The over-call penalty is an agreed variant ("sometimes penalised, 50-500 by prior
# agreement"): an event that does not use it cannot score a player holding 20 cards in
# hand 4 at all. Make it an event setting, and likewise allow an event to agree to
# down-and-out doubling in a Trinidad set (the sources are silent there)."

NO_OVERCALL_PENALTY = TableRules(overcall_penalty=False)


def test_without_the_overcall_penalty_the_overcall_is_recorded_for_its_cards_only() -> None:
    overcall = P(2, "overcall", extra_calls=1)
    entry = hand(S(2, cards=TWENTY), S(3, points=5), S(4, points=5), penalties=(overcall,))
    scored = score(entry, number=4, table_rules=NO_OVERCALL_PENALTY)
    assert (scored.result_for(2).penalty_points, scored.result_for(2).score) == (0, 102)
    assert scored.penalties[0].points == 0
    # With the penalty agreed, the same hand costs the director penalty on top.
    assert score(entry, number=4).result_for(2).score == 202


def test_without_the_overcall_penalty_no_amount_can_be_charged_for_one() -> None:
    overcall = P(2, "overcall", extra_calls=1, points=100)
    entry = hand(S(2, cards=TWENTY), S(3, points=5), S(4, points=5), penalties=(overcall,))
    assert codes(entry, number=4, table_rules=NO_OVERCALL_PENALTY)["overcall_not_charged"] == (
        "seat 2: this event charges nothing for an over-call (it is recorded for its calls), "
        "so give no points, not 100"
    )


def test_an_overcaller_still_may_not_go_out_without_the_penalty() -> None:
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=(P(1, "overcall"),))
    assert "overcall_went_out" in codes(entry, table_rules=NO_OVERCALL_PENALTY)


def test_a_trinidad_event_may_agree_to_down_and_out_doubling() -> None:
    entry = hand(S(2, points=5), S(3, points=6), S(4, points=7), down_and_out=True)
    assert "down_and_out_not_allowed" in codes(entry, ruleset=TRINIDAD)
    doubled = score(entry, ruleset=TRINIDAD, table_rules=TableRules(down_and_out=True))
    assert [r.score for r in doubled.results] == [0, 10, 12, 14]


# "Bounds are checked per seat only: three seats at 400 in hand 9 are accepted, though
# that needs 12 jokers."


def test_three_seats_at_400_in_hand_9_are_refused_as_a_table() -> None:
    entry = hand(S(2, points=400), S(3, points=400), S(4, points=400))
    assert codes(entry, number=9) == {
        "table_over_bound": (
            "the seats' card points add up to 1200, more than the 66 cards they can hold "
            "between them are worth (784, from a deck of 108): check the scores"
        )
    }


def test_one_seat_at_its_bound_beside_modest_ones_is_still_fine() -> None:
    assert score(hand(S(2, points=400), S(3, points=90), S(4, points=80)), number=9)


def test_the_seat_bound_still_holds_and_is_reported_alone() -> None:
    entry = hand(S(2, points=401), S(3, points=400), S(4, points=400))
    assert set(codes(entry, number=9)) == {"points_over_bound"}


# "The penalty amount is "by prior agreement": a points different from the event's
# amount is accepted silently. Refuse it unless the event allows per-hand amounts."


def test_a_penalty_of_another_amount_is_refused_unless_the_event_allows_it() -> None:
    laydown = P(2, "false_laydown", points=150)
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=(laydown,))
    assert codes(entry)["penalty_points_fixed"] == (
        "seat 2: this event's agreed penalty is 100 points, not 150 (amounts per hand are "
        "not allowed)"
    )
    assert score(entry, table_rules=TableRules(penalty_per_hand=True)).result_for(2).score == 155


def test_the_agreed_amount_given_explicitly_is_fine() -> None:
    laydown = P(2, "false_laydown", points=100)
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=(laydown,))
    assert score(entry).result_for(2).score == 105


# "A challenge and an over-call on the same seat in one hand are both charged; in
# Trinidad the challenge is the remedy."


def test_a_challenge_and_an_overcall_on_one_seat_are_refused_in_trinidad() -> None:
    both = (P(2, "challenge", extra_calls=1), P(2, "overcall", extra_calls=1))
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=both)
    assert codes(entry, ruleset=TRINIDAD)["challenge_and_overcall"] == (
        "seat 2 is charged both a challenge and an over-call, but in a trinidad set the "
        "challenge is the remedy for over-calling: charge the challenge only, with its "
        "extra_calls"
    )


# "An event with 1 pack and no jokers is accepted though hand 7 at a table of 4 cannot
# be dealt from 52 cards; check the deck against the largest table and hand."


def test_a_deck_too_small_for_the_table_is_named_with_the_first_hand_it_cannot_deal() -> None:
    assert deal_problem(JAMAICA, Deck(packs=1, jokers=0), 4) == (
        "hand 6 deals 13 cards to each of 4 players (52) and needs at least one more for "
        "the stock, but 1 pack and no jokers make 52 cards"
    )
    assert deal_problem(JAMAICA, Deck(packs=1, jokers=4), 3) is None
    assert deal_problem(JAMAICA, Deck(), 6) is None
    assert "hand 1 deals 12" in deal_problem(TRINIDAD, Deck(packs=1, jokers=0), 5)


# "extra_calls has no upper bound (40000 gives a 500 from the database)."


def test_extra_calls_are_bounded_by_what_the_deck_can_feed_a_player() -> None:
    overcall = P(2, "overcall", extra_calls=40000)
    entry = hand(S(2, points=5), S(3, points=5), S(4, points=5), penalties=(overcall,))
    assert codes(entry)["extra_calls_too_many"] == (
        "seat 2: 40000 extra calls is more than the deck allows: each call takes 2 cards, "
        "so at most 32 beyond three"
    )
    fine = hand(*entry.scores, penalties=(P(2, "overcall", extra_calls=32),))
    assert score(fine).result_for(2).score == 105


# --- a table that loses players ------------------------------------------------------


@pytest.mark.parametrize(
    ("leave_points", "ends"),
    [
        ((None, None, None, None), None),
        ((None, 4, None, None), None),  # a four plays on as a three
        ((None, 4, None), 4),  # a three that loses a player ends after that hand
        ((None, 0, None), 0),
        ((3, 6, None, None), 6),  # two leave a four: it ends when the second goes
        ((9, None, None), None),  # leaving after the last hand ends nothing
    ],
)
def test_a_table_ends_after_the_hand_before_fewer_than_three_would_play(leave_points, ends) -> None:
    assert ends_after(leave_points, 9) == ends
