"""An event made private stops answering anonymous standings reads at once, in every
process: each process's copy of the event is checked against the announced (version,
public) pair, and the visibility change announces a new one."""

from __future__ import annotations

import pytest

from api import standings as standings_api
from core import services
from tests.fixtures import make_entries, make_round

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/events/kingston/standings/"


@pytest.fixture
def ranked(event):
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    services.refresh_standings(event=event)
    return event


def test_a_process_holding_a_copy_stops_serving_it_once_the_event_is_private(api, alice, ranked):
    assert api.as_().get(URL).status_code == 200
    assert api.as_().get(URL).status_code == 200  # now from this process's copy
    kept = standings_api.EVENTS.get("kingston")
    assert kept is not None and kept.public

    # Another process changes the visibility; this one still holds its copy.
    services.update_event(event=ranked, data={"public": False}, by=alice)
    standings_api.EVENTS.put("kingston", kept)

    assert standings_api.public_copy("kingston") is None
    assert api.as_().get(URL).status_code == 404


def test_the_api_patch_hides_the_standings_from_the_next_anonymous_read(api, alice, ranked):
    assert api.as_().get(URL).status_code == 200
    response = api.as_(alice).patch("/api/v1/events/kingston/", {"public": False}, format="json")
    assert response.status_code == 200
    assert api.as_().get(URL).status_code == 404
    assert api.as_(alice).get(URL).status_code == 200


def test_an_event_made_public_again_is_served_again(api, alice, ranked):
    services.update_event(event=ranked, data={"public": False}, by=alice)
    assert api.as_().get(URL).status_code == 404
    services.update_event(event=ranked, data={"public": True}, by=alice)
    assert api.as_().get(URL).status_code == 200
