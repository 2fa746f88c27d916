"""The ratings page and a player's rating chart in Chromium, under the content
security policy (`new_page` fails on any violation)."""

from __future__ import annotations

import pytest

from core import services
from tests.core.ratings_world import closed_round, players
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_rating_chart_and_the_ratings_page_render(live_server, new_page):
    cast = players(4)
    event = make_event(slug="a", name="Event A")
    for n in range(1, 4):
        closed_round(event, [cast], number=n)
    services.refresh_ratings()
    page = new_page()
    page.goto(f"{live_server.url}/players/{cast[0].pk}/")
    chart = page.locator("svg[role=img]")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box["width"] > 200 and box["height"] > 100
    assert page.locator("polyline.rating-line").count() == 1
    page.select_option("#vs", str(cast[1].pk))
    page.click("text=Compare")
    page.wait_for_url(f"**/players/{cast[0].pk}/?vs={cast[1].pk}")
    assert "3 won, 0 lost, 0 tied" in page.text_content(".h2h-record")
    page.goto(f"{live_server.url}/ratings/?all=1")
    assert page.locator("table.ratings tbody tr").count() == 4
