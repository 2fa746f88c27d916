"""The game's words: English text that carries its template and values, so the site can
say it again in the reader's language (`core.words.translated`)."""

from __future__ import annotations

import copy
import pickle

import pytest

from game import rules
from game.cards import Deck
from game.clock import Clock, ClockError
from game.prizes import check_table
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from game.rulesets import check_house, deal_problem, get_ruleset
from game.series import check_points_scale
from game.tie_notes import TieRow, tie_notes
from game.words import Joined, Said, joined, say, say_plural


def test_words_read_as_the_english_text_and_keep_what_they_were_made_from():
    said = say("seat %(seat)s: no score entered", seat=3)
    assert said == "seat 3: no score entered"
    assert isinstance(said, str)
    assert said.template == "seat %(seat)s: no score entered"
    assert said.params == {"seat": 3}


def test_a_plural_follows_its_number_in_english():
    def packs(n: int) -> Said:
        return say_plural("%(packs)s pack", "%(packs)s packs", n, packs=n)

    assert [packs(1), packs(2), packs(0)] == ["1 pack", "2 packs", "0 packs"]
    assert (packs(2).template, packs(2).plural, packs(2).number) == (
        "%(packs)s pack",
        "%(packs)s packs",
        2,
    )


def test_a_value_named_like_the_arguments_is_a_value_like_any_other():
    said = say_plural("hand %(number)s", "hands %(number)s", 2, number=7)
    assert said == "hands 7" and said.params == {"number": 7}
    assert say("%(template)s", template="x") == "x"


def test_words_within_words_read_as_english_too():
    why = say("hand %(hand)s deals %(dealt)s", hand=3, dealt=11)
    said = say("seat %(seat)s: too many (%(why)s)", seat=2, why=why)
    assert said == "seat 2: too many (hand 3 deals 11)"
    assert said.params["why"].template == "hand %(hand)s deals %(dealt)s"


@pytest.mark.parametrize("keep", [pickle.loads, copy.deepcopy])
def test_words_kept_in_a_cache_come_back_as_words(keep):
    said = say_plural("%(n)s times", "%(n)s times", 3, n=3)
    note = joined([say("Above %(name)s.", name="Ann"), said])
    back = keep(pickle.dumps(note)) if keep is pickle.loads else keep(note)
    assert isinstance(back, Joined) and back == "Above Ann. 3 times"
    assert isinstance(back.parts[1], Said) and back.parts[1].number == 3
    first = back.parts[0]  # read back as made, to be said again in another language
    assert (first.template, first.params, first.plural) == (
        "Above %(name)s.",
        {"name": "Ann"},
        None,
    )


def test_joined_words_keep_their_parts_and_separator():
    both = joined([say("a"), say("b")], "; ")
    assert both == "a; b" and both.separator == "; " and both.parts == ("a", "b")


def bad_hand() -> rules.HandInvalid:
    entry = HandEntry(
        went_out=1,
        scores=[
            SeatEntry(seat=2, points=500),
            SeatEntry(seat=3, cards="AS XX"),
            SeatEntry(seat=4, points=0),
            SeatEntry(seat=9, points=1),
        ],
        penalties=[PenaltyEntry(seat=2, kind="overcall", extra_calls=40), "x"],
    )
    with pytest.raises(rules.HandInvalid) as refused:
        rules.score_hand(
            ruleset=get_ruleset("jamaica"),
            deck=Deck(2, 2),
            number=3,
            seats=[1, 2, 3, 4],
            entry=entry,
        )
    return refused.value


def test_every_problem_of_a_hand_is_words_the_site_can_translate():
    invalid = bad_hand()
    assert len(invalid.problems) >= 5
    for problem in invalid.problems:
        assert isinstance(problem.message, Said), problem
        assert problem.message == problem.message.template % problem.message.params
    # The message of the whole refusal keeps each problem's words.
    assert isinstance(invalid.args[0], Joined)
    assert invalid.args[0].parts == tuple(p.message for p in invalid.problems)


def refusal(action) -> object:
    with pytest.raises(ValueError) as refused:
        action()
    return refused.value.args[0]


@pytest.mark.parametrize(
    "action",
    [
        lambda: check_table([{"place": 1, "amount": "lots"}]),
        lambda: check_table([{"place": 1, "amount": 5}, {"place": 1, "item": "cup"}]),
        lambda: check_points_scale([100, 120]),
        lambda: Clock(minutes=90).pause(None),
        lambda: Clock(minutes=90).act(None, "extend", 500, None),
    ],
)
def test_refusals_people_read_are_words(action):
    assert isinstance(refusal(action), Said)


def test_a_clock_refusal_keeps_the_field_and_its_words():
    with pytest.raises(ClockError) as refused:
        Clock(minutes=90).act(None, "pause", 5, None)
    assert refused.value.field == "minutes"
    assert refused.value.args[0].template == "Minutes are not given to pause the clock."


def test_the_deck_and_house_rules_explain_themselves_in_words():
    problem = deal_problem(get_ruleset("jamaica"), Deck(1, 0), 4)
    assert problem == (
        "hand 6 deals 13 cards to each of 4 players (52) and needs at least one more for the "
        "stock, but 1 pack and no jokers make 52 cards"
    )
    assert isinstance(problem.params["packs"], Said)
    problems = check_house({"hands": [], "jokers_per_pack": 9})
    assert all(isinstance(why, Said) for why in problems.values())


def test_contracts_and_ruleset_names_are_words():
    jamaica = get_ruleset("jamaica")
    assert [jamaica.hand(n).contract for n in (1, 2, 9)] == [
        "three threes",
        "two threes, one four",
        "four fours",
    ]
    assert all(isinstance(spec.contract, Said) for spec in jamaica.hands)
    assert isinstance(jamaica.name, Said) and jamaica.name == "Jamaican Kalooki"


def test_tie_notes_are_words_naming_players_as_they_are():
    rows = [
        TieRow("Ann", 775, (("points", 775), ("hands_won", 4))),
        TieRow("Bob", 775, (("points", 775), ("hands_won", 3))),
    ]
    above, below = tie_notes(rows, "points")
    assert isinstance(above, Joined) and isinstance(above.parts[0], Said)
    assert above.parts[0].params["name"] == "Bob"
    assert below == "Below Ann (level on 775 points): hands won, 4 to 3."
