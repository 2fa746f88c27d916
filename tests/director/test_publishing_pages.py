"""The dashboard's publishing panels: "Publish to a site" (the venue) and "Publishing
link" (the site), what they say in a director's words, and the public pages' note."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.formats import date_format

from core import caching
from core.errors import Forbidden
from core.publishing.applying import apply_changes
from core.publishing.links import create_link, hashed, link_of
from core.publishing.outbox import capture, start_publishing, unpacked
from core.publishing.state import Snapshot
from tests.director import test_dashboard
from tests.fixtures import make_event
from tests.html import Page
from tournaments.models import Announcement, Entry, Publication, PublishingLink

pytestmark = pytest.mark.django_db

SITE = "https://kalooki.example"


def flashes(response) -> list[str]:
    return [html.unescape(text) for text in test_dashboard.flashes(response)]


def today_at(hour: int, minute: int):
    return timezone.localtime().replace(hour=hour, minute=minute, second=0, microsecond=0)


def publish(director, w, **data):
    return director.post(
        w.url("publishing/"), {"site": SITE, "link": "kp_secret", **data}, follow=True
    )


def make_link(director, w):
    return director.post(w.url("publishing-link/"), follow=True)


# --- The venue: Publish to a site --------------------------------------------------------


def test_the_dashboard_offers_to_publish_with_a_labelled_form(w, director):
    page = Page(director.get(w.url()).content)
    assert page.text("publishing-heading") == "Publish to a site"
    assert "make venue" in page.text("publishing")
    assert page.attrs("publish-site")["required"] == ""
    assert not page.has("publishing-status") and not page.has("publish-stop")
    html_text = director.get(w.url()).content.decode()
    assert "Site's address <input" in html_text and "Publishing link <input" in html_text


def test_the_venue_form_starts_publishing_and_shows_how_far_the_site_has_it(w, director):
    response = publish(director, w)
    assert response.redirect_chain[-1][0] == w.url() + "#publishing"
    assert flashes(response) == [
        f"Publishing to {SITE}: the venue's changes go there as they are made."
    ]
    publication = Publication.objects.get(event=w.event)
    assert (publication.site, publication.link) == (SITE, "kp_secret")
    page = Page(response.content)
    assert page.text("publishing-to") == f"Publishing to {SITE}"
    assert page.text("publishing-status") == (
        "Nothing published yet — the publisher has not read the event yet"
    )
    assert page.attrs("publish-site")["value"] == SITE

    Publication.objects.filter(pk=publication.pk).update(
        captured=25,
        acknowledged=2,
        acknowledged_change_at=today_at(14, 32),
        unreachable_since=today_at(14, 33),
        problem="connection refused",
    )
    page = Page(director.get(w.url()).content)
    assert page.text("publishing-status") == (
        "Published up to 14:32 — 23 changes waiting — site unreachable since 14:33"
    )
    assert page.text("publishing-problem") == "Why: connection refused"

    Publication.objects.filter(pk=publication.pk).update(
        acknowledged=24, unreachable_since=None, problem=""
    )
    page = Page(director.get(w.url()).content)
    assert page.text("publishing-status") == "Published up to 14:32 — 1 change waiting"
    assert not page.has("publishing-problem")
    Publication.objects.filter(pk=publication.pk).update(acknowledged=25)
    page = Page(director.get(w.url()).content)
    assert page.text("publishing-status") == "Published up to 14:32 — everything published"


def test_a_change_on_another_day_says_its_date(w, director):
    start_publishing(event=w.event, site=SITE, link="kp_secret")
    yesterday = today_at(14, 32) - timedelta(days=1)
    Publication.objects.update(captured=1, acknowledged=1, acknowledged_change_at=yesterday)
    status = Page(director.get(w.url()).content).text("publishing-status")
    day = date_format(yesterday, "DATETIME_FORMAT")  # "Dec. 2, 2026, 2:32 p.m."
    assert status == f"Published up to {day} — everything published"


def test_a_bad_site_address_names_the_field_and_starts_nothing(w, director):
    response = publish(director, w, site="kalooki.example")
    assert flashes(response) == ["Give the site's address, starting with https:// (or http://)."]
    assert response.redirect_chain[-1][0] == w.url() + "#publishing"
    response = publish(director, w, link="")
    assert flashes(response) == ["Publishing link: This field is required."]
    response = publish(director, w, link="two words")
    assert flashes(response) == ["Paste the publishing link the site gave, as it is."]
    assert not Publication.objects.exists()


def test_stop_publishing(w, director):
    publish(director, w)
    response = director.post(w.url("publishing/stop/"), follow=True)
    assert flashes(response) == ["Publishing stopped: the site keeps what it has."]
    assert not Publication.objects.exists()
    page = Page(response.content)
    assert not page.has("publishing-status") and page.has("publish-form")


def test_a_refusal_stops_publishing_until_the_director_tries_again(w, director):
    publish(director, w)
    Publication.objects.update(refused="Change 3 was refused: hand 2 of table 1 is impossible.")
    page = Page(director.get(w.url()).content)
    stopped = "Publishing stopped: Change 3 was refused: hand 2 of table 1 is impossible."
    assert page.text("publishing-stopped").startswith(stopped)
    assert page.text("publishing-warning").startswith(stopped)  # at the top of the page too
    assert page.has("publish-retry")
    response = director.post(w.url("publishing/retry/"), follow=True)
    assert flashes(response) == [
        "Publishing again: the changes the site does not have yet go there next."
    ]
    assert Publication.objects.get().refused == ""
    page = Page(response.content)
    assert not page.has("publishing-stopped") and not page.has("publishing-warning")


def test_another_directors_event_cannot_be_published(w, director):
    response = director.post(
        w.url("publishing/", slug=w.bobs_event.slug), {"site": SITE, "link": "kp_x"}
    )
    assert response.status_code == 404
    opened = director.get(w.url("publishing/"))  # a GET opens the dashboard
    assert (opened.status_code, opened["Location"]) == (302, w.url())
    assert not Publication.objects.exists()


# --- The site: Publishing link -----------------------------------------------------------


def test_the_link_is_shown_once_and_only_once(w, director):
    page = Page(director.get(w.url()).content)
    assert page.text("make-link") == "Make a publishing link"
    assert not page.has("new-link") and not page.has("revoke-link")

    response = make_link(director, w)
    assert response.redirect_chain[-1][0] == w.url() + "#publishing-link"
    assert "no-store" in response["Cache-Control"]
    page = Page(response.content)
    secret = page.attrs("new-link-value")["value"]
    assert secret.startswith("kp_") and link_of(secret).event == w.event
    assert PublishingLink.objects.get().secret_hash == hashed(secret)
    assert "paste it into the venue's dashboard under Publish to a site" in page.text("new-link")
    assert page.text("publishing-link-status") == "Waiting for the venue's first change"
    assert page.text("make-link") == "Make a new publishing link"

    again = director.get(w.url())
    assert not Page(again.content).has("new-link")
    assert secret not in again.content.decode()


def test_making_the_link_again_replaces_the_old_one(w, director):
    first = Page(make_link(director, w).content).attrs("new-link-value")["value"]
    second = Page(make_link(director, w).content).attrs("new-link-value")["value"]
    assert first != second
    assert link_of(second).event == w.event
    with pytest.raises(Forbidden):
        link_of(first)


def test_a_published_events_other_dashboard_forms_are_refused_with_the_reason(w, director):
    make_link(director, w)
    entry = Entry.objects.filter(event=w.event).first()
    announced = director.post(w.url("announcements/"), {"text": "Tea at four"}, follow=True)
    withdrawn = director.post(w.url("withdraw/"), {"player": entry.pk}, follow=True)
    for response in (announced, withdrawn):
        assert response.redirect_chain[-1][0] == w.url()
        [reason] = flashes(response)
        assert reason.startswith("This event is published from the venue: change it there")
    assert not Announcement.objects.exists()
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.ACTIVE


def test_revoking_the_link_makes_the_event_editable_again(w, director):
    make_link(director, w)
    response = director.post(w.url("publishing-link/revoke/"), follow=True)
    assert flashes(response) == [
        "The publishing link is revoked: the venue can no longer publish here, and the event "
        "can be changed here."
    ]
    page = Page(response.content)
    status = page.text("publishing-link-status")
    assert status.startswith("The publishing link was revoked at ")
    assert status.endswith("the event can be changed here.")
    assert page.text("make-link") == "Make a publishing link" and not page.has("revoke-link")
    assert flashes(director.post(w.url("announcements/"), {"text": "Tea"}, follow=True)) == [
        "On the screens now: “Tea”."
    ]
    again = director.post(w.url("publishing-link/revoke/"), follow=True)
    assert flashes(again) == ["This event has no publishing link."]


def test_the_site_panel_says_what_the_venue_published_and_what_it_refused(w, director):
    create_link(event=w.event)
    PublishingLink.objects.update(
        acknowledged=23,
        last_change_at=today_at(14, 32),
        refused_seq=24,
        refused_reason="Round 2 has no table 9.",
    )
    page = Page(director.get(w.url()).content)
    assert page.text("publishing-link-status") == (
        "Published from the venue, last change 14:32 — 23 changes applied"
    )
    assert page.text("publishing-link-refused") == "Change 24 was refused: Round 2 has no table 9."


# --- The public pages ------------------------------------------------------------------


def test_the_public_pages_say_the_event_is_published_from_the_venue(
    w, director, client, django_capture_on_commit_callbacks
):
    """A real change from a venue's event, applied to the site's event through its link."""
    site_event = make_event(slug="kingston-site", name="Kingston Open")
    site_event.directors.add(w.alice)
    secret = create_link(event=site_event)
    leaderboard = f"/events/{site_event.slug}/"
    assert not Page(client.get(leaderboard).content).has("published-note")

    publication = start_publishing(event=w.event, site=SITE, link=secret)
    change = capture(publication, Snapshot())
    stream, body = publication.stream, unpacked(change.body)
    w.event.delete()  # the venue's copy is on another machine: one event of its identity here
    with django_capture_on_commit_callbacks(execute=True):
        apply_changes(link_of(secret), stream, [body])
    at = timezone.localtime(change.captured_at).strftime("%H:%M")
    note = f"Published from the venue, last change {at}"
    assert Page(client.get(leaderboard).content).text("published-note") == note
    assert Page(client.get(leaderboard + "rounds/1/").content).text("published-note") == note
    table = leaderboard + "rounds/1/tables/1/"
    assert Page(client.get(table).content).text("published-note") == note
    assert Page(client.get(leaderboard).content).text("published-note") == note  # cached

    with django_capture_on_commit_callbacks(execute=True):
        director.post(f"/director/{site_event.slug}/publishing-link/revoke/")
    assert not Page(client.get(leaderboard).content).has("published-note")


def test_the_note_costs_a_public_page_no_query(w, client):
    def queries(path: str) -> tuple[int, bool]:
        caching.reset()
        with CaptureQueriesContext(connection) as captured:
            page = Page(client.get(path).content)
        return len(captured), page.has("published-note")

    pages = [f"/events/{w.event.slug}/", f"/events/{w.event.slug}/rounds/1/"]
    before = [queries(path) for path in pages]
    create_link(event=w.event)
    PublishingLink.objects.update(acknowledged=1, last_change_at=today_at(14, 32))
    after = [queries(path) for path in pages]
    assert [n for n, _ in after] == [n for n, _ in before]
    assert [shown for _, shown in before + after] == [False, False, True, True]
