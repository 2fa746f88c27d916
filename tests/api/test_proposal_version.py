"""A confirmation names what it confirms: the proposal document carries "version",
which grows each time the table enters the hand again; a confirmation naming an older
one is refused (409, with the entry now waiting) and records nothing."""

from __future__ import annotations

import copy

import pytest

from scoring.models import Hand, Proposal
from tests.api.conftest import GOOD_HAND, as_player, hand_url

pytestmark = pytest.mark.django_db

PROPOSAL = hand_url() + "proposal/"
CONFIRM = PROPOSAL + "confirm/"


@pytest.fixture
def codes(players_codes):
    return players_codes


def with_seat_3(points: int) -> dict:
    hand = copy.deepcopy(GOOD_HAND)
    hand["scores"][2] = {"seat": 3, "points": points}
    return hand


def scores_of(body: dict) -> dict[int, int]:
    return {r["seat"]: r["card_points"] for r in body["hand"]["results"]}


def test_each_entry_of_a_hand_has_the_next_version(api, codes):
    first = as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json").json()
    again = as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json").json()
    other = as_player(api, codes, 3).put(PROPOSAL, with_seat_3(5), format="json").json()
    assert (first["version"], again["version"], other["version"]) == (1, 1, 2)
    assert as_player(api, codes, 2).get(PROPOSAL).json()["version"] == 2


def test_confirming_an_entry_the_table_replaced_is_409_and_records_nothing(api, codes):
    """Seat 1 enters seat 3 = 25; seat 2 reads it; seat 3 enters it again (5); seat 2
    confirms what they read: refused, with the new entry to look at."""
    as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json")
    shown = as_player(api, codes, 2).get(PROPOSAL).json()
    assert scores_of(shown)[3] == 25
    as_player(api, codes, 3).put(PROPOSAL, with_seat_3(5), format="json")

    refused = as_player(api, codes, 2).post(CONFIRM, {"version": shown["version"]}, format="json")
    assert refused.status_code == 409, refused.json()
    body = refused.json()
    assert "entered again" in body["version"][0]
    assert body["proposal"]["version"] == 2 and body["proposal"]["state"] == "pending"
    assert scores_of(body["proposal"])[3] == 5
    assert not Hand.objects.exists()
    assert Proposal.objects.get(version=2).state == "pending"

    confirmed = as_player(api, codes, 2).post(CONFIRM, {"version": 2}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    recorded = api.as_().get(hand_url()).json()
    assert {r["seat"]: r["card_points"] for r in recorded["results"]}[3] == 5


def test_if_match_names_the_version_too(api, codes):
    as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json")
    as_player(api, codes, 3).put(PROPOSAL, with_seat_3(5), format="json")
    assert as_player(api, codes, 2).post(CONFIRM, HTTP_IF_MATCH='"1"').status_code == 409
    assert as_player(api, codes, 2).post(CONFIRM, HTTP_IF_MATCH='"2"').status_code == 200


def test_a_confirmation_without_a_version_confirms_the_entry_waiting(api, codes):
    """API clients from before versions keep working as they did."""
    as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json")
    as_player(api, codes, 3).put(PROPOSAL, with_seat_3(5), format="json")
    confirmed = as_player(api, codes, 2).post(CONFIRM)
    assert confirmed.status_code == 200 and confirmed.json()["version"] == 2


@pytest.mark.parametrize("version", [0, -1, "2", 1.5, True, None, 2**40])
def test_a_version_that_is_no_version_is_400(api, codes, version):
    as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json")
    response = as_player(api, codes, 2).post(CONFIRM, {"version": version}, format="json")
    assert response.status_code == 400 and "version" in response.json()
    assert not Hand.objects.exists()


def test_a_bad_if_match_is_400(api, codes):
    as_player(api, codes, 1).put(PROPOSAL, with_seat_3(25), format="json")
    response = as_player(api, codes, 2).post(CONFIRM, HTTP_IF_MATCH="yesterday")
    assert response.status_code == 400 and "If-Match" in response.json()
