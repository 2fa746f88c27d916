"""The dashboard's publishing panels in Chromium: the venue's "Publish to a site" form
filled and sent with the keyboard alone, the site's "Publishing link" made and shown
once, and both panels (with a refusal to try again) free of serious accessibility
violations."""

from __future__ import annotations

import pytest

from tests.browser.axe import serious_violations
from tests.browser.test_director_sheet import sign_in
from tests.browser.waiting import wait_until
from tests.fixtures import make_entries, make_event, make_user
from tournaments.models import Publication, PublishingLink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SITE = "https://kalooki.example"


@pytest.fixture
def event():
    """An event taking entries: no round yet, so no box on the dashboard takes the
    focus when it loads."""
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    make_entries(event, 8)
    return event


def focused(page) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def test_the_venue_form_is_filled_and_sent_with_the_keyboard(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/kingston/#publishing")
    page.keyboard.press("Tab")  # from the panel to its first box
    wait_until(page, "() => document.activeElement.id === 'publish-site'")
    page.keyboard.type(SITE)
    page.keyboard.press("Tab")
    assert focused(page) == "publish-link"
    page.keyboard.type("kp_from-the-site")
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/director/kingston/#publishing")
    wait_until(page, "() => document.getElementById('publishing-status')")
    assert page.text_content("#publishing-status").strip() == (
        "Nothing published yet — the publisher has not read the event yet"
    )
    assert "Publishing to https://kalooki.example" in page.text_content("#flash")
    publication = Publication.objects.get(event=event)
    assert (publication.site, publication.link) == (SITE, "kp_from-the-site")


def test_both_panels_pass_axe_and_the_link_shows_once(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/kingston/")
    assert serious_violations(page, "dashboard, not publishing") == []

    page.focus("#make-link")
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/director/kingston/#publishing-link")
    secret = page.input_value("#new-link-value")
    assert secret.startswith("kp_")
    assert PublishingLink.objects.filter(event=event, revoked_at__isnull=True).exists()
    # The venue's form on the same dashboard (an install may be both), with a refusal.
    Publication.objects.create(
        event=event,
        site=SITE,
        link=secret,
        stream="s",
        captured=3,
        refused="The site refuses the link: it opens nothing here.",
    )
    assert serious_violations(page, "dashboard, the new link shown") == []
    page.reload()
    assert page.locator("#new-link").count() == 0  # shown once only
    assert page.locator("#publish-retry").is_visible()
    assert page.text_content("#publishing-link-status").strip() == (
        "Waiting for the venue's first change"
    )
    assert serious_violations(page, "dashboard, both panels, a refusal") == []
