"""Two players of one name are told apart on the director's pages, on every paper
printed for the event and in its CSV exports: by their club, and by a number where the
club is the same too (tests/namesakes.py)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.fixtures import make_user
from tests.html import signed_in
from tests.namesakes import SHOWN, namesakes_event, seat_round_2

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def event(alice):
    return namesakes_event(director=alice)


@pytest.fixture
def director(alice):
    return signed_in(alice)


def text_of(pdf: bytes) -> str:
    """The document's text, whitespace collapsed (a name wrapped in its cell reads as one)."""
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )


def names_all(text: str) -> bool:
    return all(name in text for name in SHOWN)


def get(client, name: str, *args) -> bytes:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, name
    return response.content


def test_the_dashboard_names_them_apart_in_its_tables_and_its_lists(event, director):
    seat_round_2(event)
    html = get(director, "director:event", event.slug).decode()
    assert html.count("Andre Brown (Kingston Kalooki Club, 2)") >= 3  # tables, lists, selects
    assert names_all(html)


def test_the_sheet_and_the_players_codes_name_them_apart(event, director):
    assert names_all(get(director, "director:sheet", event.slug, 1, 1).decode())
    seat_round_2(event)
    assert names_all(get(director, "director:round-codes", event.slug, 2).decode())


def test_the_toolkit_lists_the_entered_players_apart(event, director):
    assert names_all(get(director, "toolkit-index", event.slug).decode())


def test_the_results_pdf_names_them_apart(event, director):
    assert names_all(text_of(get(director, "toolkit-results", event.slug)))


def test_a_rounds_papers_name_them_apart(event, director):
    seat_round_2(event)
    for paper in (
        "toolkit-table-cards",
        "toolkit-score-sheets",
        "toolkit-find-table",
        "toolkit-player-slips",
    ):
        assert names_all(text_of(get(director, paper, event.slug, 2))), paper


def test_the_csv_exports_name_them_apart(event, director):
    standings = csv.DictReader(
        io.StringIO(get(director, "toolkit-standings-csv", event.slug).decode())
    )
    rows = list(standings)
    assert sorted(r["player"] for r in rows if r["player"].startswith("Andre")) == sorted(SHOWN)
    hands = csv.DictReader(io.StringIO(get(director, "toolkit-hands-csv", event.slug).decode()))
    assert {r["player"] for r in hands if r["player"].startswith("Andre")} == set(SHOWN)
