"""Issue 15's prints: a round's "find your table" list A to Z, and the results (the
current standings) with the time printed in the footer, never on a page of its own."""

from __future__ import annotations

import pytest

from core import printing
from tests.core.test_printing import pages
from tests.fixtures import make_event, make_round, named_entries, played_event
from tests.html import signed_in
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_find_your_table_lists_every_player_a_to_z_with_table_and_seat():
    event = make_event(slug="findme", name="Find Me Open")
    names = ["zed Young", "Anna Brown", "Mark Clarke", "Beth Allen", "Carl Dunn", "Ivy Hall"]
    entries = named_entries(event, names)
    round_ = make_round(event, table_sizes=(3, 3), entries=entries)
    text = pages(printing.find_your_table_pdf(event=event, round_=round_))
    assert len(text) == 1
    page = text[0]
    assert "Find Me Open: round 1" in page and "Find your table: players A to Z" in page
    order = sorted(names, key=str.casefold)
    positions = [page.find(n) for n in order]
    assert -1 not in positions and positions == sorted(positions)
    # zed Young is the first seat of table 1; Beth Allen the first of table 2.
    assert "zed Young 1 1" in page and "Beth Allen 2 1" in page


def test_a_draft_is_marked_on_the_find_your_table_list():
    event = make_event(slug="drafty")
    round_ = make_round(event, table_sizes=(4,), status=Round.Status.DRAFT)
    assert "DRAFT SEATING" in pages(printing.find_your_table_pdf(event=event, round_=round_))[0]


def test_the_results_print_their_time_in_the_footer_not_on_a_page_alone():
    event = played_event()
    text = pages(printing.results_pdf(event=event))
    assert len(text) == 1
    assert "results - printed" in text[0] and "page 1" in text[0]


def test_the_dashboard_prints_find_your_table_and_the_standings(alice, bob):
    event = played_event(director=alice)
    page = signed_in(alice).get(f"/director/{event.slug}/").content.decode()
    url = f"/director/{event.slug}/toolkit/rounds/2/find-your-table.pdf"
    assert f'href="{url}"' in page and "Current standings (PDF)" in page
    response = signed_in(alice).get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert signed_in(bob).get(url).status_code == 404
