"""The public side of a series: its page (legs, leaderboard with dropped results
marked, the qualifying line, prizes), the link from each leg, a player's series
results; and an event's prizes on its page, its results PDF and its CSV export."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.test import Client
from pypdf import PdfReader

from core import printing, services
from core.standings import exports
from tests.core.test_series import leg
from tests.database import committed_once
from tests.fixtures import make_event, make_root
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def circuit_world(django_db_setup, django_db_blocker):
    """`make_circuit`, built once for the module (`committed_once`)."""
    yield from committed_once(django_db_blocker, lambda: make_circuit(make_root()))


@pytest.fixture
def circuit(circuit_world, transactional_db):
    return circuit_world()


def make_circuit(root):
    series = services.create_series(
        data={"slug": "circuit", "name": "Island Circuit", "season": "2027",
              "points_scale": [10, 6, 4, 3], "best_of": 1, "qualifiers": 2,
              "prizes": [{"place": 1, "amount": 500, "item": "cup"}]},
        by=root,
    )  # fmt: skip
    players = [Player.objects.create(name=name) for name in ("Ann", "Ben", "Cy", "Di")]
    leg(series, players, day=1, venue="Kingston")
    leg(series, [players[1], players[0], players[2], players[3]], day=2, venue="Ocho Rios")
    series.refresh_from_db()
    return series


def text(response) -> str:
    return " ".join(response.content.decode().split())


def test_the_series_page_shows_legs_standings_dropped_results_the_cut_and_prizes(circuit):
    page = text(Client().get("/series/circuit/"))
    assert "Island Circuit 2027" in page
    assert "Kingston" in page and "Ocho Rios" in page
    assert page.count("scored") >= 2
    assert '<span class="dropped" title="dropped">(6)</span>' in page  # each one's 2nd best
    assert "Qualifying line:" in page and "the 2 above go to the final" in page
    assert "500.00 and cup" in page
    # The cut follows the second row.
    assert page.index("Qualifying line") > page.index(">Ben<") and page.index(">Ann<")
    assert page.index("Qualifying line") < page.index(">Cy<")


def test_a_leg_links_to_its_series_and_a_player_shows_their_series(circuit):
    leg_page = text(Client().get("/events/leg-1/"))
    assert 'A leg of <a href="/series/circuit/">Island Circuit 2027</a>' in leg_page
    ann = Player.objects.get(name="Ann")
    player_page = text(Client().get(f"/players/{ann.pk}/"))
    assert "Series: <a" in player_page and "qualified for the final" in player_page
    assert "(dropped: not among the best 1)" in player_page


def test_a_private_series_is_not_found_by_the_public(circuit):
    services.update_series(series=circuit, data={"public": False})
    assert Client().get("/series/circuit/").status_code == 404
    assert Client().get("/series/nothing/").status_code == 404


def test_an_events_prizes_show_on_its_page_pdf_and_csv(circuit):
    from tournaments.models import Event

    event = Event.objects.get(slug="leg-1")
    services.update_event(
        event=event, data={"prizes": [{"place": 1, "amount": "100"}, {"place": 2, "item": "hat"}]}
    )
    event.refresh_from_db()
    page = text(Client().get("/events/leg-1/"))
    assert "Prizes" in page and "Ann</a>: 100.00" in page and "Ben</a>: hat" in page
    csv = exports.standings_csv(event).splitlines()
    assert csv[0].endswith(",prize")
    assert csv[1].endswith(",100.00") and csv[2].endswith(",hat") and csv[3].endswith(",")
    pdf = printing.results_pdf(event=event)
    words = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Prizes" in words and "1. Ann: 100.00" in words


def test_the_series_page_runs_as_many_queries_for_three_legs_as_for_two(circuit):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.get("/series/circuit/")  # warm whatever is cached per process
    with CaptureQueriesContext(connection) as two:
        assert client.get("/series/circuit/").status_code == 200
    players = [Player.objects.create(name=f"New {i}") for i in range(5)]
    leg(circuit, players, day=3)
    with CaptureQueriesContext(connection) as three:
        page = client.get("/series/circuit/")
    assert b"New 0" in page.content
    assert len(three) == len(two) <= 8


def test_a_series_prize_table_shows_before_any_leg_is_scored(root):
    services.create_series(
        data={"slug": "new-season", "name": "New Season",
              "prizes": [{"place": 2, "amount": 200}, {"place": 1, "amount": 500, "item": "cup"},
                         {"place": 3, "item": "a medal"}],
              "prize_ties": "share"},
        by=root,
    )  # fmt: skip
    page = text(Client().get("/series/new-season/"))
    assert "No leg has finished yet." in page
    prizes = page[page.index("Series prizes") :]
    assert '<li value="1">500.00 and cup</li>' in prizes and '<li value="2">200.00</li>' in prizes
    assert '<li value="3">a medal</li>' in prizes  # an item alone: no amount of 0.00
    assert "share the amounts of the places they cover" in prizes


def test_the_series_standings_download_as_csv_with_dropped_results_and_prizes(circuit):
    page = text(Client().get("/series/circuit/"))
    assert 'href="/series/circuit/standings.csv"' in page
    response = Client().get("/series/circuit/standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert {r["player"] for r in rows[:2]} == {"Ann", "Ben"}  # the two who qualify
    first = rows[0]
    assert first["rank"] == "1" and first["qualified"] == "yes"
    assert first["prize"] == "500.00 and cup"
    assert "(dropped)" in first["results"] and "points" in first["results"]
    assert rows[2]["qualified"] == "no" and rows[2]["prize"] == ""


def test_a_private_series_standings_csv_is_not_found_by_the_public(circuit):
    services.update_series(series=circuit, data={"public": False}, by=None)
    assert Client().get("/series/circuit/standings.csv").status_code == 404


def pdf_words(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_series_standings_print_with_legs_dropped_results_the_cut_and_prizes(circuit):
    page = text(Client().get("/series/circuit/"))
    assert 'href="/series/circuit/standings.pdf"' in page
    response = Client().get("/series/circuit/standings.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    words = pdf_words(response.content)
    assert "Island Circuit 2027" in words
    assert "2 legs - a player's best 1 count - the top 2 go to the final" in words
    assert "Kingston" in words and "Ocho Rios" in words and words.count("scored") == 2
    assert "Series standings" in words and "so far" not in words  # both legs are final
    assert "Results in brackets are dropped (not among a player's best 1)" in words
    # Each of Ann and Ben won one leg (10 points) and was second in the other (6, dropped).
    assert "Ann Q" in words and "Ben Q" in words and "Cy Q" not in words
    assert "(6) #2" in words and "10 #1" in words
    assert "500.00 and cup" in words and "1. 500.00 and cup" in words
    a4 = Client().get("/series/circuit/standings.pdf?paper=a4").content
    assert PdfReader(io.BytesIO(a4)).pages[0].mediabox.width < 600 < 612.5  # A4 is 595 wide
    assert Client().get("/series/circuit/standings.pdf?paper=folio").status_code == 404


def test_a_series_with_a_leg_to_come_prints_its_standings_so_far(root):
    series = services.create_series(data={"slug": "young", "name": "Young Circuit"}, by=root)
    words = pdf_words(Client().get("/series/young/standings.pdf").content)
    assert "No legs yet." in words and "No leg has finished yet." in words
    players = [Player.objects.create(name=name) for name in ("Ann", "Ben", "Cy", "Di")]
    leg(series, players, day=1)
    later = make_event(
        slug="later", name="Later Cup", starts_on=date(2027, 2, 1), status="registration"
    )
    services.add_leg(series=series, event=later)
    words = pdf_words(Client().get("/series/young/standings.pdf").content)
    assert "Series standings so far" in words
    assert "Later Cup" in words and words.count("scored") == 1 and "to come" in words


def test_a_private_series_standings_pdf_is_not_found_by_the_public(circuit):
    services.update_series(series=circuit, data={"public": False}, by=None)
    assert Client().get("/series/circuit/standings.pdf").status_code == 404
