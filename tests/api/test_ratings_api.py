"""GET /api/v1/ratings/ and GET /api/v1/players/{id}/ (API.md, "Ratings")."""

from __future__ import annotations

import pytest

from core import services
from game.ratings import MIN_SETS
from tests.core.ratings_world import closed_round, players
from tests.fixtures import kept_for_the_module, make_event

pytestmark = pytest.mark.django_db


def rate() -> list:
    """Two public events and a private one, their rounds closed and rated."""
    cast = players(8)
    a = make_event(slug="a", name="Event A")
    closed_round(a, [cast[0:4], cast[4:8]])
    closed_round(a, [cast[0:4], cast[4:8]], number=2)
    hidden = make_event(slug="hidden", name="Hidden Cup", public=False)
    closed_round(hidden, [cast[4:8]])
    services.refresh_ratings()
    return cast


@pytest.fixture(scope="module")
def rated(django_db_setup, django_db_blocker):
    """The players of `rate`, made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, rate)


def test_the_ratings_are_ordered_by_rating_with_the_contracts_fields(api, rated):
    body = api.as_().get("/api/v1/ratings/").json()
    assert body["version"] >= 1
    rows = body["ratings"]
    assert len(rows) == 8
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    first = rows[0]
    assert set(first) >= {"rank", "player", "rating", "mu", "sigma", "sets"}
    assert first["rating"] == pytest.approx(first["mu"] - 3 * first["sigma"])
    assert first["sets"] == 2  # the private event's set is not rated
    assert {rows[0]["player"]["id"], rows[1]["player"]["id"]} == {rated[0].pk, rated[4].pk}


def test_by_default_every_rated_player_is_listed_and_a_minimum_narrows_it(api, rated):
    assert len(api.as_().get("/api/v1/ratings/").json()["ratings"]) == 8
    assert api.as_().get(f"/api/v1/ratings/?min_sets={MIN_SETS}").json()["ratings"] == []


def test_a_bad_minimum_is_a_400_naming_the_field(api, rated):
    response = api.as_().get("/api/v1/ratings/?min_sets=lots")
    assert response.status_code == 400
    assert "min_sets" in response.json()


def test_a_players_document_carries_their_rating_and_events(api, rated):
    body = api.as_().get(f"/api/v1/players/{rated[0].pk}/").json()
    assert body["rating"] == pytest.approx(body["mu"] - 3 * body["sigma"])
    assert body["sets"] == 2
    assert body["events"] == [
        {
            "event": "a",
            "name": "Event A",
            "place": body["events"][0]["place"],
            "points": body["events"][0]["points"],
            "sets": 2,
            "hands_won": 18,
            "final": False,
        }
    ]
    assert len(body["rating_history"]) == 2


def test_anonymous_readers_see_a_player_only_through_public_events(api, rated, alice):
    body = api.as_().get(f"/api/v1/players/{rated[4].pk}/").json()
    assert [e["event"] for e in body["events"]] == ["a"]
    assert "Hidden" not in str(body)
    # A player of the private event only does not exist for the public...
    loner = players(4)
    closed_round(make_event(slug="secret", public=False), [loner])
    services.refresh_ratings()
    assert api.as_().get(f"/api/v1/players/{loner[0].pk}/").status_code == 404
    # ...but does for its director.
    from tournaments.models import Event

    Event.objects.get(slug="secret").directors.add(alice)
    seen = api.as_(alice).get(f"/api/v1/players/{loner[0].pk}/").json()
    assert [e["event"] for e in seen["events"]] == ["secret"]
    assert seen["rating"] is None  # private events are never rated


def test_an_unknown_player_is_a_404(api):
    assert api.as_().get("/api/v1/players/999999/").status_code == 404


def test_a_player_id_too_large_for_the_database_is_a_404(api):
    assert api.as_().get("/api/v1/players/99999999999999999999999/").status_code == 404
