"""The venue screens in Chromium: a director runs the round clock and the announcements
from the dashboard with the keyboard; the projector and a table's page follow by
themselves and agree on the time; the seating board gives way to the standings at the
first hand; a projector that loses the network says it is showing old data."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from core import services
from game.rules import HandEntry, SeatEntry
from tests.browser.test_director_sheet import sign_in
from tests.browser.waiting import wait_until
from tests.fixtures import make_event, make_round, make_user, named_entries
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The live pages poll every settings.PUBLIC_POLL_SECONDS (3 s; 1 s in the tests): a
# page shows a change within a poll or two, and waits no longer than it takes.
LIVE_TIMEOUT = 15_000
NAMES = ["Omar", "Lorna", "Kemar", "Andre", "Yvonne", "Beverley", "Carlton", "Delroy"]


def kingston(status: str = Round.Status.PUBLISHED):
    """Alice's event: eight players at two tables in round 1."""
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(make_user("alice"))
    make_round(event, table_sizes=(4, 4), entries=named_entries(event, NAMES), status=status)
    return event


def clock(page, label: str):
    return page.locator(f'[data-clock][aria-label="{label}: time left"]')


def seconds_left(page, label: str) -> int:
    text = clock(page, label).locator("[data-clock-time]").inner_text()
    assert re.fullmatch(r"(\d+:)?\d+:\d\d", text), text
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def counts_below(page, label: str, seconds: int, timeout: int = 5_000) -> None:
    """Wait until `label`'s clock on `page` shows less than `seconds` left."""
    wait_until(
        page,
        """([label, seconds]) => {
            const time = document.querySelector(
                `[data-clock][aria-label="${label}: time left"] [data-clock-time]`);
            if (!time) return false;
            const total = time.textContent.split(":").reduce((t, part) => t * 60 + Number(part), 0);
            return total < seconds;
        }""",
        arg=[label, seconds],
        timeout=timeout,
    )


def agree(projector, table_page, label: str = "Table 2") -> int:
    """The projector's clock for table 2 and table 2's own page, read together."""
    a = seconds_left(projector, label)
    b = seconds_left(table_page, "Table 2")
    assert abs(a - b) <= 1, (a, b)
    return b


def dashboard(new_page, live_server):
    director = new_page(1280, 1000)
    sign_in(director, live_server)
    director.goto(f"{live_server.url}/director/kingston/")
    return director


def settled(page) -> None:
    """The page loaded, so its own autofocus (the dashboard's "Go to table") has run and
    cannot take the focus from the box a director is about to type into."""
    page.wait_for_load_state("load")


def type_into(page, selector: str, text: str) -> None:
    """Focus a box, replace what it holds and press Enter: the keyboard alone."""
    settled(page)
    page.focus(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def press(page, selector: str) -> None:
    settled(page)
    page.focus(selector)
    page.keyboard.press("Enter")


def test_the_clock_started_extended_paused_and_resumed_agrees_on_projector_and_table(
    live_server, new_page
):
    kingston()
    projector = new_page(1280, 720)
    projector.goto(f"{live_server.url}/events/kingston/projector/")
    table = new_page(390, 844)
    table.goto(f"{live_server.url}/events/kingston/rounds/1/tables/2/")
    expect(clock(projector, "Round 1")).to_have_attribute("data-state", "stopped")
    expect(clock(table, "Table 2").locator("[data-clock-time]")).to_have_text("1:30:00")
    table.evaluate("window.__loadedOnce = 'still the same page'")

    director = dashboard(new_page, live_server)
    type_into(director, "#clock-minutes", "45")
    expect(director.locator(".flash")).to_contain_text("The clock is started: 45 minutes")
    expect(clock(projector, "Round 1")).to_have_attribute(
        "data-state", "running", timeout=LIVE_TIMEOUT
    )
    expect(clock(table, "Table 2")).to_have_attribute("data-state", "running", timeout=LIVE_TIMEOUT)
    assert 44 * 60 <= agree(projector, table, "Round 1") <= 45 * 60

    # Table 2 started late: five more minutes for it alone.
    settled(director)
    director.focus("#extend-minutes")
    director.keyboard.press("Control+A")
    director.keyboard.type("5")
    director.keyboard.press("Tab")
    director.keyboard.type("2")
    director.keyboard.press("Enter")
    expect(director.locator(".flash")).to_contain_text("Table 2 has 5 minutes more")
    expect(clock(projector, "Table 2")).to_be_visible(timeout=LIVE_TIMEOUT)
    expect(table.locator(".clock-extra")).to_have_text("+5:00 extra", timeout=LIVE_TIMEOUT)
    left = agree(projector, table)
    assert 49 * 60 <= left <= 50 * 60
    assert abs(seconds_left(projector, "Round 1") + 300 - left) <= 1

    press(director, "#clock-pause")
    expect(director.locator(".flash")).to_contain_text("The clock is paused")
    expect(clock(projector, "Round 1")).to_have_attribute(
        "data-state", "paused", timeout=LIVE_TIMEOUT
    )
    expect(clock(table, "Table 2")).to_have_attribute("data-state", "paused", timeout=LIVE_TIMEOUT)
    frozen = agree(projector, table)
    projector.wait_for_timeout(2_000)
    assert agree(projector, table) == frozen

    press(director, "#clock-resume")
    expect(clock(projector, "Table 2")).to_have_attribute(
        "data-state", "running", timeout=LIVE_TIMEOUT
    )
    expect(clock(table, "Table 2")).to_have_attribute("data-state", "running", timeout=LIVE_TIMEOUT)
    counts_below(table, "Table 2", frozen)  # it counts down again, from where it stopped
    assert frozen - 30 <= agree(projector, table) < frozen
    assert table.evaluate("window.__loadedOnce") == "still the same page"


def test_a_screen_whose_own_clock_is_wrong_still_shows_the_servers_time(live_server, new_page):
    event = kingston()
    services.clock_action(round=event.rounds.get(), action="start", minutes=30)
    right = new_page(390, 844)
    right.goto(f"{live_server.url}/events/kingston/rounds/1/tables/2/")
    wrong = new_page(1280, 720)
    # The projector's computer is an hour and a quarter slow.
    wrong.context.clock.install(time=datetime.now() - timedelta(minutes=75))
    wrong.goto(f"{live_server.url}/events/kingston/projector/")
    # Until its first poll it counts by its own clock; the answer's time puts it right.
    wait_until(
        wrong,
        "() => window.kalookiClock && Math.abs(window.kalookiClock.offset() - 75 * 60000) < 5000",
        timeout=LIVE_TIMEOUT,
    )
    wrong.wait_for_timeout(300)
    assert abs(seconds_left(wrong, "Round 1") - seconds_left(right, "Table 2")) <= 1


def test_publishing_shows_the_seating_board_and_the_first_hand_brings_the_standings(
    live_server, new_page
):
    event = kingston(status=Round.Status.DRAFT)
    projector = new_page(1280, 720)
    projector.goto(f"{live_server.url}/events/kingston/projector/?every=600")
    spectator = new_page(390, 844)
    spectator.goto(f"{live_server.url}/events/kingston/")
    # Before the first round: the field, no ranks.
    expect(projector.locator("#pj-title")).to_have_text("The field: 8 players")
    expect(spectator.locator("#leaderboard-title")).to_have_text("The field: 8 players")
    assert spectator.locator("td.rank").count() == 0

    director = dashboard(new_page, live_server)
    director.get_by_role("button", name="Publish round 1").focus()
    director.keyboard.press("Enter")
    expect(director.locator(".flash")).to_contain_text("Round 1 is published")

    expect(projector.locator("#pj-title")).to_have_text(
        "Find your table: round 1", timeout=LIVE_TIMEOUT
    )
    seating = projector.locator(".pj-seating li:not([hidden]) .name")
    expect(seating.first).to_have_text("Andre")
    names = projector.evaluate(
        "() => Array.from(document.querySelectorAll('.pj-seating li .name'), e => e.textContent)"
    )
    assert names == sorted(NAMES)
    andre = projector.locator(".pj-seating li").first
    expect(andre.locator(".where")).to_have_text("table 1 · seat 4")
    expect(spectator.locator("#leaderboard-title")).to_have_text(
        "Find your table: round 1", timeout=LIVE_TIMEOUT
    )
    assert spectator.locator("table.seating tbody tr").count() == 8

    # The first hand at table 1, as the sheet or the API records it: Andre goes out.
    scores = (SeatEntry(1, 20), SeatEntry(2, 30), SeatEntry(3, 40))
    services.record_hand(
        table=event.rounds.get().tables.get(number=1),
        number=1,
        entry=HandEntry(went_out=4, scores=scores),
        by=event.directors.get(),
    )
    expect(projector.locator("[data-projector]")).to_have_attribute(
        "data-phase", "standings", timeout=LIVE_TIMEOUT
    )
    expect(projector.locator(".pj-table tbody tr").first.locator(".name")).to_contain_text("Andre")
    expect(spectator.locator("#leaderboard-title")).to_contain_text(
        "Standings after round 1", timeout=LIVE_TIMEOUT
    )
    expect(spectator.locator("td.rank").first).to_have_text("1")


def test_an_announcement_posted_and_removed_from_the_dashboard(live_server, new_page):
    kingston()
    projector = new_page(1280, 720)
    projector.goto(f"{live_server.url}/events/kingston/projector/")
    table = new_page(390, 844)
    table.goto(f"{live_server.url}/events/kingston/rounds/1/tables/1/")

    director = dashboard(new_page, live_server)
    type_into(director, "#announce-text", "Table 12 please see the director")
    expect(director.locator(".flash")).to_contain_text("On the screens now")

    shown = projector.locator(".pj-announcements li")
    expect(shown).to_have_text("Table 12 please see the director", timeout=LIVE_TIMEOUT)
    expect(table.locator(".announcements li")).to_contain_text(
        "Table 12 please see the director", timeout=LIVE_TIMEOUT
    )

    director.get_by_role("button", name="Remove “Table 12 please see the director”").focus()
    director.keyboard.press("Enter")
    expect(director.locator(".flash")).to_contain_text("kept in the history")
    expect(shown).to_have_count(0, timeout=LIVE_TIMEOUT)
    expect(table.locator(".announcements li")).to_have_count(0, timeout=LIVE_TIMEOUT)
    expect(director.locator(".announce-history li")).to_contain_text(
        "Table 12 please see the director"
    )


def test_a_projector_that_loses_the_network_says_its_data_is_old_and_keeps_counting(
    live_server, new_page
):
    event = kingston()
    services.clock_action(round=event.rounds.get(), action="start", minutes=30)
    projector = new_page(1280, 720)
    projector.goto(f"{live_server.url}/events/kingston/projector/")
    banner = projector.locator("[data-stale-banner]")
    expect(clock(projector, "Round 1")).to_have_attribute("data-state", "running")
    projector.context.set_offline(True)
    expect(banner).to_be_visible(timeout=20_000)
    expect(banner).to_contain_text("Connection lost: showing the results as of ")
    before = seconds_left(projector, "Round 1")
    counts_below(projector, "Round 1", before - 1)  # the clock needs no network
    assert seconds_left(projector, "Round 1") <= before - 2
    projector.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=LIVE_TIMEOUT)
