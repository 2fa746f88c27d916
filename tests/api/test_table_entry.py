"""Entry at the table through the API (API.md, "Entry at the table"): codes for the
directors, a player's entry, another's confirmation or dispute, and every refusal."""

from __future__ import annotations

import copy

import pytest
from django.core.cache import cache

from scoring.models import Hand, Proposal
from tests.api.conftest import GOOD_HAND, as_player, hand_url
from tests.fixtures import codes_of, make_bob, make_entries, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(event):
    """Players enter at alice's event; round 1 published, two tables of four."""
    Event.objects.filter(pk=event.pk).update(table_entry=Event.TableEntry.PLAYERS)
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return event


@pytest.fixture
def codes(playing):
    return codes_of(playing.rounds.get(number=1))


def proposal_url(hand: int = 1, table: int = 1, action: str = "") -> str:
    return hand_url(table=table, hand=hand) + "proposal/" + (f"{action}/" if action else "")


def test_directors_read_every_players_code(api, alice, codes):
    response = api.as_(alice).get("/api/v1/events/kingston/rounds/1/codes/")
    assert response.status_code == 200
    tables = response.json()["tables"]
    assert [t["number"] for t in tables] == [1, 2]
    first = tables[0]["seats"][0]
    assert set(first) == {"seat", "player", "name", "code"}
    assert first["code"].replace("-", "") == codes[(1, 1)]


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_nobody_else_reads_the_codes(api, codes, who):
    user = make_bob() if who == "bob" else None
    response = api.as_(user).get("/api/v1/events/kingston/rounds/1/codes/")
    assert response.status_code == (403 if user else 401)
    assert codes[(1, 1)] not in response.content.decode()


def test_a_player_enters_a_hand_and_another_confirms_it(api, codes):
    response = as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["state"], body["entered_by"], body["confirmed_by"]) == ("pending", 1, [])
    assert body["hand"]["version"] == 0 and body["hand"]["outcome"] == "scored"
    assert {r["seat"]: r["score"] for r in body["hand"]["results"]} == {1: 23, 2: 0, 3: 82, 4: 41}
    assert not Hand.objects.exists()
    assert api.as_().get(hand_url()).status_code == 404

    confirmed = as_player(api, codes, 3).post(proposal_url(action="confirm"))
    assert confirmed.status_code == 200, confirmed.json()
    body = confirmed.json()
    assert (body["state"], body["entered_by"], body["confirmed_by"]) == ("recorded", 1, [3])
    recorded = api.as_().get(hand_url()).json()
    assert body["hand"] == recorded and recorded["version"] == 1


def test_a_player_reads_the_latest_entry_for_a_hand(api, codes):
    as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    response = as_player(api, codes, 2).get(proposal_url())
    assert response.status_code == 200 and response.json()["state"] == "pending"
    assert as_player(api, codes, 2).get(proposal_url(hand=2)).status_code == 404


def test_a_dispute_records_nothing_and_keeps_the_other_version(api, codes):
    as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    theirs = copy.deepcopy(GOOD_HAND)
    theirs["scores"][0]["points"] = 13
    response = as_player(api, codes, 4).post(proposal_url(action="dispute"), theirs, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["state"], body["disputed_by"]) == ("disputed", 4)
    assert body["alternative"]["results"][0]["card_points"] == 13
    assert not Hand.objects.exists()


def test_a_dispute_needs_no_version(api, codes):
    as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    response = as_player(api, codes, 2).post(proposal_url(action="dispute"))
    assert response.status_code == 200
    assert response.json()["state"] == "disputed" and response.json()["alternative"] is None


# --- every refusal ----------------------------------------------------------------------


def test_a_wrong_code_is_403_and_writes_nothing(api, codes):
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE="AAAA-AAAA")
    response = client.put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 403
    assert "not the code of a player at table 1" in response.json()["code"][0]
    assert not Proposal.objects.exists()


def test_no_code_at_all_is_403(api, codes):
    response = api.as_().put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 403 and "code" in response.json()


def test_another_tables_code_is_403(api, codes):
    response = as_player(api, codes, 1, table=2).put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 403
    assert not Proposal.objects.exists()


def test_the_same_player_confirming_their_own_entry_is_409(api, codes):
    player = as_player(api, codes, 1)
    player.put(proposal_url(), GOOD_HAND, format="json")
    response = player.post(proposal_url(action="confirm"))
    assert response.status_code == 409
    assert "another player at the table confirms it" in response.json()["code"][0]
    assert not Hand.objects.exists()


def test_a_closed_round_is_409(api, alice, codes):
    api.as_(alice).post("/api/v1/events/kingston/rounds/1/close/", {"force": True}, format="json")
    response = as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 409
    assert "closed" in response.json()["round"][0]


def test_a_recorded_hand_is_409(api, alice, codes):
    assert api.as_(alice).put(hand_url(), GOOD_HAND, format="json").status_code == 200
    response = as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 409
    assert "already recorded" in response.json()["hand"][0]
    assert not Proposal.objects.exists()


def test_too_many_wrong_codes_is_429_with_retry_after(api, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 3
    cache.clear()
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE="WRONG-CODE")
    statuses = [client.put(proposal_url(), GOOD_HAND, format="json").status_code for _ in range(4)]
    assert statuses == [403, 403, 403, 429]
    right = as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    assert right.status_code == 429
    assert 0 < int(right["Retry-After"]) <= settings.TABLE_CODE_WINDOW
    assert "Too many wrong codes" in right.json()["code"][0]
    assert not Proposal.objects.exists()


def test_wrong_codes_are_counted_per_client(api, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 2
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE="WRONG-CODE")
    for _ in range(3):
        client.put(proposal_url(), GOOD_HAND, format="json", REMOTE_ADDR="192.0.2.1")
    elsewhere = as_player(api, codes, 1)
    response = elsewhere.put(proposal_url(), GOOD_HAND, format="json", REMOTE_ADDR="192.0.2.2")
    assert response.status_code == 200


def test_wrong_codes_at_one_table_do_not_lock_out_another_from_the_same_address(
    api, codes, settings
):
    """At a venue every phone shares the Wi-Fi's address: typos at table 1 stop table 1
    for a while, not table 2."""
    settings.TABLE_CODE_ATTEMPTS = 2
    cache.clear()
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE="WRONG-CODE")
    statuses = [client.put(proposal_url(), GOOD_HAND, format="json").status_code for _ in range(3)]
    assert statuses == [403, 403, 429]
    other = as_player(api, codes, 1, table=2).put(proposal_url(table=2), GOOD_HAND, format="json")
    assert other.status_code == 200
    assert as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json").status_code == 429


def test_a_bad_hand_is_400_with_the_rules_messages(api, codes):
    bad = copy.deepcopy(GOOD_HAND)
    bad["scores"][0]["points"] = 0
    response = as_player(api, codes, 1).put(proposal_url(), bad, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "scores": ["seat 1: 0 points, but only the player who went out can score 0"]
    }


def test_players_do_not_enter_where_directors_do(api, codes, playing):
    Event.objects.filter(pk=playing.pk).update(table_entry=Event.TableEntry.DIRECTORS)
    response = as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    assert response.status_code == 403
    assert "directors enter the hands" in response.json()["code"][0]


def test_a_directors_put_wins_over_a_waiting_entry(api, alice, codes):
    as_player(api, codes, 1).put(proposal_url(), GOOD_HAND, format="json")
    director = copy.deepcopy(GOOD_HAND)
    director["scores"][0]["points"] = 30
    assert api.as_(alice).put(hand_url(), director, format="json").status_code == 200
    response = as_player(api, codes, 2).post(proposal_url(action="confirm"))
    assert response.status_code == 409
    assert api.as_().get(hand_url()).json()["results"][0]["card_points"] == 30
    assert Proposal.objects.get().state == "overruled"


def test_confirming_nothing_is_404(api, codes):
    assert as_player(api, codes, 2).post(proposal_url(action="confirm")).status_code == 404


def test_an_unknown_table_is_404(api, codes):
    response = as_player(api, codes, 1).put(proposal_url(table=9), GOOD_HAND, format="json")
    assert response.status_code == 404


def test_the_schema_describes_the_endpoints(api):
    schema = api.as_().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    base = "/api/v1/events/{slug}/rounds/{number}/"
    assert "get" in paths[base + "codes/"]
    proposal = base + "tables/{table}/hands/{hand}/proposal/"
    assert {"get", "put"} <= set(paths[proposal])
    assert "post" in paths[proposal + "confirm/"] and "post" in paths[proposal + "dispute/"]
    header = [p for p in paths[proposal]["put"]["parameters"] if p["in"] == "header"]
    assert header[0]["name"] == "X-Player-Code" and header[0]["required"] is True
    assert "table_entry" in schema["components"]["schemas"]["Event"]["properties"]


def test_the_event_setting_chooses_who_enters(api, alice, event):
    client = api.as_(alice)
    assert client.get("/api/v1/events/kingston/").json()["table_entry"] == "directors"
    response = client.patch("/api/v1/events/kingston/", {"table_entry": "players"}, format="json")
    assert response.status_code == 200 and response.json()["table_entry"] == "players"
    bad = client.patch("/api/v1/events/kingston/", {"table_entry": "everyone"}, format="json")
    assert bad.status_code == 400 and "table_entry" in bad.json()


def test_a_client_cannot_escape_the_limit_by_naming_another_address(api, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 2
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE="WRONG-CODE")
    statuses = [
        client.put(
            proposal_url(), GOOD_HAND, format="json", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}"
        ).status_code
        for i in range(3)
    ]
    assert statuses == [403, 403, 429]
