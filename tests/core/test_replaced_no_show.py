"""A no-show a substitute replaced is listed as replaced, by whom, not as a player who
withdrew with no sets: in the standings, the results PDF and the standings CSV (the
public pages and the API: tests/public/test_replaced_no_show_pages.py and
tests/api/test_standings_replaced.py)."""

from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from core import printing, selectors, services
from core.standings import exports
from tests.fixtures import make_event, named_entries
from tests.substitutes import NAMES, NO_SHOW, play_round
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Errol Ferguson did not come: Jane Doe replaced him before round 1, which was
    then played out."""
    event = make_event(slug="kingston", rounds_planned=2)
    entries = named_entries(event, NAMES)
    services.substitute_entry(entry=entries[NO_SHOW], name="Jane Doe", club="Ocho Rios Club")
    play_round(event, 1)
    return event


def row_of(event: Event, name: str) -> selectors.StandingRow:
    return next(r for r in selectors.standings_after(event).rows if r.player.name == name)


def pdf_text(pdf: bytes) -> str:
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )


def test_the_standings_say_who_replaced_a_no_show_who_did_not_play(event):
    errol = row_of(event, "Errol Ferguson")
    assert errol.status == "withdrawn" and errol.sets_played == 0
    assert errol.replaced_by is not None and errol.replaced_by.name == "Jane Doe"
    assert errol.did_not_play
    assert errol.replaced_text == "did not play: replaced by Jane Doe"
    assert errol.status_text == "did not play"
    assert row_of(event, "Jane Doe").replaced_by is None


def test_a_player_who_withdrew_is_not_listed_as_replaced(event):
    lorna = Entry.objects.get(event=event, player__name="Lorna Bailey")
    services.withdraw_entry(entry=lorna)
    services.refresh_standings(event=event)
    event.refresh_from_db()
    row = row_of(event, "Lorna Bailey")
    assert row.status == "withdrawn" and row.replaced_by is None
    assert row.status_text == "withdrawn" and row.replaced_text == ""


def test_a_no_show_replaced_after_playing_keeps_their_sets_and_names_the_substitute(event):
    andre = Entry.objects.get(event=event, player__name="Andre Brown")
    services.substitute_entry(entry=andre, name="John Roe")
    play_round(event, 2)
    row = row_of(event, "Andre Brown")
    assert row.sets_played == 1 and not row.did_not_play
    assert row.replaced_text == "replaced by John Roe"
    assert row.status_text == "replaced"


def test_the_results_pdf_lists_the_no_show_as_replaced_not_withdrawn(event):
    text = pdf_text(printing.results_pdf(event=event))
    assert "Errol Ferguson (did not play: replaced by Jane Doe)" in text
    assert "(withdrawn)" not in text
    # No place, points or sets of his own: dashes, not a rank and 0 sets.
    assert "- Errol Ferguson" in text


def test_the_standings_csv_says_did_not_play_and_names_the_substitute(event):
    rows = list(csv.DictReader(io.StringIO(exports.standings_csv(event))))
    errol = next(r for r in rows if r["player"] == "Errol Ferguson")
    assert (errol["status"], errol["replaced_by"]) == ("did not play", "Jane Doe")
    assert {r["replaced_by"] for r in rows if r["player"] != "Errol Ferguson"} == {""}
