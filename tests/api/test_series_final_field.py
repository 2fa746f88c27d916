"""`final` in the body of `POST` and `PATCH /api/v1/series/` (API.md, "Series"): an
event's slug, null clears it. Refused with a 400 naming `final`, nothing written: no
such event (or one the writer may not see), an event the writer does not direct (a
superuser directs them all), a leg of this series, the final of another series, a
private event for a public series."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from core import services
from tests.fixtures import make_event
from tournaments.models import Event, Series

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/series/circuit/"


@pytest.fixture
def series(alice):
    return services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=alice)


@pytest.fixture
def final(alice):
    event = make_event(slug="grand-final", name="Grand Final", status=Event.Status.REGISTRATION)
    event.directors.add(alice)
    return event


def patch(api, user, body):
    return api.as_(user).patch(URL, body, format="json")


def refused(response, series: Series, final_id: int | None = None) -> str:
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["final"], response.json()
    assert Series.objects.get(pk=series.pk).final_id == final_id
    return response.json()["final"][0]


def test_the_final_is_set_by_its_slug_and_cleared_by_null(api, alice, series, final):
    response = patch(api, alice, {"final": "grand-final"})
    assert response.status_code == 200, response.content
    assert response.json()["final"] == "grand-final"
    assert Series.objects.get(pk=series.pk).final_id == final.pk
    assert api.as_().get(URL).json()["final"] == "grand-final"
    assert "The grand final of" in Client().get("/events/grand-final/").content.decode()
    cleared = patch(api, alice, {"final": None})
    assert cleared.status_code == 200 and cleared.json()["final"] is None
    assert Series.objects.get(pk=series.pk).final_id is None
    assert "The grand final of" not in Client().get("/events/grand-final/").content.decode()


def test_a_series_is_created_with_its_final(api, root, final):
    body = {"slug": "tour", "name": "Tour", "final": "grand-final"}
    response = api.as_(root).post("/api/v1/series/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["final"] == "grand-final"
    assert Series.objects.get(slug="tour").final_id == final.pk


def test_creating_a_series_with_a_final_not_directed_is_refused(api, bob, final):
    bob.user_permissions.add(Permission.objects.get(codename="add_event"))
    body = {"slug": "tour", "name": "Tour", "final": "grand-final"}
    response = api.as_(bob).post("/api/v1/series/", body, format="json")
    assert response.status_code == 400 and list(response.json()) == ["final"]
    assert not Series.objects.filter(slug="tour").exists()


def test_no_such_event_or_one_the_writer_may_not_see(api, alice, series):
    assert refused(patch(api, alice, {"final": "nowhere"}), series) == "No such event."
    make_event(slug="someone-elses", name="Hidden", public=False)
    assert refused(patch(api, alice, {"final": "someone-elses"}), series) == "No such event."


def test_not_a_slug_is_refused(api, alice, series):
    for bad in (3, ["grand-final"], {"slug": "grand-final"}, "not a slug", ""):
        response = patch(api, alice, {"final": bad})
        assert response.status_code == 400, (bad, response.content)
        assert list(response.json()) == ["final"]


def test_an_event_the_writer_does_not_direct_is_refused(api, alice, bob, series):
    make_event(slug="bobs-final", name="Bob's Final")  # public: alice sees it
    message = refused(patch(api, alice, {"final": "bobs-final"}), series)
    assert "Only a director of Bob's Final" in message


def test_a_superuser_directs_every_event(api, root, series):
    event = make_event(slug="any-final", name="Any Final")
    assert patch(api, root, {"final": "any-final"}).status_code == 200
    assert Series.objects.get(pk=series.pk).final_id == event.pk


def test_a_leg_of_this_series_is_not_its_final(api, alice, series, final):
    services.add_leg(series=series, event=final)
    message = refused(patch(api, alice, {"final": "grand-final"}), series)
    assert "is a leg of this series" in message


def test_the_final_of_another_series_is_not_this_ones(api, alice, series, final):
    other = services.create_series(data={"slug": "other", "name": "Other"}, by=alice)
    services.update_series(series=other, data={"final": "grand-final"}, by=alice)
    message = refused(patch(api, alice, {"final": "grand-final"}), series)
    assert "already the final of Other" in message
    assert Series.objects.get(pk=other.pk).final_id == final.pk


def test_a_public_series_final_is_a_public_event(api, alice, series, final):
    Event.objects.filter(pk=final.pk).update(public=False)
    message = refused(patch(api, alice, {"final": "grand-final"}), series)
    assert "Grand Final is a private event" in message
    # Made private in the same request, the series may have a private final.
    both = patch(api, alice, {"final": "grand-final", "public": False})
    assert both.status_code == 200, both.content
    # And made public again with it, refused: no change at all.
    again = patch(api, alice, {"final": "grand-final", "public": True, "qualifiers": 3})
    assert again.status_code == 400 and list(again.json()) == ["public"]
    stored = Series.objects.get(pk=series.pk)
    assert not stored.public and stored.qualifiers == 16 and stored.final_id == final.pk
    # A private final for a private series being made public in the same request.
    cleared = patch(api, alice, {"final": None})
    assert cleared.status_code == 200
    refused(patch(api, alice, {"final": "grand-final", "public": True}), series)
    assert not Series.objects.get(pk=series.pk).public


def test_the_same_final_again_is_no_change(api, alice, root, series, final):
    services.update_series(series=series, data={"final": "grand-final"}, by=root)
    final.directors.remove(alice)  # alice no longer directs it, but changes nothing
    response = patch(api, alice, {"final": "grand-final", "qualifiers": 4})
    assert response.status_code == 200, response.content
    assert Series.objects.get(pk=series.pk).qualifiers == 4
