"""Tie notes on the leaderboard, the projector and the results PDF."""

from __future__ import annotations

import pytest
from django.test import Client

from core import printing, services
from game.rules import HandEntry, SeatEntry
from tests.core.test_printing import pages
from tests.fixtures import make_world
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def scored(out: int, points: dict[int, int]) -> HandEntry:
    return HandEntry(
        went_out=out, scores=tuple(SeatEntry(seat=s, points=p) for s, p in points.items())
    )


@pytest.fixture
def tied():
    """Seats 1 and 2 of table 1 both on 10 points; seat 2 went out twice, seat 1 once."""
    w = make_world(table_sizes=(4,))
    services.record_hand(table=w.table, number=1, entry=scored(1, {2: 10, 3: 20, 4: 30}))
    services.record_hand(table=w.table, number=2, entry=scored(2, {1: 5, 3: 20, 4: 30}))
    services.record_hand(table=w.table, number=3, entry=scored(2, {1: 5, 3: 20, 4: 30}))
    services.refresh_standings(event=w.event)
    w.event.refresh_from_db()
    names = {
        s.position: s.entry.player.name
        for s in Seat.objects.filter(table=w.table).select_related("entry__player")
    }
    return w, names


def test_the_leaderboard_and_the_projector_say_which_tiebreak_separated_a_tie(tied):
    w, names = tied
    above = f"Above {names[1]} (level on 10 points): hands won, 2 to 1."
    below = f"Below {names[2]} (level on 10 points): hands won, 2 to 1."
    page = Client().get(f"/events/{w.event.slug}/").content.decode()
    assert above in page and below in page
    projector = Client().get(f"/events/{w.event.slug}/projector/").content.decode()
    assert above in projector


def test_the_results_pdf_says_it_too(tied):
    w, names = tied
    text = pages(printing.results_pdf(event=w.event))[0]
    assert f"Above {names[1]} (level on 10 points): hands won, 2 to 1." in text
