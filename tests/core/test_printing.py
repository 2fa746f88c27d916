"""The PDFs a director prints: rendered for real, their text read back with pypdf, and
the score sheet's QR code decoded from the rendered page."""

from __future__ import annotations

import io
import re

import pypdfium2
import pytest
import zxingcpp
from django.test import Client
from pypdf import PdfReader

from core import printing
from game.rulesets import get_ruleset
from tests.core.shared_events import event_of, played_event_pk
from tests.fixtures import (
    kept_for_the_module,
    make_entries,
    make_event,
    make_round,
    make_user,
    named_entries,
)
from tests.html import signed_in
from tournaments.models import Player, Round, Seat

pytestmark = pytest.mark.django_db


def pages(pdf: bytes) -> list[str]:
    """Each page's text, whitespace collapsed."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def qr_codes(pdf: bytes, page: int = 0) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[page].render(scale=3).to_pil()
    finally:
        document.close()
    return [code.text for code in zxingcpp.read_barcodes(image)]


def in_order(text: str, parts: list[str]) -> bool:
    positions = [text.find(part) for part in parts]
    return -1 not in positions and positions == sorted(positions)


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> int:
    """A played event (its pk): made once for the module's tests that use it, which
    come after the one that makes an event "kingston" of its own."""
    yield from kept_for_the_module(django_db_blocker, played_event_pk)


@pytest.fixture
def event(kept, db):
    return event_of(kept)


def seating(round_: Round) -> dict[int, list[Seat]]:
    tables: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("table", "entry__player"):
        tables.setdefault(seat.table.number, []).append(seat)
    return {n: sorted(s, key=lambda seat: seat.position) for n, s in tables.items()}


def move_first_dealer(round_: Round, table: int, position: int) -> None:
    Seat.objects.filter(round=round_, table__number=table).update(first_dealer=False)
    Seat.objects.filter(round=round_, table__number=table, position=position).update(
        first_dealer=True
    )


def seat_lines(page: str, seats: list[Seat]) -> dict[int, str]:
    """The text of each seat's line on a table card: from "Seat n" to the next seat."""
    starts = [page.index(f"Seat {s.position} {s.entry.player.name}") for s in seats]
    ends = [*starts[1:], page.index("Seats are numbered clockwise")]
    return {s.position: page[a:b] for s, a, b in zip(seats, starts, ends, strict=True)}


def test_the_score_sheet_page_uses_the_sites_own_address():
    alice = make_user("alice")
    event = make_event(slug="kingston")
    event.directors.add(alice)
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    client = Client()
    client.force_login(alice)
    response = client.get("/director/kingston/toolkit/rounds/1/score-sheets.pdf")
    assert qr_codes(response.content) == ["http://testserver/events/kingston/rounds/1/tables/1/"]


def test_a_table_card_per_table_with_its_players_in_seat_order_and_first_dealer(event):
    round_ = event.rounds.get(number=2)
    move_first_dealer(round_, table=2, position=3)
    text = pages(printing.table_cards_pdf(event=event, round_=round_))
    tables = seating(round_)
    assert len(text) == len(tables) == 2
    for number, seats in tables.items():
        page = text[number - 1]
        assert f"Table {number}" in page
        assert "Round 2" in page
        assert in_order(page, [f"Seat {s.position} {s.entry.player.name}" for s in seats])
        lines = seat_lines(page, seats)
        dealers = [position for position, line in lines.items() if "deals first" in line]
        assert dealers == [next(s.position for s in seats if s.first_dealer)]
        others = [x.entry.player.name for t, s in tables.items() if t != number for x in s]
        assert not any(name in page for name in others)
    assert "deals first" in seat_lines(text[1], tables[2])[3]


def test_six_at_a_table_still_fit_one_card_each():
    event = make_event(name="Big Tables Open")
    round_ = make_round(event, table_sizes=(6, 6, 3))
    pdf = printing.table_cards_pdf(event=event, round_=round_)
    assert len(pages(pdf)) == 3


@pytest.mark.parametrize("ruleset", ["jamaica", "jamaica-12", "trinidad"])
def test_a_score_sheet_per_table_lists_each_hands_contract_and_cards_dealt(ruleset):
    event = make_event(slug=f"sheet-{ruleset}", ruleset=ruleset)
    round_ = make_round(event, table_sizes=(4, 5))
    text = pages(
        printing.score_sheets_pdf(event=event, round_=round_, base_url="https://k.example.org")
    )
    hands = get_ruleset(ruleset).hands
    assert len(text) == 2
    for number, page in enumerate(text, start=1):
        assert f"Round 1 - Table {number}" in page
        rows = [f"{h.number} {h.contract} {h.cards_dealt}" for h in hands]
        assert in_order(page, rows), (rows, page)
        # The last hand is the last row before the totals.
        assert page.split(rows[-1], 1)[1].lstrip().startswith("Total")
        assert "Out (seat)" in page and "Penalties" in page and "Total" in page
        # Trinidad has no down and out; its challenge is a penalty there.
        assert ("D&O" in page) == (ruleset != "trinidad")
        assert ("challenge" in page) == (ruleset == "trinidad")
    seats = seating(round_)
    for number, page in enumerate(text, start=1):
        assert in_order(page, [f"Seat {s.position} {s.entry.player.name}" for s in seats[number]])


def test_the_score_sheets_qr_code_decodes_to_the_tables_public_page(event):
    round_ = event.rounds.get(number=2)
    pdf = printing.score_sheets_pdf(event=event, round_=round_, base_url="https://k.example.org/")
    assert qr_codes(pdf, 0) == ["https://k.example.org/events/kingston/rounds/2/tables/1/"]
    assert qr_codes(pdf, 1) == ["https://k.example.org/events/kingston/rounds/2/tables/2/"]
    # The address is printed too, for a phone that cannot scan.
    printed = "".join(pages(pdf)[1].split())
    assert "https://k.example.org/events/kingston/rounds/2/tables/2/" in printed


def test_commands_fall_back_to_site_url_then_localhost(settings):
    settings.SITE_URL = "https://kalooki.example.org/"
    assert printing.default_base_url() == "https://kalooki.example.org"
    settings.SITE_URL = ""
    assert printing.default_base_url() == "http://127.0.0.1:8000"


def test_a_draft_seating_is_marked_as_such():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,), status=Round.Status.DRAFT)
    assert "DRAFT SEATING" in pages(printing.table_cards_pdf(event=event, round_=round_))[0]
    published = make_round(make_event(), table_sizes=(4,))
    text = pages(printing.table_cards_pdf(event=published.event, round_=published))[0]
    assert "DRAFT" not in text


def test_names_print_as_written_and_a_letter_the_font_lacks_as_a_question_mark():
    assert printing.printable("Zoë Łukasz Ðorđe 山田") == "Zoë Łukasz Ðorđe ??"
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    Player.objects.filter(pk=round_.seats.get(position=1).entry.player_id).update(
        name="Łukasz <Ünal> & Co"
    )
    text = pages(printing.table_cards_pdf(event=event, round_=round_))[0]
    assert "Łukasz <Ünal> & Co" in text


def test_the_results_list_players_in_rank_order(event):
    round1 = event.rounds.get(number=1)
    text = " ".join(pages(printing.results_pdf(event=event)))
    assert "Kingston Kalooki Open" in text
    assert "Standings after round 2 (provisional)" in text
    standings = list(event.standings.filter(round__number=2).order_by("rank"))
    assert len(standings) == 9
    assert in_order(text, [s.entry.player.name for s in standings])
    assert "(withdrawn)" in text
    assert round1.status == Round.Status.CLOSED


def test_results_are_final_only_once_the_director_finishes_the_event(event):
    from core.services import close_round, finish_event, refresh_standings

    round2 = event.rounds.get(number=2)
    close_round(round=round2, force=True)
    refresh_standings(event=event)
    event.refresh_from_db()
    text = " ".join(pages(printing.results_pdf(event=event)))
    # A forced close used to print "Final results" without a word about it.
    assert "Final results" not in text and "Standings after round 2 (provisional)" in text
    assert "In round 2, hands not played at tables 1, 2 were scored from the field" in text
    finish_event(event=event)
    event.refresh_from_db()
    text = " ".join(pages(printing.results_pdf(event=event)))
    assert "Final results" in text and "provisional" not in text
    assert "In round 2, hands not played at tables 1, 2 were scored from the field" in text
    # The withdrawn player's set says why it is incomplete, beside their name; the
    # others' adjusted hands say their score and its rule.
    assert "round 2, table 1: 2 of 9 hands (withdrew)" in text
    assert "round 2, table 2: hand 9 adjusted:" in text and "the field's mean" in text


def test_an_event_without_standings_says_so():
    text = pages(printing.results_pdf(event=make_event(name="Empty Open")))[0]
    assert "No results yet" in text


def test_rendering_a_rounds_pdfs_runs_a_fixed_number_of_queries(
    event, django_assert_max_num_queries
):
    round_ = event.rounds.get(number=1)
    # The seating (3), and the event's namesakes, to tell them apart.
    with django_assert_max_num_queries(4):
        printing.table_cards_pdf(event=event, round_=round_)
    with django_assert_max_num_queries(4):
        printing.score_sheets_pdf(event=event, round_=round_, base_url="http://x")
    # The standings (2), and whether a substitute replaced the player who withdrew.
    with django_assert_max_num_queries(3):
        printing.results_pdf(event=event)


def test_pdf_metadata_names_the_event(event):
    pdf = printing.results_pdf(event=event)
    assert PdfReader(io.BytesIO(pdf)).metadata.title == "Kingston Kalooki Open: results"
    assert re.search(rb"/BaseFont /Helvetica", pdf)


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


def test_the_results_print_their_time_in_the_footer_not_on_a_page_alone(event):
    text = pages(printing.results_pdf(event=event))
    assert len(text) == 1
    assert "results - printed" in text[0] and "page 1" in text[0]


def test_the_dashboard_prints_find_your_table_and_the_standings(event, alice, bob):
    event.directors.add(alice)
    page = signed_in(alice).get(f"/director/{event.slug}/").content.decode()
    url = f"/director/{event.slug}/toolkit/rounds/2/find-your-table.pdf"
    assert f'href="{url}"' in page and "Current standings (PDF)" in page
    response = signed_in(alice).get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert signed_in(bob).get(url).status_code == 404
