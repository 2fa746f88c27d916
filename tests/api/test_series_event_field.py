"""An event's document names its series (`series`) only to a reader who may see that
series: a private series' slug never reaches the public through its legs, and the
events list reads the names in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import services
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_leg(alice):
    series = services.create_series(
        data={"slug": "psec", "name": "Private circuit", "public": False}, by=alice
    )
    event = make_event(slug="open-leg", name="Open Leg")  # a public event
    event.directors.add(alice)
    services.add_leg(series=series, event=event)
    return event


def listed(client) -> dict[str, str | None]:
    return {e["slug"]: e["series"] for e in client.get("/api/v1/events/").json()["results"]}


def test_a_private_series_is_not_named_to_who_may_not_see_it(api, private_leg, bob):
    for reader in (None, bob):
        client = api.as_(reader)
        assert client.get("/api/v1/series/psec/").status_code == 404
        assert client.get("/api/v1/events/open-leg/").json()["series"] is None
        assert listed(client)["open-leg"] is None


def test_its_organisers_and_a_superuser_see_it_named(api, private_leg, alice, root):
    for reader in (alice, root):
        client = api.as_(reader)
        assert client.get("/api/v1/events/open-leg/").json()["series"] == "psec"
        assert listed(client)["open-leg"] == "psec"


def test_a_public_series_is_named_to_anyone(api, root):
    series = services.create_series(data={"slug": "open", "name": "Open circuit"}, by=root)
    services.add_leg(series=series, event=make_event(slug="a-leg"))
    assert api.as_().get("/api/v1/events/a-leg/").json()["series"] == "open"
    assert listed(api.as_())["a-leg"] == "open"


def list_queries(client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/v1/events/").status_code == 200
    return len(captured)


def test_the_events_list_names_their_series_in_a_fixed_number_of_queries(api, root, alice):
    public = services.create_series(data={"slug": "open", "name": "Open"}, by=root)
    private = services.create_series(data={"slug": "psec", "name": "P", "public": False}, by=root)
    for i in range(2):
        services.add_leg(series=public if i % 2 else private, event=make_event(slug=f"e{i}"))
    few = {reader: list_queries(api.as_(reader)) for reader in (None, alice)}
    for i in range(2, 12):
        services.add_leg(series=public if i % 2 else private, event=make_event(slug=f"e{i}"))
    for reader in (None, alice):
        assert list_queries(api.as_(reader)) == few[reader]
