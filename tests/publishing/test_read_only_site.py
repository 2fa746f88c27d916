"""While its publishing link stands, the site's copy of an event changes only through
the link: its directors' writes, through the API or the dashboard, are refused with
the reason and write nothing. Revoked, the event is theirs to change again. The
venue's own event, publishing, stays writable throughout."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from core import archive
from core.archive import ArchiveError
from core.archive.export import build_payload, export_event
from core.archive.importer import import_event
from core.archive.replacing import REPLACE
from core.publishing import links
from tests.publishing.conftest import api_as
from tests.publishing.pair import DB, record_next_hand
from tournaments.models import Announcement, Entry, Event

pytestmark = DB

HAND = {
    "went_out": 2,
    "scores": [
        {"seat": 1, "points": 23},
        {"seat": 2, "points": 0},
        {"seat": 3, "points": 17},
        {"seat": 4, "points": 41},
    ],
}
READ_ONLY = "published from the venue"


def writes(event: Event) -> list[tuple[str, str, dict | None]]:
    api = f"/api/v1/events/{event.slug}/"
    hands = api + "rounds/1/tables/1/hands/"
    entry = Entry.objects.filter(event=event).order_by("pk").first()
    return [
        ("put", hands + "3/", HAND),
        ("put", hands + "1/", HAND),
        ("delete", hands + "2/", None),
        ("post", api + "announcements/", {"text": "Prize giving at six"}),
        ("patch", api, {"name": "Renamed on the site"}),
        ("patch", api + f"entries/{entry.pk}/", {"status": "withdrawn"}),
        ("post", api + "rounds/1/clock/", {"action": "start", "minutes": 90}),
        ("post", api + "rounds/1/close/", {"force": True}),
        ("post", api + "rounds/1/tables/1/lock/", None),
        ("post", api + "count/", None),
    ]


def payload(event: Event) -> dict:
    return build_payload(Event.objects.get(pk=event.pk))


def test_the_api_refuses_a_directors_writes_to_a_published_event(small, alice):
    director = api_as(alice)
    site = small.site
    before = payload(site)

    for method, url, body in writes(site):
        answer = getattr(director, method)(url, body, format="json")

        assert answer.status_code == 409, (method, url, answer.status_code, answer.content)
        assert READ_ONLY in answer.content.decode(), (method, url)
        assert "revoke" in answer.content.decode()

    assert payload(site) == before
    # Reading is as before.
    assert director.get(f"/api/v1/events/{site.slug}/rounds/1/tables/1/").status_code == 200
    assert director.get(f"/api/v1/events/{site.slug}/standings/").status_code == 200


def test_the_dashboard_refuses_a_directors_forms_on_a_published_event(small, alice):
    site = small.site
    browser = Client(headers={"Accept-Language": "en"})
    browser.force_login(alice)
    before = payload(site)

    posted = browser.post(f"/director/{site.slug}/announcements/", {"text": "Prize giving"})

    assert posted.status_code == 302 and posted.url == f"/director/{site.slug}/"
    said = [str(m) for m in get_messages(posted.wsgi_request)]
    assert any(READ_ONLY in m for m in said), said
    # From a page's own request (htmx), the refusal is the answer itself.
    sheet = browser.post(
        f"/director/{site.slug}/rounds/1/tables/1/hands/3/",
        {"went_out": 2},
        HTTP_HX_REQUEST="true",
    )
    assert sheet.status_code == 409 and READ_ONLY in sheet.content.decode()
    # And a player's entry at their table.
    player = Client().post(f"/events/{site.slug}/rounds/1/tables/1/enter/hands/3/", {})
    assert player.status_code == 409 and READ_ONLY in player.content.decode()
    assert payload(site) == before
    assert not Announcement.objects.filter(event=site).exists()


def test_revoked_the_event_is_writable_again(small, alice):
    site = small.site
    director = api_as(alice)
    assert links.revoke_link(event=site)

    hand = director.put(
        f"/api/v1/events/{site.slug}/rounds/1/tables/1/hands/3/", HAND, format="json"
    )
    posted = director.post(
        f"/api/v1/events/{site.slug}/announcements/", {"text": "Ours now"}, format="json"
    )
    renamed = director.patch(f"/api/v1/events/{site.slug}/", {"name": "Ours"}, format="json")

    assert hand.status_code == 200, hand.content
    assert posted.status_code == 201, posted.content
    assert renamed.status_code == 200, renamed.content
    browser = Client(headers={"Accept-Language": "en"})
    browser.force_login(alice)
    assert browser.post(f"/director/{site.slug}/announcements/", {"text": "Tea"}).status_code == 302
    assert Announcement.objects.filter(event=site).count() == 2
    assert Event.objects.get(pk=site.pk).name == "Ours"


def test_the_venues_event_stays_writable_while_it_publishes(small, alice):
    venue = small.venue
    assert venue.publication.link == small.secret
    director = api_as(alice)

    hand = director.put(
        f"/api/v1/events/{venue.slug}/rounds/1/tables/1/hands/3/", HAND, format="json"
    )
    posted = director.post(
        f"/api/v1/events/{venue.slug}/announcements/", {"text": "Tea"}, format="json"
    )
    browser = Client(headers={"Accept-Language": "en"})
    browser.force_login(alice)
    dashboard = browser.post(f"/director/{venue.slug}/announcements/", {"text": "Coffee"})

    assert hand.status_code == 200, hand.content
    assert posted.status_code == 201, posted.content
    assert dashboard.status_code == 302
    said = [str(m) for m in get_messages(dashboard.wsgi_request)]
    assert not any(READ_ONLY in m for m in said), said
    assert Announcement.objects.filter(event=venue).count() == 2
    # And what was written there reaches the site.
    small.apply(small.capture())
    assert small.differences() == []


def test_an_archive_import_does_not_replace_a_published_event(small, alice):
    site = small.site
    record_next_hand(small.venue, by=alice)
    document = archive.dumps(export_event(Event.objects.get(pk=small.venue.pk)))
    before = payload(site)

    with pytest.raises(ArchiveError, match=READ_ONLY):
        import_event(raw=document, by=alice, held=REPLACE)

    assert payload(site) == before
