from __future__ import annotations

import pytest

from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Entry, Player, Round

pytestmark = pytest.mark.django_db


def test_repeat_pairs_are_given_as_player_ids(api, root):
    event = make_event(slug="pairs")
    # Entry ids far from their players' ids, so the answer shows which one it gives
    # (the databases' own sequences may make them equal by chance).
    players = [Player.objects.create(name=f"Pair {i}") for i in range(1, 5)]
    entries = [
        Entry.objects.create(pk=p.pk + 1_000_000, event=event, player=p, seed_number=i)
        for i, p in enumerate(players, start=1)
    ]
    round_ = make_round(event, table_sizes=(4,), entries=entries, status=Round.Status.DRAFT)
    a, b = entries[0], entries[1]
    round_.quality = {"repeat_meetings": 1, "repeat_pairs": [[a.pk, b.pk]], "lower_bound": 0}
    round_.save()
    body = api.as_(root).get("/api/v1/events/pairs/rounds/1/").json()
    assert body["quality"]["repeat_pairs"] == [sorted([a.player_id, b.player_id])]
    assert body["quality"]["repeat_meetings"] == 1
    seats = body["tables"][0]["seats"]
    assert [s["player"] for s in seats] == [e.player_id for e in entries]
    assert Entry.objects.filter(event=event).count() == 4


def test_starting_a_round_answers_202_and_seating_follows(api, alice, event):
    make_entries(event, 8)
    client = api.as_(alice)
    response = client.post("/api/v1/events/kingston/rounds/", {"policy": "mixer"}, format="json")
    assert response.status_code == 202
    assert response.json() == {"number": 1, "status": "seating"}
    again = client.post("/api/v1/events/kingston/rounds/", {}, format="json")
    assert again.status_code == 409  # round 1 is not closed
    bad = client.post("/api/v1/events/kingston/rounds/", {"policy": "alphabetical"}, format="json")
    assert bad.status_code == 400 and "policy" in bad.json()


def test_publishing_twice_is_409(api, alice, event):
    make_round(event, table_sizes=(4,), status=Round.Status.DRAFT)
    client = api.as_(alice)
    assert client.post("/api/v1/events/kingston/rounds/1/publish/").status_code == 200
    second = client.post("/api/v1/events/kingston/rounds/1/publish/")
    assert second.status_code == 409
    assert "already published" in second.json()["round"][0]


def test_closing_with_hands_missing_needs_force(api, alice, event):
    make_round(event, table_sizes=(4,))
    client = api.as_(alice)
    refused = client.post("/api/v1/events/kingston/rounds/1/close/", {}, format="json")
    assert refused.status_code == 409 and "0 of 9 hands" in refused.json()["force"][0]
    forced = client.post("/api/v1/events/kingston/rounds/1/close/", {"force": True}, format="json")
    assert forced.status_code == 200
    assert forced.json()["status"] == "closed" and forced.json()["forced_close"] is True


def test_swap_and_move_through_the_api(api, alice, event):
    entries = make_entries(event, 9)
    make_round(event, table_sizes=(5, 4), entries=entries, status=Round.Status.DRAFT)
    client = api.as_(alice)
    first, second = entries[0].player_id, entries[5].player_id
    swapped = client.post(
        "/api/v1/events/kingston/rounds/1/swap/", {"first": first, "second": second}, format="json"
    )
    assert swapped.status_code == 200
    tables = {t["number"]: [s["player"] for s in t["seats"]] for t in swapped.json()["tables"]}
    assert tables[1][0] == second and tables[2][0] == first
    moved = client.post(
        "/api/v1/events/kingston/rounds/1/move/", {"player": first, "table": 1}, format="json"
    )
    assert moved.status_code == 200
    sizes = sorted(len(t["seats"]) for t in moved.json()["tables"])
    assert sizes == [3, 6]  # the player left the table of four for the table of five
    unknown = client.post(
        "/api/v1/events/kingston/rounds/1/swap/", {"first": first, "second": 999999}, format="json"
    )
    assert unknown.status_code == 400 and "second" in unknown.json()


def test_entries_register_and_withdraw(api, alice, event):
    from tournaments.models import Player

    player = Player.objects.create(name="Keisha Palmer")
    client = api.as_(alice)
    created = client.post("/api/v1/events/kingston/entries/", {"player": player.pk}, format="json")
    assert created.status_code == 201 and created.json()["status"] == "active"
    twice = client.post("/api/v1/events/kingston/entries/", {"player": player.pk}, format="json")
    assert twice.status_code == 400 and "already entered" in twice.json()["player"][0]
    entry_id = created.json()["id"]
    withdrawn = client.patch(
        f"/api/v1/events/kingston/entries/{entry_id}/", {"status": "withdrawn"}, format="json"
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    listed = client.get("/api/v1/events/kingston/entries/?status=withdrawn").json()
    assert [e["id"] for e in listed["results"]] == [entry_id]
    missing = client.patch(
        "/api/v1/events/kingston/entries/999999/", {"status": "withdrawn"}, format="json"
    )
    assert missing.status_code == 404


def test_event_settings_are_validated_by_field(api, alice, event):
    client = api.as_(alice)
    bad = client.patch(
        "/api/v1/events/kingston/", {"director_penalty": 20, "ruleset": "poker"}, format="json"
    )
    assert bad.status_code == 400
    assert set(bad.json()) == {"director_penalty", "ruleset"}
    good = client.patch("/api/v1/events/kingston/", {"director_penalty": 250}, format="json")
    assert good.status_code == 200 and good.json()["director_penalty"] == 250
    assert client.put("/api/v1/events/kingston/", {}, format="json").status_code == 405


def test_events_can_be_filtered_by_status(api):
    make_event(slug="on", status="running")
    make_event(slug="done", status="finished")
    running = api.as_().get("/api/v1/events/?status=running").json()
    assert [e["slug"] for e in running["results"]] == ["on"]
    assert api.as_().get("/api/v1/events/?limit=1").json()["count"] == 2
