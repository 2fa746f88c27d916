"""Players are visible only through events the reader may see:
the API's player list and search, and the CSV import preview."""

from __future__ import annotations

import pytest

from core import importing
from tests.fixtures import make_entries, make_event
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_player():
    event = make_event(slug="secret", public=False)
    entry = make_entries(event, 1)[0]
    Player.objects.filter(pk=entry.player_id).update(name="Hidden Hortense", club="Quiet Club")
    return Player.objects.get(pk=entry.player_id)


@pytest.fixture
def public_player():
    entry = make_entries(make_event(slug="open"), 1)[0]
    Player.objects.filter(pk=entry.player_id).update(name="Open Olive")
    return Player.objects.get(pk=entry.player_id)


def names(response) -> list[str]:
    assert response.status_code == 200
    return [p["name"] for p in response.json()["results"]]


def test_anonymous_search_never_finds_a_player_of_private_events_only(
    api, private_player, public_player
):
    assert names(api.as_().get("/api/v1/players/?search=Hidden")) == []
    assert names(api.as_().get("/api/v1/players/?search=Quiet")) == []
    assert names(api.as_().get("/api/v1/players/")) == ["Open Olive"]


def test_another_director_does_not_see_them_but_the_events_own_director_does(
    api, alice, bob, private_player
):
    assert names(api.as_(bob).get("/api/v1/players/?search=Hidden")) == []
    private_player.entries.get().event.directors.add(alice)
    assert names(api.as_(alice).get("/api/v1/players/?search=Hidden")) == ["Hidden Hortense"]


def test_a_director_sees_players_entered_nowhere_yet_and_can_enter_them(api, bob):
    created = api.as_(bob).post("/api/v1/players/", {"name": "New Nadia"}, format="json").json()
    assert names(api.as_(bob).get("/api/v1/players/?search=Nadia")) == ["New Nadia"]
    assert names(api.as_().get("/api/v1/players/?search=Nadia")) == []
    entered = api.as_(bob).post(
        "/api/v1/events/bobs-event/entries/", {"player": created["id"]}, format="json"
    )
    assert entered.status_code == 201


def test_a_director_cannot_enter_a_player_they_cannot_see(api, bob, private_player):
    response = api.as_(bob).post(
        "/api/v1/events/bobs-event/entries/", {"player": private_player.pk}, format="json"
    )
    assert response.status_code == 400
    assert "Hidden" not in response.content.decode()


def test_the_import_preview_offers_only_players_the_director_may_see(bob, private_player):
    event = bob.directed_events.get()
    data = b"name\nHidden Hortense\n"
    preview = importing.preview_import(event=event, data=data, viewer=bob)
    assert preview.rows[0].candidates == []
    assert preview.rows[0].suggested == importing.NEW
    # An operator at the command line sees the whole registry.
    assert importing.preview_import(event=event, data=data).rows[0].candidates
