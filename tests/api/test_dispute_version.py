"""A dispute through the API (API.md, "Entry at the table"): the player who disputed may
send their own version afterwards, or change it, until the director decides; nobody
else may; and once a director records the hand, the entry reads as overruled."""

from __future__ import annotations

import copy

import pytest

from scoring.models import Hand, Proposal
from tests.api.conftest import GOOD_HAND, as_player, hand_url
from tests.fixtures import codes_of, make_entries, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def codes(event):
    """Players enter at alice's event; round 1 published, one table of four."""
    Event.objects.filter(pk=event.pk).update(table_entry=Event.TableEntry.PLAYERS)
    return codes_of(make_round(event, table_sizes=(4,), entries=make_entries(event, 4)))


def dispute_url() -> str:
    return hand_url() + "proposal/dispute/"


def their_version(points: int) -> dict:
    theirs = copy.deepcopy(GOOD_HAND)
    theirs["scores"][0]["points"] = points
    return theirs


def test_the_player_who_disputed_sends_their_version_afterwards(api, codes):
    as_player(api, codes, 1).put(hand_url() + "proposal/", GOOD_HAND, format="json")
    tapped = as_player(api, codes, 3).post(dispute_url())
    assert tapped.status_code == 200 and tapped.json()["alternative"] is None

    given = as_player(api, codes, 3).post(dispute_url(), their_version(13), format="json")
    assert given.status_code == 200, given.json()
    body = given.json()
    assert (body["state"], body["disputed_by"]) == ("disputed", 3)
    assert body["alternative"]["results"][0]["card_points"] == 13
    assert body["hand"]["results"][0]["card_points"] == 23  # the entry itself is unchanged

    changed = as_player(api, codes, 3).post(dispute_url(), their_version(17), format="json")
    assert changed.json()["alternative"]["results"][0]["card_points"] == 17
    assert not Hand.objects.exists()


def test_nobody_else_sends_a_version_of_a_disputed_hand(api, codes):
    as_player(api, codes, 1).put(hand_url() + "proposal/", GOOD_HAND, format="json")
    as_player(api, codes, 3).post(dispute_url())
    refused = as_player(api, codes, 4).post(dispute_url(), their_version(13), format="json")
    assert refused.status_code == 409
    assert "the director decides it" in refused.json()["hand"][0]
    assert Proposal.objects.get().alternative is None


def test_a_directors_record_settles_the_dispute(api, alice, codes):
    as_player(api, codes, 1).put(hand_url() + "proposal/", GOOD_HAND, format="json")
    as_player(api, codes, 3).post(dispute_url(), their_version(13), format="json")
    recorded = api.as_(alice).put(hand_url(), their_version(13), format="json")
    assert recorded.status_code == 200
    entry = as_player(api, codes, 3).get(hand_url() + "proposal/").json()
    assert entry["state"] == "overruled"
    late = as_player(api, codes, 3).post(dispute_url(), their_version(19), format="json")
    assert late.status_code == 409 and "already recorded" in late.json()["hand"][0]
