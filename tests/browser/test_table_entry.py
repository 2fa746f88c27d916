"""Entry at the table in Chromium, on phone-sized screens: player A enters hand 1 with
the code from their slip, player B confirms it in one tap, and the public leaderboard
shows the new totals by itself; a disputed hand appears on the director's dashboard,
opens on the sheet with the entered version, and the director's correction wins (the
sheet's panel then says the dispute is settled)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core import services
from tests.fixtures import codes_of, make_entries, make_event, make_round, make_user
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)
LIVE_TIMEOUT = 15_000  # the pages poll every 3 to 5 s (every second in the tests)
NAMES = ["Andre", "Beverley", "Carlton", "Delroy"]


@pytest.fixture
def kingston():
    """Players enter at this event: one table of four, round 1 published, codes given."""
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open", table_entry=Event.TableEntry.PLAYERS)
    event.directors.add(alice)
    entries = make_entries(event, 4)
    for entry, name in zip(entries, NAMES, strict=True):
        entry.player.name = name
        entry.player.save()
    round_ = make_round(event, table_sizes=(4,), entries=entries)
    services.refresh_standings(event=event)  # the round's live standings, all at 0
    return event, codes_of(round_)


def table_entry_url(live_server) -> str:
    return f"{live_server.url}/events/kingston/rounds/1/tables/1/enter/"


def phone(new_page, live_server, code: str):
    """A player's phone, opened from the QR code on their slip."""
    page = new_page(*PHONE)
    page.goto(f"{table_entry_url(live_server)}?code={code}")
    expect(page.locator("#who")).to_contain_text("You are seat")
    return page


def enter_hand(page, boxes: dict[int, str], went_out: int) -> None:
    for seat, value in boxes.items():
        page.fill(f"#seat{seat}", value)
    page.check(f"input[name=went_out][value='{went_out}']")
    page.locator("#hand-form button.primary").click()


def test_a_player_enters_another_confirms_and_the_leaderboard_follows(
    live_server, new_page, kingston
):
    _, codes = kingston
    spectator = new_page(*PHONE)
    spectator.goto(f"{live_server.url}/events/kingston/")
    board = spectator.locator("#leaderboard")
    version = board.get_attribute("data-version")

    andre = phone(new_page, live_server, codes[(1, 1)])
    assert andre.evaluate("document.documentElement.scrollWidth") <= PHONE[0]  # no sideways
    enter_hand(andre, {1: "", 2: "23", 3: "JK AS 10H 7D", 4: "41"}, went_out=1)
    expect(andre.locator(".flash")).to_contain_text("Hand 1 is entered")
    expect(andre.locator("#proposal-1")).to_contain_text("Waiting for another player")

    beverley = phone(new_page, live_server, codes[(1, 2)])
    card = beverley.locator("#proposal-1")
    expect(card).to_contain_text("entered by seat 1 · Andre")
    # Exactly what will be recorded, seat by seat: Carlton's cards are counted.
    expect(card.locator("tr[data-seat='3'] .score")).to_have_text("82")
    expect(card.locator("tr[data-seat='1']")).to_contain_text("went out")
    card.get_by_role("button", name="Confirm hand 1").click()
    expect(beverley.locator(".flash")).to_contain_text("Hand 1 is recorded.")
    expect(beverley.locator("#sheet tr[data-hand='1'] td").nth(2)).to_have_text("82")

    # The spectator's leaderboard changes by itself: Andre went out, Beverley has 23.
    expect(board).not_to_have_attribute("data-version", version or "", timeout=LIVE_TIMEOUT)
    first = board.locator("tbody tr").first
    expect(first.locator("th.name")).to_have_text("Andre")
    expect(first.locator("td.points")).to_have_text("0")
    expect(board.locator("tbody tr").nth(1).locator("td.points")).to_have_text("23")
    # And Andre's own phone shows the hand recorded, without a reload.
    expect(andre.locator("#sheet tr[data-hand='1'] td").nth(3)).to_have_text(
        "41", timeout=LIVE_TIMEOUT
    )


def test_a_disputed_hand_reaches_the_director_whose_correction_wins(
    live_server, new_page, kingston
):
    _, codes = kingston
    director = new_page(*PHONE)
    director.goto(live_server.url + "/director/kingston/rounds/1/")
    director.fill("#id_username", "alice")
    director.fill("#id_password", "pw")
    director.locator("button[type=submit]").click()
    director.wait_for_url("**/director/kingston/rounds/1/")
    panel = director.locator("#table-entries")
    expect(panel).to_contain_text("0 disputed")

    andre = phone(new_page, live_server, codes[(1, 1)])
    enter_hand(andre, {1: "", 2: "10", 3: "20", 4: "30"}, went_out=1)
    carlton = phone(new_page, live_server, codes[(1, 3)])
    carlton.locator("#proposal-1").get_by_role("button", name="Dispute").click()
    expect(carlton.locator("#proposal-1")).to_contain_text("the director decides")
    expect(carlton.locator("#proposal-1 .actions")).to_have_count(0)

    # The director's dashboard shows it by itself, and opens it on the sheet.
    expect(panel).to_contain_text("1 disputed", timeout=LIVE_TIMEOUT)
    panel.get_by_role("link", name="hand 1").click()
    entry = director.locator("#entry-1")
    expect(entry).to_contain_text("disputed by seat 3 · Carlton")
    expect(entry).to_contain_text("Entered by seat 1 · Andre")
    expect(entry).to_contain_text("Disputed by seat 3 · Carlton")

    # The director types the correction in the sheet's row and saves it.
    director.fill("#h1-s1", "0")
    director.fill("#h1-s2", "10")
    director.fill("#h1-s3", "20")
    director.fill("#h1-s4", "35")
    director.select_option("select[name=went_out][form=hand-1-form]", "1")
    director.locator("#h1-s4").press("Enter")
    expect(director.locator("#hand-1")).to_have_attribute("data-state", "saved")
    # The panel above follows: the dispute is settled, and no stale button is left.
    expect(director.locator("#player-entries-settled")).to_contain_text(
        "Hand 1 is recorded (version 1, saved by alice): the dispute is settled"
    )
    expect(director.locator("#entry-1")).to_have_count(0)

    # The players' page shows the director's hand; the dispute is gone everywhere.
    expect(andre.locator("#sheet tr[data-hand='1'] td").nth(3)).to_have_text(
        "35", timeout=LIVE_TIMEOUT
    )
    expect(andre.locator("#proposal-1")).to_have_count(0)
    director.goto(live_server.url + "/director/kingston/rounds/1/")
    expect(director.locator("#table-entries")).to_contain_text("0 disputed")
    # A player can no longer enter the hand: the page shows it recorded instead.
    andre.goto(table_entry_url(live_server) + "?hand=1")
    expect(andre.locator("#recorded")).to_contain_text("Hand 1 is already recorded")
