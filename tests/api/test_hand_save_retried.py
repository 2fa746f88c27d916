"""A save whose client went away before the answer (a timeout, a dropped connection)
and is sent again, unchanged, is answered as saved: the retry carries the version it
was made from, one before the stored one, and says exactly what is stored. A different
entry made from that version is still refused as "changed by someone else"."""

from __future__ import annotations

import copy

import pytest

from scoring.models import Hand, HandScore
from tests.api.conftest import GOOD_HAND, hand_url

pytestmark = pytest.mark.django_db


def test_the_same_save_sent_again_from_its_version_answers_200(api, alice, playing):
    client = api.as_(alice)
    first = client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"0"')
    assert first.status_code == 200 and first.json()["version"] == 1
    again = client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"0"')
    assert again.status_code == 200, again.json()
    assert again.json() == first.json()
    assert again["ETag"] == '"1"'
    assert Hand.objects.get().version == 1


def test_a_correction_sent_again_from_its_version_answers_200(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    corrected = copy.deepcopy(GOOD_HAND)
    corrected["scores"][0]["points"] = 30
    client.put(hand_url(), corrected, format="json", HTTP_IF_MATCH='"1"')
    again = client.put(hand_url(), corrected, format="json", HTTP_IF_MATCH='"1"')
    assert again.status_code == 200, again.json()
    assert again.json()["version"] == 2
    assert HandScore.objects.get(seat__position=1).card_points == 30


def test_a_different_save_from_a_stale_version_is_still_412(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"0"')
    other = copy.deepcopy(GOOD_HAND)
    other["scores"][0]["points"] = 99
    response = client.put(hand_url(), other, format="json", HTTP_IF_MATCH='"0"')
    assert response.status_code == 412
    assert "version" in response.json()
    assert HandScore.objects.get(seat__position=1).card_points == 23


def test_the_same_content_from_an_older_version_is_still_412(api, alice, playing):
    """Only the version just before the stored one is the same save: from further
    back, someone else saved in between."""
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    corrected = copy.deepcopy(GOOD_HAND)
    corrected["scores"][0]["points"] = 30
    client.put(hand_url(), corrected, format="json", HTTP_IF_MATCH='"1"')
    client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"2"')  # back, version 3
    response = client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
