"""The site's publishing link, made and revoked by the event's directors through the
API: shown once, it opens the event's publishing endpoints and nothing else; revoked,
it opens nothing; a new link goes on from what the site has."""

from __future__ import annotations

import pytest

from tests.fixtures import make_event, make_user
from tests.publishing.conftest import api_as
from tests.publishing.pair import DB, STATUS_URL, post_batch, record_next_hand
from tournaments.models import Event, PublishingLink

pytestmark = DB


def link_url(event: Event) -> str:
    return f"/api/v1/events/{event.slug}/publishing-link/"


def opens(wire, secret: str):
    return wire.get(STATUS_URL, HTTP_AUTHORIZATION=f"Link {secret}")


def test_the_events_director_makes_a_link_that_opens_its_publishing(alice, wire):
    event = make_event(slug="site-copy")
    event.directors.add(alice)

    made = api_as(alice).post(link_url(event))

    assert made.status_code == 201, made.content
    secret = made.json()["link"]
    assert list(made.json()) == ["link"] and secret.startswith("kp_") and len(secret) > 30
    # Only its hash is kept.
    stored = PublishingLink.objects.get(event=event)
    assert secret not in stored.secret_hash and stored.created_by == alice
    status = opens(wire, secret)
    assert status.status_code == 200, status.content
    assert status.json() == {
        "event": "site-copy",
        "stream": "",
        "acknowledged": 0,
        "last_change_at": None,
        "refused": None,
    }


def test_nobody_else_makes_or_revokes_a_link(alice, bob, wire):
    event = make_event(slug="site-copy")
    event.directors.add(alice)
    private = make_event(slug="private-copy", public=False)
    private.directors.add(alice)
    secret = api_as(alice).post(link_url(event)).json()["link"]
    carol = make_user("carol")

    for user, expected in ((bob, (403,)), (carol, (403,)), (None, (401, 403))):
        for method in ("post", "delete"):
            answer = getattr(api_as(user), method)(link_url(event))
            assert answer.status_code in expected, (user, method, answer.content)
        # A private event of someone else is not even there for them.
        answer = api_as(user).post(link_url(private))
        assert answer.status_code in (*expected, 404), (user, answer.content)
    assert not PublishingLink.objects.filter(event=private).exists()
    assert opens(wire, secret).status_code == 200  # the link stands, unchanged
    # A director of another event does not make links for it with its own link.
    assert wire.post(link_url(event), HTTP_AUTHORIZATION=f"Link {secret}").status_code in (
        401,
        403,
    )


def test_a_revoked_link_opens_nothing(alice, wire):
    event = make_event(slug="site-copy")
    event.directors.add(alice)
    director = api_as(alice)
    secret = director.post(link_url(event)).json()["link"]

    revoked = director.delete(link_url(event))

    assert revoked.status_code == 204
    assert opens(wire, secret).status_code == 403
    answer = post_batch(wire, secret, {"stream": "s", "changes": []})
    assert answer.status_code == 403
    archive = wire.get("/api/v1/publishing/archive/", HTTP_AUTHORIZATION=f"Link {secret}")
    assert archive.status_code == 403
    # Nothing left to revoke.
    assert director.delete(link_url(event)).status_code == 404
    # A new one works again.
    again = director.post(link_url(event))
    assert again.status_code == 201
    assert opens(wire, again.json()["link"]).status_code == 200
    assert opens(wire, secret).status_code == 403


@pytest.mark.parametrize("revoke_first", [False, True], ids=["replaced", "revoked then made"])
def test_a_new_link_keeps_the_acknowledgement(small, alice, wire, revoke_first):
    director = api_as(alice)
    old = small.secret
    record_next_hand(small.venue, by=alice)
    small.apply(small.capture())
    assert opens(wire, old).json()["acknowledged"] == 2
    if revoke_first:
        assert director.delete(link_url(small.site)).status_code == 204

    made = director.post(link_url(small.site))

    assert made.status_code == 201, made.content
    new = made.json()["link"]
    assert new != old
    status = opens(wire, new).json()
    assert status["acknowledged"] == 2 and status["stream"] == small.stream
    assert status["event"] == small.site.slug
    assert opens(wire, old).status_code == 403
    # The venue goes on with the new link from change 3.
    record_next_hand(small.venue, by=alice)
    change = small.capture()
    assert change["seq"] == 3
    assert post_batch(wire, old, {"stream": small.stream, "changes": [change]}).status_code == 403
    answer = post_batch(wire, new, {"stream": small.stream, "changes": [change]})
    assert answer.status_code == 200 and answer.json()["acknowledged"] == 3
    small.settled()
    assert small.differences() == []
