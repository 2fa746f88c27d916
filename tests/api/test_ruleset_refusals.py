"""Why `POST /api/v1/rulesets/` (and `check_house_data` behind it, which the admin
uses too) refuses a custom ruleset, in one plain sentence per field: never a doubled
verb ("Give give ..."), never "Give" before a hand's problem."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from core.events.rulesets import check_house_data

pytestmark = pytest.mark.django_db

GOOD = {
    "slug": "tens",
    "name": "Tens",
    "hands": [{"cards_dealt": 10, "threes": 2, "fours": 0}],
    "jokers_per_pack": 2,
    "overcall_penalty": 100,
    "false_laydown_penalty": 150,
    "down_and_out_doubles": True,
}


def reason(api, root, **values) -> dict[str, list[str]]:
    response = api.as_(root).post("/api/v1/rulesets/", {**GOOD, **values}, format="json")
    assert response.status_code == 400, response.content
    return response.json()


def test_each_reason_is_one_plain_sentence(api, root):
    assert reason(api, root, hands=[])["hands"] == ["Give 1 to 20 hands."]
    assert reason(api, root, jokers_per_pack=30)["jokers_per_pack"] == [
        "Give 0 to 8 jokers per pack."
    ]
    assert reason(api, root, overcall_penalty=5)["overcall_penalty"] == ["Give 50 to 500 points."]


def test_a_hands_reason_names_the_hand_without_a_give_before_it():
    hand = {"cards_dealt": 10, "threes": 2, "fours": 0}
    cases = {
        'Hand 1: give {"cards_dealt", "threes", "fours"}.': [{"cards_dealt": 10}],
        "Hand 2: whole numbers only.": [hand, {**hand, "threes": "two"}],
        "Hand 1: deal 5 to 20 cards, not 30.": [{**hand, "cards_dealt": 30}],
        "Hand 1: a contract of 1 to 6 melds.": [{**hand, "threes": 0}],
        "Hand 1: 20 cards of melds cannot come from 10 dealt and three calls.": [
            {**hand, "threes": 0, "fours": 5}
        ],
    }
    for expected, hands in cases.items():
        with pytest.raises(InvalidInput) as refused:
            check_house_data({"hands": hands})
        assert refused.value.errors == {"hands": [expected]}


def test_no_reason_doubles_its_verb_or_gives_a_hand(api, root):
    bad = {"hands": [], "jokers_per_pack": 99, "overcall_penalty": 1,
           "false_laydown_penalty": 9999}  # fmt: skip
    refused = reason(api, root, **bad)
    assert set(refused) == set(bad)  # each one the service's reason
    for messages in refused.values():
        for text in messages:
            assert not text.lower().startswith(("give give", "give hand")), text
            assert text[0].isupper() and text.endswith("."), text
