"""A disputed hand in Chromium, every page phone-sized (390x844): Andre enters hand 1;
Beverley's phone, open on the same hand, says it was entered and then disputed before
she sends anything; Carlton disputes it and gives his own version; the director sees
both versions on the sheet and records Carlton's in one action; the director's other
tab and the players' phones then say the hand is recorded, by themselves."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core import services
from tests.fixtures import codes_of, hand, make_entries, make_event, make_round, make_user
from tournaments.models import Event, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)
LIVE_TIMEOUT = 15_000  # the pages poll every 3 to 5 s (every second in the tests)
NAMES = ["Andre", "Beverley", "Carlton", "Delroy"]


@pytest.fixture
def codes():
    """Players enter at this event: one table of four, round 1 published."""
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open", table_entry=Event.TableEntry.PLAYERS)
    event.directors.add(alice)
    entries = make_entries(event, 4)
    for entry, name in zip(entries, NAMES, strict=True):
        entry.player.name = name
        entry.player.save()
    round_ = make_round(event, table_sizes=(4,), entries=entries)
    services.refresh_standings(event=event)
    return codes_of(round_)


def entry_url(live_server) -> str:
    return f"{live_server.url}/events/kingston/rounds/1/tables/1/enter/"


def phone(new_page, live_server, code: str):
    page = new_page(*PHONE)
    page.goto(f"{entry_url(live_server)}?code={code}")
    expect(page.locator("#who")).to_contain_text("You are seat")
    return page


def sheet_row(page, seat: int):
    """Hand 1's score of `seat` on a phone's copy of the table's sheet."""
    return page.locator("#sheet tr[data-hand='1'] td").nth(seat - 1)


def test_a_dispute_with_the_players_version_is_settled_by_the_director(
    live_server, new_page, codes
):
    # Beverley's phone is open first, on hand 1's form.
    beverley = phone(new_page, live_server, codes[(1, 2)])
    expect(beverley.locator("#hand-form")).to_have_attribute("data-hand", "1")
    send = beverley.locator("#hand-form button.primary")

    andre = phone(new_page, live_server, codes[(1, 1)])
    for seat, value in {1: "", 2: "10", 3: "20", 4: "30"}.items():
        andre.fill(f"#seat{seat}", value)
    andre.check("input[name=went_out][value='1']")
    andre.locator("#hand-form button.primary").click()
    expect(andre.locator(".flash")).to_contain_text("Hand 1 is entered")

    # Before Beverley types anything, her form says hand 1 was entered meanwhile.
    note = beverley.locator("#form-now")
    expect(note).to_contain_text("Hand 1 was entered meanwhile by seat 1", timeout=LIVE_TIMEOUT)
    expect(send).to_be_enabled()

    # Carlton reads that he may enter it again instead, and disputes it in one tap.
    carlton = phone(new_page, live_server, codes[(1, 3)])
    card = carlton.locator("#proposal-1")
    expect(card.locator("#choices-1")).to_contain_text("enter the hand again instead of disputing")
    card.get_by_role("button", name="Dispute").click()
    expect(carlton.locator(".flash")).to_contain_text("You may give the director your version")
    expect(card).to_contain_text("the director decides this hand")
    expect(card.locator(".actions")).to_have_count(0)

    # He gives his own version: the form holds the entry, he changes seat 4's score.
    card.get_by_role("link", name="Give the director your version of hand 1").click()
    form = carlton.locator("#hand-form")
    expect(form.locator("legend").first).to_contain_text("Your version of hand 1, for the director")
    expect(carlton.locator("#seat4")).to_have_value("30")
    carlton.fill("#seat4", "35")
    form.get_by_role("button", name="Send my version to the director").click()
    expect(carlton.locator(".flash")).to_contain_text("Hand 1 is disputed, with your version")
    expect(card).to_contain_text("Your version")

    # Beverley's form now says it is disputed, and sends nothing.
    expect(note).to_contain_text("Hand 1 was disputed meanwhile (by seat 3)", timeout=LIVE_TIMEOUT)
    expect(send).to_be_disabled()

    # The director sees both versions on the sheet, in two tabs.
    director = new_page(*PHONE)
    sheet_url = live_server.url + "/director/kingston/rounds/1/tables/1/"
    director.goto(sheet_url)
    director.fill("#id_username", "alice")
    director.fill("#id_password", "pw")
    director.locator("button[type=submit]").click()
    director.wait_for_url(sheet_url)
    other_tab = director.context.new_page()
    other_tab.goto(sheet_url)
    expect(other_tab.locator("#entry-1")).to_contain_text("disputed by seat 3 · Carlton")

    entry = director.locator("#entry-1")
    expect(entry).to_contain_text("Entered by seat 1 · Andre")
    theirs = entry.locator(".version[data-which='disputed']")
    expect(theirs).to_contain_text("Disputed by seat 3 · Carlton")
    expect(theirs.locator("tr[data-seat='4'] .score")).to_have_text("35")
    theirs.get_by_role("button", name="Record this version").click()
    expect(director.locator("#flash")).to_contain_text(
        "Hand 1 recorded: the disputing player's version"
    )
    expect(director.locator("#entry-1")).to_have_count(0)
    expect(director.locator("#player-entries-settled")).to_contain_text("the dispute is settled")
    expect(director.locator("#h1-s4")).to_have_value("35")

    # The other tab's panel refreshes by itself: the dispute is settled, no stale button.
    expect(other_tab.locator("#player-entries-settled")).to_contain_text(
        "Hand 1 is recorded (version 1, saved by alice): the dispute is settled",
        timeout=LIVE_TIMEOUT,
    )
    expect(other_tab.locator("#entry-1")).to_have_count(0)

    # The players' phones say the hand is recorded, by themselves.
    for player in (andre, carlton):
        expect(player.locator("#settled")).to_contain_text(
            "Hand 1 is recorded: the director settled the dispute", timeout=LIVE_TIMEOUT
        )
        expect(sheet_row(player, 4)).to_have_text("35")
        expect(player.locator("#proposal-1")).to_have_count(0)
    expect(note).to_contain_text("Hand 1 was recorded meanwhile", timeout=LIVE_TIMEOUT)
    assert beverley.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


def test_the_panel_follows_a_row_saved_on_the_sheet_at_once(live_server, new_page, codes, settings):
    """Not by its poll (once a minute here): the sheet asks the panel again as soon as the
    row is saved."""
    settings.DIRECTOR_ENTRIES_POLL_SECONDS = 60
    table = Table.objects.get(round__number=1, number=1)
    services.propose_hand(table=table, number=1, entry=hand(2, 4), code=codes[(1, 1)], client="x")
    services.dispute_proposal(table=table, number=1, code=codes[(1, 3)], client="x")
    director = new_page(*PHONE)
    sheet_url = live_server.url + "/director/kingston/rounds/1/tables/1/"
    director.goto(sheet_url)
    director.fill("#id_username", "alice")
    director.fill("#id_password", "pw")
    director.locator("button[type=submit]").click()
    director.wait_for_url(sheet_url)
    expect(director.locator("#entry-1")).to_contain_text("disputed by seat 3 · Carlton")

    for seat, points in {1: "11", 2: "12", 3: "13", 4: "0"}.items():
        director.fill(f"#h1-s{seat}", points)
    director.select_option("select[name=went_out][form=hand-1-form]", "4")
    director.locator("#h1-s1").press("Enter")
    expect(director.locator("#hand-1")).to_have_attribute("data-state", "saved")
    expect(director.locator("#player-entries-settled")).to_contain_text(
        "the dispute is settled", timeout=5_000
    )
    expect(director.locator("#entry-1")).to_have_count(0)
