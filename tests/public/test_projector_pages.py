"""The projector's pages from the server: a projector asks for the page it shows, as
many rows as its screen holds, so a national championship's 4,096 rows are never
rendered to show 20 of them."""

from __future__ import annotations

import re

import pytest

from public import projector
from tests.fixtures import make_entries, make_event, ranked_event
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def national():
    return ranked_event(47)


def ranks(html: str) -> list[int]:
    return [int(rank) for rank in re.findall(r'<tr class="[a-z]+" data-rank="(\d+)"', html)]


def section(html: str) -> dict[str, str]:
    opening = re.search(r"<section [^>]*data-projector[^>]*>", html).group(0)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', opening))


def test_a_page_load_shows_the_first_page_of_the_default_size(client, national):
    html = client.get("/events/national/projector/").content.decode()
    assert ranks(html) == list(range(1, projector.PROJECTOR_ROWS + 1))
    shown = section(html)
    assert (shown["page"], shown["pages"], shown["per"], shown["total"]) == ("1", "3", "20", "47")
    assert shown["turn-url"] == "/events/national/projector/live/?rows=20"


def test_the_projector_asks_for_the_page_it_shows_in_rows_that_fit_its_screen(client, national):
    html = client.get("/events/national/projector/live/?rows=12&page=3").content.decode()
    assert ranks(html) == list(range(25, 37))
    assert (section(html)["page"], section(html)["pages"]) == ("3", "4")
    # Its poll keeps that page and size, and carries the versions it shows.
    poll = re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert "page=3" in poll and "rows=12" in poll and "v=" in poll
    assert client.get(poll).status_code == 204
    last = client.get("/events/national/projector/live/?rows=12&page=4").content.decode()
    assert ranks(last) == list(range(37, 48))


def test_a_page_past_the_last_shows_the_last_and_sizes_are_bounded(client, national):
    html = client.get("/events/national/projector/live/?rows=10&page=99").content.decode()
    assert ranks(html) == list(range(41, 48))
    assert section(html)["page"] == "5"
    tiny = client.get("/events/national/projector/live/?rows=1").content.decode()
    assert len(ranks(tiny)) == 5 and section(tiny)["per"] == "5"
    for odd in ("rows=abc", "rows=-3", "page=0", "page=1e9", "rows=99999999999"):
        response = client.get(f"/events/national/projector/live/?{odd}")
        assert response.status_code == 200, odd
        assert 5 <= len(ranks(response.content.decode())) <= projector.PROJECTOR_ROWS_MOST


def test_without_a_script_the_pages_are_links(client, national):
    html = client.get("/events/national/projector/?page=2&rows=20").content.decode()
    assert ranks(html) == list(range(21, 41))
    turn = re.search(r"<noscript>(.*?)</noscript>", html, re.S).group(1)
    assert 'href="/events/national/projector/?page=1&amp;rows=20" rel="prev"' in turn
    assert 'href="/events/national/projector/?page=3&amp;rows=20" rel="next"' in turn


def test_the_field_pages_without_the_withdrawn(client):
    event = make_event(slug="field", name="Field Day")
    entries = make_entries(event, 9)
    Entry.objects.filter(pk__in=[e.pk for e in entries[:3]]).update(status=Entry.Status.WITHDRAWN)
    html = client.get("/events/field/projector/live/?rows=5&page=2").content.decode()
    assert section(html)["phase"] == "field"
    assert section(html)["pages"] == "2"
    assert len(re.findall(r"<li><span class=\"name\">", html)) == 1
