"""The director's archive import page with an archive of an event held here: it asks,
then replaces the event or keeps a copy; a copy is marked as one on every list (the
director's and the public events lists, a player's page, the organiser's leg menu, the
API) until its dashboard counts it instead."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from core import services
from tests.core.shared_events import event_of, played_event_pk, user_named
from tests.director.test_archive_pages import upload
from tests.fixtures import kept_for_the_module
from tests.html import signed_in
from tournaments.models import Event, Round, Series

pytestmark = pytest.mark.django_db

IMPORT = "/director/archive/import/"


def build() -> int:
    """alice's played event, a leg of her series Circuit; she may create events."""
    event = event_of(played_event_pk(director="alice"))
    alice = user_named("alice")
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    series = services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=alice)
    services.add_leg(series=series, event=event, by=alice)
    return event.pk


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> int:
    """The event of `build` (its pk): made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def alice(kept, db):
    """The director of the module's played event."""
    return user_named("alice")


@pytest.fixture
def event(kept, db) -> Event:
    return event_of(kept)


@pytest.fixture
def director(alice):
    return signed_in(alice)


@pytest.fixture
def text(event, director) -> bytes:
    return director.get("/director/kingston/archive.json").content


def test_the_page_asks_before_anything_is_written(event, director, text):
    response = director.post(IMPORT, {"archive": upload(text), "rename": "kingston-2"})
    page = response.content.decode()
    assert response.status_code == 409
    assert "This site holds this event already" in page
    assert "Kingston Kalooki Open</strong> (kingston)" in page
    assert "counts in ratings and series · a leg of Circuit" in page
    assert 'name="held" value="replace" required>' in page  # alice directs it: she may
    assert 'name="held" value="copy" required>' in page
    assert 'name="rename" value="kingston-2"' in page  # the slug asked for, for a copy
    assert "choose the archive again" in page
    assert Event.objects.count() == 1


def test_replace_keeps_the_events_address_and_series(event, director, text):
    closed = set(Round.objects.filter(event=event).values_list("pk", flat=True))
    response = director.post(IMPORT, {"archive": upload(text), "held": "replace"})
    assert response.status_code == 302 and response["Location"] == "/director/kingston/"
    assert Event.objects.count() == 1
    replaced = Event.objects.get(slug="kingston")
    assert (replaced.pk, replaced.counted, replaced.series.slug) == (event.pk, True, "circuit")
    assert not closed & set(Round.objects.filter(event=event).values_list("pk", flat=True))
    page = director.get("/director/kingston/").content.decode()
    assert "It replaced the event held here" in page
    assert "Left out of ratings and series" not in page


def test_a_copy_is_marked_everywhere_until_its_dashboard_counts_it(event, director, text):
    response = director.post(
        IMPORT, {"archive": upload(text), "held": "copy", "rename": "kingston-copy"}
    )
    assert response.status_code == 302 and response["Location"] == "/director/kingston-copy/"
    copy = Event.objects.get(slug="kingston-copy")
    assert (copy.counted, copy.uid) == (False, event.uid)

    dashboard = director.get("/director/kingston-copy/").content.decode()
    assert "It is a copy of &#x27;kingston&#x27;, left out of ratings and" in dashboard
    assert 'action="/director/kingston-copy/count/"' in dashboard
    assert "Count this event instead of kingston" in dashboard
    assert "takes its place as a leg of Circuit" in dashboard
    listed = director.get("/director/").content.decode()
    assert "kingston-copy · Running" in listed and "a copy of kingston, left out" in listed
    public = signed_in(None)
    front = public.get("/events/").content.decode()
    assert front.count(">Kingston Kalooki Open</a>") == 2
    assert 'A copy of <a href="/events/kingston/">' in front
    player = Round.objects.get(event=event, number=1).seats.first().entry.player_id
    page = public.get(f"/players/{player}/").content.decode()
    assert page.count('<span class="badge copy">copy</span>') == 1
    assert 'A copy of <a href="/events/kingston/">' in page
    series = Series.objects.get(slug="circuit")
    services.remove_leg(series=series, event=event, by=event.directors.get())
    menu = director.get("/organiser/circuit/").content.decode()
    assert 'value="kingston-copy" disabled>' in menu and "a copy of kingston" in menu
    document = public.get("/api/v1/events/kingston-copy/").json()
    assert document["copy_of"] == "kingston" and document["counted"] is False
    assert document["uid"] == str(event.uid)

    response = director.post("/director/kingston-copy/count/")
    assert response.status_code == 302
    event.refresh_from_db()
    assert Event.objects.get(slug="kingston-copy").counted and not event.counted
    assert "counts in the ratings and series now" in director.get("/director/").content.decode()
    original = director.get("/director/kingston/").content.decode()
    assert "Count this event instead of kingston-copy" in original


def test_the_count_action_takes_only_a_post(event, director):
    response = director.get("/director/kingston/count/")  # lands on the dashboard
    assert response.status_code == 302 and response["Location"] == "/director/kingston/"
    response = director.post("/director/kingston/count/", follow=True)
    assert "counts already: it is not a copy left out" in response.content.decode()
