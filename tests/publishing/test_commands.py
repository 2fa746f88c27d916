"""`manage.py publish_event --once` and `manage.py compare_event` against a real site
(`live_server`)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from core.publishing import links
from scoring.models import HandScore
from tests.fixtures import make_event
from tests.publishing.pair import closed_port, record_next_hand, site_registry, venue_event
from tournaments.models import Publication

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def venue_and_site(alice):
    """The venue's event, and the site's empty event with its link (nothing set to
    publish at the venue yet)."""
    site_registry()
    venue = venue_event(director=alice)
    site = make_event(slug="kingston-site", name="Published from the venue")
    return venue, site, links.create_link(event=site)


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, **options)
    return out.getvalue()


def test_publish_once_then_compare_says_equal(venue_and_site, live_server, alice):
    venue, site, secret = venue_and_site
    url = live_server.url

    said = run("publish_event", venue.slug, site=url, link=secret, once=True)

    assert "Published kingston" in said and "up to change 1" in said
    publication = Publication.objects.get(event=venue)
    assert publication.acknowledged == publication.captured == 1
    assert "equals" in run("compare_event", venue.slug, site=url, link=secret)

    # Once more after a change: set to publish already, no --site or --link needed.
    record_next_hand(venue, by=alice, round_number=2, seats=[1, 2, 3, 4])
    said = run("publish_event", venue.slug, once=True)
    assert "up to change 2" in said
    assert "equals" in run("compare_event", venue.slug, site=url, link=secret)
    # Nothing new: nothing more to send.
    assert "up to change 2" in run("publish_event", venue.slug, once=True)


def test_compare_lists_where_the_sites_copy_was_changed(venue_and_site, live_server):
    venue, site, secret = venue_and_site
    url = live_server.url
    run("publish_event", venue.slug, site=url, link=secret, once=True)
    assert "equals" in run("compare_event", venue.slug, site=url, link=secret)
    tampered = (
        HandScore.objects.filter(hand__table__round__event=site, score__gt=0).order_by("pk").first()
    )
    HandScore.objects.filter(pk=tampered.pk).update(score=F("score") + 7)

    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("compare_event", venue.slug, site=url, link=secret, stdout=out)

    assert exited.value.code == 1
    said = out.getvalue()
    assert "differs" in said
    expected = f"score: venue {tampered.score}, site {tampered.score + 7}"
    lines = [line for line in said.splitlines() if line.startswith("- ")]
    assert any(line.startswith("- hand_scores row ") and expected in line for line in lines), said


def test_publish_once_says_why_it_could_not(venue_and_site, live_server):
    venue, site, secret = venue_and_site
    with pytest.raises(CommandError, match="could not be reached"):
        run(
            "publish_event",
            venue.slug,
            site=f"http://127.0.0.1:{closed_port()}",
            link=secret,
            once=True,
        )
    with pytest.raises(CommandError, match="refuses the link"):
        run("publish_event", venue.slug, site=live_server.url, link="kp_mistyped", once=True)
    assert Publication.objects.get(event=venue).refused
    with pytest.raises(CommandError, match="not set to publish"):
        run("publish_event", site.slug, once=True)
    with pytest.raises(CommandError, match="could not be read"):
        run("compare_event", venue.slug, site=live_server.url, link="kp_mistyped")
