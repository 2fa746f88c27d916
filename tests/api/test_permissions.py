"""Who may write what: anonymous, another event's director, this event's director, a
superuser, over every write endpoint."""

from __future__ import annotations

import pytest

from tests.api.conftest import GOOD_HAND, hand_url
from tests.fixtures import make_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db

base = "/api/v1/events/kingston/"
WRITES = [
    ("patch", base, {"venue": "Mandeville"}),
    ("post", base + "entries/", {"player": None}),
    ("patch", base + "entries/{entry}/", {"status": "withdrawn"}),
    ("post", base + "rounds/", {}),
    ("post", base + "rounds/1/publish/", {}),
    ("post", base + "rounds/1/close/", {"force": True}),
    ("post", base + "rounds/1/swap/", {"first": 1, "second": 2}),
    ("post", base + "rounds/1/move/", {"player": 1, "table": 2}),
    ("post", base + "rounds/1/reseat/", {}),
    ("post", base + "rounds/1/tables/1/lock/", {}),
    ("post", base + "rounds/1/tables/1/unlock/", {}),
    ("put", hand_url(), GOOD_HAND),
    ("delete", hand_url(), None),
]


def call(client, method, url, body, playing):
    entry = playing.entries.first()
    url = url.format(entry=entry.pk)
    if body and "player" in body and body["player"] is None:
        from tournaments.models import Player

        body = {"player": Player.objects.create(name="New").pk}
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize(("method", "url", "body"), WRITES, ids=[f"{m} {u}" for m, u, _ in WRITES])
def test_anonymous_writers_get_401(api, playing, method, url, body):
    assert call(api.as_(), method, url, body, playing).status_code == 401


@pytest.mark.parametrize(("method", "url", "body"), WRITES, ids=[f"{m} {u}" for m, u, _ in WRITES])
def test_another_events_director_gets_403(api, bob, playing, method, url, body):
    assert call(api.as_(bob), method, url, body, playing).status_code == 403


@pytest.mark.parametrize(("method", "url", "body"), WRITES, ids=[f"{m} {u}" for m, u, _ in WRITES])
@pytest.mark.parametrize("who", ["alice", "root"])
def test_this_events_director_and_a_superuser_get_past_the_permission_check(
    api, request, playing, who, method, url, body
):
    user = request.getfixturevalue(who)
    status = call(api.as_(user), method, url, body, playing).status_code
    # Allowed: the request is judged on its merits (some are refused by the state of
    # the round, with 400/404/409), never 401 or 403.
    assert status not in (401, 403, 500), status


def test_a_private_event_is_invisible_to_the_public_and_other_directors(api, alice, bob, root):
    private = make_event(slug="secret", public=False)
    private.directors.add(alice)
    for client, seen in [
        (api.as_(), False),
        (api.as_(bob), False),
        (api.as_(alice), True),
        (api.as_(root), True),
    ]:
        assert (client.get("/api/v1/events/secret/").status_code == 200) is seen
        assert (client.get("/api/v1/events/secret/standings/").status_code == 200) is seen
        slugs = [e["slug"] for e in client.get("/api/v1/events/").json()["results"]]
        assert ("secret" in slugs) is seen


def test_another_director_cannot_change_a_private_event_either(api, alice, bob):
    private = make_event(slug="secret", public=False)
    private.directors.add(alice)
    response = api.as_(bob).patch("/api/v1/events/secret/", {"name": "Mine"}, format="json")
    assert response.status_code == 404
    assert Event.objects.get(slug="secret").name != "Mine"


def test_creating_events_needs_the_permission(api, alice, root):
    body = {"slug": "new-open", "name": "New Open"}
    assert api.as_().post("/api/v1/events/", body, format="json").status_code == 401
    assert api.as_(alice).post("/api/v1/events/", body, format="json").status_code == 403
    response = api.as_(root).post("/api/v1/events/", body, format="json")
    assert response.status_code == 201
    assert Event.objects.get(slug="new-open").directors.filter(username="root").exists()


def test_players_may_be_added_by_directors_only(api, alice, bob, event):
    body = {"name": "Winston Reid", "club": "Kingston Kalooki Club", "country": "JM"}
    assert api.as_().post("/api/v1/players/", body, format="json").status_code == 401
    response = api.as_(alice).post("/api/v1/players/", body, format="json")
    assert response.status_code == 201
    assert response.json()["country"] == "JM"
    bad = api.as_(alice).post("/api/v1/players/", {"name": "X", "country": "ZZ"}, format="json")
    assert bad.status_code == 400 and "country" in bad.json()
