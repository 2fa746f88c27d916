"""Player slips: one per seated player with their name, table, seat and code, and a QR
code that opens their table's entry page with the code filled in (decoded from the
rendered page)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client

from core import printing
from core.table_entry.codes import shown
from tests.core.test_printing import pages, qr_codes
from tests.fixtures import codes_of, make_world
from tests.html import Page, signed_in
from tournaments.models import Event, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def w():
    """Two tables of four in round 1, one of them named so a slip can be read."""
    return make_world(table_entry=Event.TableEntry.PLAYERS)


def test_a_slip_per_player_with_table_seat_and_code(w):
    codes = codes_of(w.round)
    pdf = printing.player_slips_pdf(event=w.event, round_=w.round, base_url="https://k.example")
    text = " ".join(pages(pdf))
    assert len(pages(pdf)) == 1  # eight slips to a page
    for seat in Seat.objects.filter(round=w.round).select_related("table", "entry__player"):
        place = f"Table {seat.table.number} · Seat {seat.position}"
        found = text.index(place)
        code = shown(codes[(seat.table.number, seat.position)])
        assert text.index(seat.entry.player.name, found) < text.index(code, found)


def test_each_qr_code_opens_its_table_with_the_code_filled_in(w):
    codes = codes_of(w.round)
    pdf = printing.player_slips_pdf(event=w.event, round_=w.round, base_url="https://k.example")
    decoded = qr_codes(pdf)
    expected = {
        f"https://k.example/events/kingston/rounds/1/tables/{t}/enter/?code={code}"
        for (t, _), code in codes.items()
    }
    assert set(decoded) == expected and len(decoded) == 8


def test_the_qr_code_signs_the_player_in(w):
    codes_of(w.round)
    pdf = printing.player_slips_pdf(event=w.event, round_=w.round, base_url="http://testserver")
    url = urlparse(sorted(qr_codes(pdf))[0])
    phone = Client()
    response = phone.get(url.path, {"code": parse_qs(url.query)["code"][0]})
    assert response.status_code == 302
    assert Page(phone.get(url.path).content).text("who").startswith("You are seat")


def test_a_draft_round_has_no_codes_to_print_yet(w):
    w.round.status = "draft"
    w.round.save()
    text = " ".join(pages(printing.player_slips_pdf(event=w.event, round_=w.round, base_url="x")))
    assert "not published yet" in text


def test_directors_print_them_from_the_toolkit_and_nobody_else(w):
    url = "/director/kingston/toolkit/rounds/1/player-slips.pdf"
    codes_of(w.round)
    response = signed_in(w.alice).get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    assert signed_in(w.bob).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the sign-in page


@pytest.mark.parametrize(
    ("entry", "says", "not_said"),
    [
        ("players", "Scan the QR code to enter your table's hands", "The directors enter"),
        ("directors", "The directors enter the hands at this event", "enter your table's hands"),
    ],
)
def test_a_slip_says_what_its_code_is_for_at_this_event(w, entry, says, not_said):
    Event.objects.filter(pk=w.event.pk).update(table_entry=entry)
    w.event.refresh_from_db()
    codes_of(w.round)
    pdf = printing.player_slips_pdf(event=w.event, round_=w.round, base_url="https://k.example")
    text = " ".join(" ".join(pages(pdf)).split())
    assert says in text and not_said not in text
