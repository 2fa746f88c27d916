"""Who may open the director's pages: anonymous visitors are sent to sign in, another
event's director finds nothing there (404, the same as no event at all), and a
superuser may open every event."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.fixtures import make_world
from tests.html import HTMX, row, signed_in
from tournaments.models import Table

pytestmark = pytest.mark.django_db

PAGES = [
    "",
    "rounds/1/",
    "rounds/1/tables/1/",
    "rounds/1/tables/1/hands/1/history/",
]
ACTIONS = [
    "rounds/start/",
    "rounds/1/publish/",
    "rounds/1/close/",
    "rounds/1/force-close/",
    "rounds/1/reseat/",
    "rounds/1/swap/",
    "rounds/1/move/",
    "rounds/1/tables/1/lock/",
    "rounds/1/tables/1/unlock/",
    "rounds/1/tables/1/hands/1/",
    "rounds/1/tables/1/hands/1/delete/",
]
GOOD = row(seat1=23, seat2=0, seat3=15, seat4=41, went_out=2)


@pytest.fixture
def w():
    return make_world(public=False)


@pytest.mark.parametrize("page", ["/director/", *(f"/director/kingston/{p}" for p in PAGES)])
def test_anonymous_visitors_are_sent_to_sign_in(w, page):
    response = signed_in(None).get(page)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("action", ACTIONS)
def test_anonymous_actions_are_sent_to_sign_in_and_change_nothing(w, action):
    response = signed_in(None).post(w.url(action), GOOD)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Hand.objects.exists()
    assert w.round.status == type(w.round).objects.get(pk=w.round.pk).status


@pytest.mark.parametrize("page", PAGES)
def test_another_events_director_finds_nothing(w, page):
    response = signed_in(w.bob).get(w.url(page))
    assert response.status_code == 404
    # A private event does not leak, not even its name.
    assert b"Kingston Open" not in response.content


@pytest.mark.parametrize("action", ACTIONS)
def test_another_events_director_cannot_act(w, action):
    response = signed_in(w.bob).post(w.url(action), GOOD, **HTMX)
    assert response.status_code == 404
    assert not Hand.objects.exists()
    assert not Table.objects.filter(locked=True).exists()


def test_another_events_director_cannot_save_through_an_own_event_url_either(w):
    """Bob's own event has no round 1: the table is looked up inside the event."""
    url = f"/director/{w.bobs_event.slug}/rounds/1/tables/1/hands/1/"
    assert signed_in(w.bob).post(url, GOOD, **HTMX).status_code == 404
    assert not Hand.objects.exists()


@pytest.mark.parametrize("who", ["alice", "root"])
@pytest.mark.parametrize("page", PAGES)
def test_the_events_director_and_a_superuser_open_every_page(w, who, page):
    assert signed_in(getattr(w, who)).get(w.url(page)).status_code == 200


def test_the_event_list_shows_only_the_events_one_directs(w):
    alices = signed_in(w.alice).get("/director/").content.decode()
    bobs = signed_in(w.bob).get("/director/").content.decode()
    roots = signed_in(w.root).get("/director/").content.decode()
    assert "Kingston Open" in alices and "Bob&#x27;s Event" not in alices
    assert "Bob&#x27;s Event" in bobs and "Kingston Open" not in bobs
    assert "Kingston Open" in roots and "Bob&#x27;s Event" in roots


def test_a_signed_in_user_who_directs_nothing_is_told_so(w):
    from tests.fixtures import make_user

    carol = make_user("carol")
    response = signed_in(carol).get("/director/")
    assert response.status_code == 200
    assert "You do not direct any event yet" in response.content.decode()
    assert signed_in(carol).get(w.url()).status_code == 404


def test_pages_only_take_post_for_actions(w):
    """A GET does nothing: it opens the page the action's form is on."""
    client = signed_in(w.alice)
    for action, page in [
        (w.url("rounds/1/publish/"), w.url("rounds/1/")),
        (w.url("rounds/1/tables/1/lock/"), w.sheet_url()),
        (w.hand_url(1, rest="delete/"), w.sheet_url()),
    ]:
        response = client.get(action)
        assert (response.status_code, response["Location"]) == (302, page)
    w.table.refresh_from_db()
    w.round.refresh_from_db()
    assert not w.table.locked and w.round.status == "published"
