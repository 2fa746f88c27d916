"""`POST /api/v1/series/{slug}/final/` with the optional `seed_by`: "series" (the
default, as the contract has always said) or "rating"; anything else a 400 naming
the field, with nothing written."""

from __future__ import annotations

import pytest

from tests.core.test_series_final_seeding import (
    expected_rating_order,
    make_circuit,
    series_order,
)
from tournaments.models import Entry, Event, Series

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/series/circuit/final/"


@pytest.fixture
def circuit(root):
    """Built for each test: the tests sign in as its director, `root`."""
    return make_circuit(root)


@pytest.fixture
def final(circuit):
    return Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)


def test_the_final_seeded_by_rating_through_the_api(api, root, circuit, final):
    series, _ = circuit
    client = api.as_(root)
    response = client.post(URL, {"event": "final", "seed_by": "rating"}, format="json")
    assert response.status_code == 200, response.json()
    expected = expected_rating_order(series_order(series))
    assert response.json() == {"event": "final", "entries": expected, "seed_by": "rating"}
    assert expected != series_order(series)
    entries = client.get("/api/v1/events/final/entries/").json()["results"]
    assert sorted((e["seed_number"], e["player"]) for e in entries) == list(
        enumerate(expected, start=1)
    )
    # The same call without seed_by: the contract's seeding by series rank.
    again = client.post(URL, {"event": "final"}, format="json")
    assert again.status_code == 200
    assert again.json()["entries"] == series_order(series)
    assert again.json()["seed_by"] == "series"


def test_a_bad_seed_by_is_a_400_naming_the_field(api, root, circuit, final):
    client = api.as_(root)
    for bad in ("elo", "", None, 3, ["rating"], {"by": "rating"}):
        response = client.post(URL, {"event": "final", "seed_by": bad}, format="json")
        assert response.status_code == 400, (bad, response.content)
        assert list(response.json()) == ["seed_by"], response.json()
    assert not Entry.objects.filter(event=final).exists()
    assert Series.objects.get(slug="circuit").final_id is None
