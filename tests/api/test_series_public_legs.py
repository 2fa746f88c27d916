"""A public series' legs and final are public events, through the API: every write that
would put a private event behind a public series is a 400 naming the field, with
nothing written; and anonymous readers never see a private event through a series (its
page, its legs and standings in the API, a player's page)."""

from __future__ import annotations

import pytest
from django.test import Client

from core import services
from tests.core.test_series import leg
from tests.fixtures import make_event
from tournaments.models import Event, Player, Series

pytestmark = pytest.mark.django_db(transaction=True)
HIDDEN = ("Hidden Cup", "hidden-cup", "Secret Room")  # the private event's name, slug, venue


@pytest.fixture
def cast(db):
    return [Player.objects.create(name=name) for name in ("Ann", "Ben", "Cy", "Di", "Zed Quill")]


@pytest.fixture
def series(alice, cast):
    """Alice's public series with one finished public leg (Ann, Ben, Cy, Di), and a
    finished private event she directs, where Ann, Ben, Cy and Zed played (Zed only
    there)."""
    series = services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 4, 3],
              "qualifiers": 2},
        by=alice,
    )  # fmt: skip
    public_leg = leg(series, cast[:4], day=1, name="Kingston Leg", venue="Kingston")
    hidden = leg(
        None, [cast[4], cast[0], cast[1], cast[2]], day=2, name=HIDDEN[0], venue=HIDDEN[2],
        public=False,
    )  # fmt: skip
    Event.objects.filter(pk=hidden.pk).update(slug=HIDDEN[1])
    for event in (public_leg, hidden):
        event.directors.add(alice)
    return series


def unchanged(series: Series, **expected) -> None:
    stored = Series.objects.get(pk=series.pk)
    hidden = Event.objects.get(slug=HIDDEN[1])
    assert hidden.series_id is None and not hidden.public
    assert stored.final_id is None
    for field, value in expected.items():
        assert getattr(stored, field) == value


def test_adding_a_private_event_as_a_leg_is_a_400_naming_the_event(api, alice, series):
    response = api.as_(alice).post(
        "/api/v1/series/circuit/events/", {"event": HIDDEN[1]}, format="json"
    )
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["event"]
    assert "private event" in response.json()["event"][0]
    unchanged(series, public=True)


def test_making_a_private_event_the_final_is_a_400_naming_the_event(api, alice, series):
    final = make_event(slug="final", name="Final", public=False, status=Event.Status.REGISTRATION)
    final.directors.add(alice)
    response = api.as_(alice).post(
        "/api/v1/series/circuit/final/", {"event": "final"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["event"]
    unchanged(series)
    assert not final.entries.exists()


def test_making_the_series_public_with_a_private_leg_is_a_400_naming_public(
    api, alice, root, series
):
    services.update_series(series=series, data={"public": False})
    services.add_leg(series=series, event=Event.objects.get(slug=HIDDEN[1]))
    response = api.as_(alice).patch(
        "/api/v1/series/circuit/", {"public": True, "qualifiers": 4}, format="json"
    )
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["public"]
    assert HIDDEN[0] in response.json()["public"][0]
    stored = Series.objects.get(pk=series.pk)
    assert not stored.public and stored.qualifiers == 2


def test_making_a_leg_of_the_public_series_private_is_a_400_naming_public(api, alice, series):
    response = api.as_(alice).patch(
        "/api/v1/events/leg-1/", {"public": False, "venue": "Elsewhere"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["public"]
    leg_1 = Event.objects.get(slug="leg-1")
    assert leg_1.public and leg_1.venue == "Kingston"


def test_making_the_final_of_the_public_series_private_is_a_400(api, alice, series):
    final = make_event(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(alice)
    made = api.as_(alice).post("/api/v1/series/circuit/final/", {"event": "final"}, format="json")
    assert made.status_code == 200, made.content
    response = api.as_(alice).patch("/api/v1/events/final/", {"public": False}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["public"]
    assert Event.objects.get(slug="final").public


def assert_nothing_hidden(text: str) -> None:
    for word in (*HIDDEN, "Zed Quill"):
        assert word not in text, word


def test_anonymous_readers_never_see_a_private_event_through_a_series(api, alice, series, cast):
    client = api.as_(alice)
    # Every way of bringing the private event in is refused...
    for path, body in (
        ("/api/v1/series/circuit/events/", {"event": HIDDEN[1]}),
        ("/api/v1/series/circuit/final/", {"event": HIDDEN[1]}),
    ):
        assert client.post(path, body, format="json").status_code in (400, 409)  # 409: started
    body = {"final": HIDDEN[1]}
    assert client.patch("/api/v1/series/circuit/", body, format="json").status_code == 400
    # ... so what anyone reads of the series shows only its public leg.
    anonymous = api.as_()
    page = Client().get("/series/circuit/").content.decode()
    assert "Kingston Leg" in page
    assert_nothing_hidden(page)
    legs = anonymous.get("/api/v1/series/circuit/events/").json()
    assert [x["event"] for x in legs] == ["leg-1"]
    standings = anonymous.get("/api/v1/series/circuit/standings/")
    assert_nothing_hidden(standings.content.decode())
    assert {r["player"]["name"] for r in standings.json()["standings"]} == {
        "Ann", "Ben", "Cy", "Di"
    }  # fmt: skip
    assert_nothing_hidden(anonymous.get("/api/v1/series/circuit/").content.decode())
    assert_nothing_hidden(anonymous.get("/api/v1/series/").content.decode())
    ann = Client().get(f"/players/{cast[0].pk}/").content.decode()
    assert "Series: <a" in ann and "Kingston Leg: place 1" in ann
    assert_nothing_hidden(ann)
    # Zed played only in the private event: she does not exist for the public.
    assert Client().get(f"/players/{cast[4].pk}/").status_code == 404
    assert anonymous.get(f"/api/v1/players/{cast[4].pk}/").status_code == 404


def test_a_private_series_of_private_legs_is_hidden_from_anonymous_readers(
    api, alice, series, cast
):
    services.update_series(series=series, data={"public": False})
    services.add_leg(series=series, event=Event.objects.get(slug=HIDDEN[1]))
    services.refresh_series_standings(series=series)
    assert Client().get("/series/circuit/").status_code == 404
    for path in ("", "events/", "standings/"):
        assert api.as_().get(f"/api/v1/series/circuit/{path}").status_code == 404
    assert_nothing_hidden(api.as_().get("/api/v1/series/").content.decode())
    ann = Client().get(f"/players/{cast[0].pk}/").content.decode()
    assert "Series:" not in ann
    assert_nothing_hidden(ann)
    # Its organiser sees it all, the private leg named on a player's page.
    assert api.as_(alice).get("/api/v1/series/circuit/events/").status_code == 200
    page = Client()
    page.force_login(alice)
    assert f"{HIDDEN[0]}: place" in page.get(f"/players/{cast[0].pk}/").content.decode()
