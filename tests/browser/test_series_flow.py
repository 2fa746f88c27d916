"""A series in Chromium, under the content security policy (`new_page` fails on any
violation): the organiser creates a series, adds two finished legs, creates the final
seeded by rating across events; the public series page shows the legs, the
leaderboard with the qualifying line and the final, and the final's page links back."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_director_sheet import sign_in
from tests.core.test_series import leg
from tests.core.test_series_final_seeding import expected_rating_order, series_order
from tests.fixtures import make_user
from tournaments.models import Entry, Event, Player, Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def season():
    """Two finished legs (not yet in any series) and the event to be the final, all
    directed by Olive, who may create series."""
    olive = make_user("olive", superuser=True)
    cast = [Player.objects.create(name=name) for name in ("Ann", "Ben", "Cy", "Di", "Eve")]
    first = leg(None, cast[:4], day=1, name="Kingston Leg", venue="Kingston")
    second = leg(None, [cast[4], cast[2], cast[1], cast[0]], day=2, name="Ocho Rios Leg")
    final = Event.objects.create(
        slug="grand-final", name="Grand Final", status=Event.Status.REGISTRATION
    )
    for event in (first, second, final):
        event.directors.add(olive)
    return cast


def test_the_organiser_builds_a_season_and_the_public_follows_it(live_server, new_page, season):
    page = new_page()
    sign_in(page, live_server, username="olive")

    # Create the series from the organiser's pages.
    page.goto(f"{live_server.url}/organiser/")
    page.fill("#id_slug", "island-2027")
    page.fill("#id_name", "Island Circuit")
    page.fill("#id_season", "2027")
    page.fill("#id_points_scale", "10, 6, 4, 3, 2")
    page.fill("#id_qualifiers", "3")
    page.click("text=Create the series")
    page.wait_for_url(f"{live_server.url}/organiser/island-2027/")
    assert page.text_content("h1") == "Island Circuit 2027"

    # Add the two legs.
    for slug in ("leg-1", "leg-2"):
        page.select_option("#add-leg", slug)
        page.click("text=Add the leg")
        page.wait_for_load_state()
        assert "is a leg of the series" in page.text_content(".flash")
    series = Series.objects.get(slug="island-2027")
    assert sorted(series.legs.values_list("slug", flat=True)) == ["leg-1", "leg-2"]
    page.reload()  # the standings job has run once the leg was committed
    rows = page.locator("#standings-title ~ table tbody tr")
    assert rows.count() == 5
    assert page.locator("#standings-title ~ table td", has_text="qualified").count() == 3

    # Create the final, seeded by rating across events.
    page.select_option("#final-event", "grand-final")
    page.select_option("#final-seed-by", "rating")
    page.click("text=Enter the qualifiers")
    page.wait_for_load_state()
    flash = page.text_content(".flash")
    assert "3 qualifiers are entered in Grand Final, seeded by rating across events" in flash
    seeded = list(
        Entry.objects.filter(event__slug="grand-final")
        .order_by("seed_number")
        .values_list("player_id", flat=True)
    )
    assert seeded == expected_rating_order(series_order(series))

    # The public series page: legs, leaderboard, qualifying line, the final.
    public = new_page()
    public.goto(f"{live_server.url}/series/island-2027/")
    assert public.text_content("h1") == "Island Circuit 2027"
    assert public.locator("table.legs tbody tr").count() == 2
    assert public.locator("table.legs", has_text="Kingston Leg").is_visible()
    board = public.locator("table.series-board tbody tr.qualified")
    assert board.count() == 3
    assert "the 3 above go to the final" in public.text_content("tr.cut")
    public.click("text=Grand Final")
    public.wait_for_url(f"{live_server.url}/events/grand-final/")
    link = public.locator(".series-link a")
    assert re.search("grand final of", public.text_content(".series-link"), re.I)
    link.click()
    public.wait_for_url(f"{live_server.url}/series/island-2027/")
    # A leg's page links to the series too.
    public.click("text=Kingston Leg")
    public.wait_for_url(f"{live_server.url}/events/leg-1/")
    assert "A leg of" in public.text_content(".series-link")
