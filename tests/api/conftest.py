from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.fixtures import codes_of, make_entries, make_event, make_round
from tournaments.models import Event


class Api:
    """An API client that can act as anyone: api.as_(alice).put(...)."""

    def __init__(self):
        self.client = APIClient()

    def as_(self, user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client


@pytest.fixture
def api():
    return Api()


@pytest.fixture
def event(alice):
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    return event


@pytest.fixture
def playing(event):
    """Round 1 published with one table of four."""
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    return event


def hand_url(slug="kingston", round_=1, table=1, hand=1) -> str:
    return f"/api/v1/events/{slug}/rounds/{round_}/tables/{table}/hands/{hand}/"


GOOD_HAND = {
    "went_out": 2,
    "down_and_out": False,
    "scores": [
        {"seat": 1, "points": 23},
        {"seat": 2, "points": 0},
        {"seat": 3, "cards": "JK AS 10H 7D"},
        {"seat": 4, "points": 41},
    ],
    "penalties": [],
}


@pytest.fixture
def players_codes(event):
    """Players enter at alice's event: round 1 published, two tables of four; each
    seated player's code by (table, seat)."""
    Event.objects.filter(pk=event.pk).update(table_entry=Event.TableEntry.PLAYERS)
    round_ = make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return codes_of(round_)


def as_player(api, codes, seat: int, table: int = 1):
    """An API client that sends the code of the player at (table, seat)."""
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE=codes[(table, seat)])
    return client
