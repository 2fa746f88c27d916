"""Other clients' wrong codes and wrong tokens from the same address never block a
client that has the right one: a player's code once answered is kept in a signed
cookie that lifts the wrong-code limit for it; a right token is always let in."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from api.guards import AuthFailureThrottle
from scoring.models import Hand
from tests.api.conftest import GOOD_HAND, as_player, hand_url

pytestmark = pytest.mark.django_db

PROPOSAL = hand_url() + "proposal/"


@pytest.fixture
def codes(players_codes):
    return players_codes


def block_the_address(api, settings) -> None:
    settings.TABLE_CODE_ATTEMPTS = 3
    guesser = api.as_()
    guesser.credentials(HTTP_X_PLAYER_CODE="AAAA-AAAA")
    statuses = [guesser.get(PROPOSAL).status_code for _ in range(4)]
    assert statuses == [403, 403, 403, 429]


def test_a_player_the_api_answered_keeps_working_while_a_guesser_is_blocked(api, codes, settings):
    entering, confirming = as_player(api, codes, 1), as_player(api, codes, 3)
    assert entering.put(PROPOSAL, GOOD_HAND, format="json").status_code == 200
    assert confirming.get(PROPOSAL).status_code == 200
    assert "kalooki_player_pass" in confirming.cookies
    block_the_address(api, settings)

    assert entering.put(PROPOSAL, GOOD_HAND, format="json").status_code == 200
    confirmed = confirming.post(PROPOSAL + "confirm/", {"version": 1}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    assert Hand.objects.filter(number=1).exists()


def test_a_client_without_the_pass_stays_throttled(api, codes, settings):
    block_the_address(api, settings)
    assert as_player(api, codes, 2).get(PROPOSAL).status_code == 429
    # the pass of one code lifts the limit for that code only
    holder = as_player(api, codes, 1)
    settings.TABLE_CODE_ATTEMPTS = 100
    assert holder.get(PROPOSAL).status_code == 404  # right code, nothing entered yet
    settings.TABLE_CODE_ATTEMPTS = 3
    holder.credentials(HTTP_X_PLAYER_CODE=codes[(1, 2)])
    assert holder.get(PROPOSAL).status_code == 429


def test_wrong_tokens_from_an_address_never_block_a_right_token(api, alice, monkeypatch):
    monkeypatch.setattr(AuthFailureThrottle, "rate", "3/minute", raising=False)
    guesser = api.as_()
    guesser.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    statuses = [guesser.get("/api/v1/events/").status_code for _ in range(5)]
    assert statuses[:3] == [401, 401, 401] and statuses[3:] == [429, 429]
    right = api.as_()
    right.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    assert right.get("/api/v1/events/").status_code == 200
    assert guesser.get("/api/v1/events/").status_code == 429
