"""The players' entry API at a private event: their codes open their table's proposal
endpoints, and nothing else of the event becomes public."""

from __future__ import annotations

import pytest

from scoring.models import Hand, Proposal
from tests.api.conftest import GOOD_HAND, as_player
from tests.fixtures import codes_of, make_entries, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db

TABLE = "/api/v1/events/kingston/rounds/1/tables/1/"
PROPOSAL = TABLE + "hands/1/proposal/"


@pytest.fixture
def codes(event):
    Event.objects.filter(pk=event.pk).update(table_entry=Event.TableEntry.PLAYERS, public=False)
    round_ = make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return codes_of(round_)


def test_players_enter_and_confirm_at_a_private_event(api, codes):
    entered = as_player(api, codes, 1).put(PROPOSAL, GOOD_HAND, format="json")
    assert entered.status_code == 200, entered.json()
    assert entered.json()["state"] == "pending"
    assert as_player(api, codes, 2).get(PROPOSAL).json()["entered_by"] == 1
    confirmed = as_player(api, codes, 3).post(PROPOSAL + "confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["state"] == "recorded"
    assert Hand.objects.filter(number=1, outcome="scored").count() == 1


def test_a_dispute_works_at_a_private_event(api, codes):
    as_player(api, codes, 1).put(PROPOSAL, GOOD_HAND, format="json")
    disputed = as_player(api, codes, 4).post(PROPOSAL + "dispute/")
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"


def test_without_a_right_code_a_private_event_is_not_there(api, codes):
    assert api.as_().get(PROPOSAL).status_code == 404
    assert api.as_().put(PROPOSAL, GOOD_HAND, format="json").status_code == 404
    wrong = api.as_()
    wrong.credentials(HTTP_X_PLAYER_CODE="AAAA-AAAA")
    at_private = wrong.put(PROPOSAL, GOOD_HAND, format="json")
    nowhere = wrong.put(PROPOSAL.replace("kingston", "nowhere"), GOOD_HAND, format="json")
    assert at_private.status_code == nowhere.status_code == 403
    assert at_private.json() == nowhere.json()
    elsewhere = as_player(api, codes, 1).put(
        PROPOSAL.replace("tables/1", "tables/2"), GOOD_HAND, format="json"
    )
    assert elsewhere.status_code == 403
    assert not Proposal.objects.exists()


def test_a_code_opens_nothing_else_of_a_private_event(api, codes):
    client = as_player(api, codes, 1)
    for url in (
        "/api/v1/events/kingston/",
        "/api/v1/events/kingston/standings/",
        "/api/v1/events/kingston/rounds/1/",
        TABLE,
        TABLE + "hands/1/",
        "/api/v1/events/kingston/rounds/1/codes/",
    ):
        assert client.get(url).status_code in (401, 404), url
    assert "kingston" not in api.as_().get("/api/v1/events/").content.decode()
