"""An event begun on the site, taken to the venue (its archive imported there) and
published back with the site's link: the site's copy becomes the venue's, whole, and
follows it from then on. Both installs share this test's database: the venue's event
is the imported copy (which does not count, as a copy of an event held here), the
site's the original."""

from __future__ import annotations

import pytest

from core import services
from core.archive.export import build_payload, export_event
from core.archive.importer import import_event
from core.publishing import applying, outbox
from core.publishing.compare import differences
from core.publishing.links import create_link, read_only_reason
from scoring.models import Hand
from tests.fixtures import hand, make_alice, played_event
from tournaments.models import Event, PublishingLink

pytestmark = pytest.mark.django_db


def publish(publication, snapshot, link) -> PublishingLink:
    """Capture the venue's change and apply it on the site, as the publisher would."""
    made = outbox.capture(publication, snapshot)
    assert made is not None
    return applying.apply_changes(link, publication.stream, [outbox.unpacked(made.body)])


def same(venue: Event, site: Event) -> list[str]:
    # The imported copy's standings of the round in play came with its archive, drawn by
    # the original's ids: ranked here again, as the site ranks them by the venue's.
    services.refresh_standings(event=Event.objects.get(pk=venue.pk))
    services.refresh_standings(event=Event.objects.get(pk=site.pk))
    return differences(
        build_payload(Event.objects.get(pk=venue.pk)), build_payload(Event.objects.get(pk=site.pk))
    )


def test_an_event_taken_to_the_venue_publishes_back_with_the_sites_link():
    director = make_alice()
    site = played_event(slug="kingston", director=director)
    secret = create_link(event=site, by=director)
    # At the venue: the site's archive, imported (here: a copy beside the original).
    venue = import_event(raw=export_event(site), rename="kingston-venue", held="copy").event
    assert not venue.counted
    # The site had hands typed there; the venue's first change replaces them whole.
    table = venue.rounds.get(number=2).tables.get(number=2)
    services.record_hand(table=table, number=1, entry=hand(1, 4), by=None)
    publication = outbox.start_publishing(event=venue, site="https://site.example", link=secret)
    snapshot = outbox.remembered(publication)
    link = publish(publication, snapshot, PublishingLink.objects.get(event=site))
    assert link.acknowledged == 1
    assert link.stream == publication.stream
    assert same(venue, site) == []
    # From then on the site follows the venue change by change, and only through it.
    services.record_hand(table=table, number=2, entry=hand(2, 4), by=None)
    link = publish(publication, snapshot, link)
    assert link.acknowledged == 2
    assert same(venue, site) == []
    assert read_only_reason(site.pk)
    assert read_only_reason(venue.pk) is None


def test_the_same_change_sent_twice_is_applied_once():
    director = make_alice()
    site = played_event(slug="kingston", director=director)
    secret = create_link(event=site, by=director)
    venue = import_event(raw=export_event(site), rename="kingston-venue", held="copy").event
    publication = outbox.start_publishing(event=venue, site="https://site.example", link=secret)
    snapshot = outbox.remembered(publication)
    link = publish(publication, snapshot, PublishingLink.objects.get(event=site))
    table = venue.rounds.get(number=2).tables.get(number=2)
    services.record_hand(table=table, number=1, entry=hand(1, 4), by=None)
    made = outbox.capture(publication, snapshot)
    change = outbox.unpacked(made.body)
    applying.apply_changes(link, publication.stream, [change])
    history = site_hand_history(site)
    link = applying.apply_changes(
        PublishingLink.objects.get(pk=link.pk), publication.stream, [change]
    )
    assert link.acknowledged == 2
    assert site_hand_history(site) == history
    assert same(venue, site) == []


def site_hand_history(event: Event) -> int:
    return Hand.history.filter(table_id__in=event.rounds.values("tables")).count()


def test_the_admin_shows_a_published_event_read_only(client):
    director = make_alice()
    director.is_staff = director.is_superuser = True
    director.save()
    site = played_event(slug="kingston", director=director)
    client.force_login(director)
    page = f"/admin/tournaments/event/{site.pk}/change/"
    assert b'name="name"' in client.get(page).content  # editable while not published
    create_link(event=site, by=director)
    shown = client.get(page)
    assert shown.status_code == 200
    assert b'name="name"' not in shown.content
    refused = client.post(page, {"name": "Renamed at the site"})
    assert refused.status_code == 403
    assert Event.objects.get(pk=site.pk).name == site.name
