"""The public pages in Chromium: a spectator's leaderboard follows a director's entry
without a reload, the projector pages through a long leaderboard, and a private event
is not reachable."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

from core import services
from game.rules import HandEntry, SeatEntry
from tests.browser.waiting import wait_until
from tests.fixtures import make_entries, make_event, make_round, make_user, ranked_event
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The live pages poll every settings.PUBLIC_POLL_SECONDS (3 s; 1 s in the tests): a
# page shows a change within a poll or two, and waits no longer than it takes.
LIVE_TIMEOUT = 15_000


@pytest.fixture
def kingston():
    """A running event: one table of four, hand 1 recorded, standings built."""
    event = make_event(slug="kingston", name="Kingston Open")
    entries = make_entries(event, 4)
    for entry, name in zip(entries, ["Andre", "Beverley", "Carlton", "Delroy"], strict=True):
        entry.player.name = name
        entry.player.save()
    round_ = make_round(event, table_sizes=(4,), entries=entries)
    table = round_.tables.get()
    services.record_hand(
        table=table,
        number=1,
        entry=HandEntry(went_out=1, scores=(SeatEntry(2, 10), SeatEntry(3, 20), SeatEntry(4, 30))),
    )
    event.refresh_from_db()
    assert event.standings_version == 1  # rebuilt when the hand was committed
    return event


def director_session(new_page, event: Event):
    """A director's own browser session, entering hands through the API with a token."""
    alice = make_user("alice")
    event.directors.add(alice)
    token = Token.objects.create(user=alice)
    page = new_page()
    headers = {"Authorization": f"Token {token.key}", "Content-Type": "application/json"}
    return page, headers


def test_a_spectators_leaderboard_changes_by_itself_after_a_director_records_a_hand(
    live_server, new_page, kingston
):
    spectator = new_page(390, 844)
    spectator.goto(f"{live_server.url}/events/kingston/")
    board = spectator.locator("#leaderboard")
    expect(board).to_have_attribute("data-version", "1")
    first = board.locator("tbody tr").first
    expect(first.locator("th.name")).to_have_text("Andre")
    spectator.evaluate("window.__loadedOnce = 'still the same page'")

    director, headers = director_session(new_page, kingston)
    # Hand 2: Beverley goes out, Andre is caught with 45.
    hand = {
        "went_out": 2,
        "scores": [{"seat": 1, "points": 45}, {"seat": 3, "points": 5}, {"seat": 4, "points": 1}],
    }
    response = director.request.put(
        f"{live_server.url}/api/v1/events/kingston/rounds/1/tables/1/hands/2/",
        data=json.dumps(hand),
        headers=headers,
    )
    assert response.status == 200, response.text()

    expect(board).to_have_attribute("data-version", "2", timeout=LIVE_TIMEOUT)
    expect(first.locator("th.name")).to_have_text("Beverley")
    expect(first.locator("td.points")).to_have_text("10")
    assert spectator.evaluate("window.__loadedOnce") == "still the same page"


def test_a_followed_table_shows_the_new_hand_by_itself(live_server, new_page, kingston):
    spectator = new_page(390, 844)
    spectator.goto(f"{live_server.url}/events/kingston/rounds/1/tables/1/")
    expect(spectator.locator(".now")).to_contain_text("hand 2 of 9")
    spectator.evaluate("window.__loadedOnce = 'still the same page'")

    director, headers = director_session(new_page, kingston)
    hand = {
        "went_out": 3,
        "scores": [{"seat": 1, "points": 7}, {"seat": 2, "points": 8}, {"seat": 4, "points": 9}],
    }
    response = director.request.put(
        f"{live_server.url}/api/v1/events/kingston/rounds/1/tables/1/hands/2/",
        data=json.dumps(hand),
        headers=headers,
    )
    assert response.status == 200, response.text()

    expect(spectator.locator(".now")).to_contain_text("hand 3 of 9", timeout=LIVE_TIMEOUT)
    expect(spectator.locator('tr[data-hand="2"] td.out')).to_contain_text("out")
    assert spectator.evaluate("window.__loadedOnce") == "still the same page"


def projector_state(page) -> dict:
    """The page the projector shows, read at one instant (it turns by itself)."""
    return page.evaluate(
        """() => {
            const board = document.querySelector('[data-projector]');
            const rows = Array.from(board.querySelectorAll('tbody tr')).filter(r => !r.hidden);
            return {
                page: Number(board.dataset.page),
                pages: Number(board.dataset.pages),
                shown: board.querySelector('[data-shown]').textContent,
                ranks: rows.map(r => Number(r.dataset.rank)),
                bottom: Math.max(...rows.map(r => r.getBoundingClientRect().bottom)),
            };
        }"""
    )


def test_the_projector_pages_through_a_long_leaderboard(live_server, new_page):
    ranked_event(150)
    page = new_page(1280, 720)
    page.goto(f"{live_server.url}/events/national/projector/?every=1")
    # The page turns by itself every second from the moment it is laid out, so the test
    # reads whichever page is up, then waits for two turns; a slow start changes nothing.
    board = "document.querySelector('[data-projector]')"
    wait_until(page, f"() => Number({board}.dataset.pages) > 1")
    states = [projector_state(page)]
    for _ in range(2):
        wait_until(page, f"n => Number({board}.dataset.page) !== n", arg=states[-1]["page"])
        states.append(projector_state(page))

    per = max(len(state["ranks"]) for state in states)  # a full page (the last may not be)
    assert 5 <= per < 150
    for state in states:
        number = state["page"]
        assert state["pages"] == -(-150 // per)
        # Page n shows the next `per` ranks, and says which page it is.
        assert state["ranks"] == list(range((number - 1) * per + 1, min(number * per, 150) + 1))
        assert state["shown"] == str(number)
        assert state["bottom"] <= 720  # every row shown fits on the screen
    assert len({state["page"] for state in states}) == 3


def test_a_private_event_is_not_reachable(live_server, new_page):
    make_event(slug="hidden", name="Hidden Invitational", public=False)
    page = new_page()
    response = page.goto(f"{live_server.url}/events/hidden/")
    assert response.status == 404
    assert "Hidden Invitational" not in page.content()
    assert page.goto(f"{live_server.url}/events/hidden/projector/").status == 404
    page.goto(f"{live_server.url}/")
    assert "Hidden Invitational" not in page.content()


# Every htmx request the page starts, in order: when, whether it was sent (or cancelled),
# whether the page was visible, and whether it was started by the page being shown
# (within the visibilitychange event itself, not by a timer afterwards).
WATCH_REQUESTS = """() => {
    window.__requests = [];
    window.__showing = false;
    document.addEventListener('htmx:beforeRequest', (event) => {
        window.__requests.push({
            at: performance.now(),
            sent: !event.defaultPrevented,
            visible: document.visibilityState === 'visible',
            on_show: window.__showing,
        });
    });
}"""

# The browser's tab hidden or shown again, as the page sees it. Answers how many
# requests the page had started until then (read in the same task: no poll between).
SET_VISIBILITY = """(state) => {
    const before = window.__requests.length;
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => state !== 'visible'});
    window.__showing = true;
    try {
        document.dispatchEvent(new Event('visibilitychange'));
    } finally {
        window.__showing = false;
    }
    return before;
}"""


def test_the_leaderboard_polls_while_visible_rests_while_hidden_and_logs_no_error(
    live_server, new_page, kingston
):
    page = new_page(390, 844)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    polled = []
    page.on("request", lambda r: polled.append(r.url) if "/live/" in r.url else None)
    page.goto(f"{live_server.url}/events/kingston/")
    expect(page.locator("#leaderboard")).to_have_attribute("data-poll", "")
    page.evaluate(WATCH_REQUESTS)

    # Visible: it polls (every 3 s; every second in the tests), each poll sent.
    wait_until(page, "() => window.__requests.length >= 2")
    assert all(r["sent"] for r in page.evaluate("window.__requests"))
    assert len(polled) >= 2

    # Hidden: the next poll comes due and is not sent.
    page.evaluate(SET_VISIBILITY, "hidden")
    sent = len(polled)
    wait_until(page, "() => window.__requests.some(r => !r.visible)", timeout=LIVE_TIMEOUT)
    skipped = page.evaluate("window.__requests.filter(r => !r.visible)")
    assert [r["sent"] for r in skipped] == [False]
    assert len(polled) == sent

    # Shown again: it asks at once, as the page is shown (not at the next poll, a poll's
    # time after the one it skipped); then polls on.
    count = page.evaluate(SET_VISIBILITY, "visible")
    wait_until(page, "n => window.__requests.length > n", arg=count, timeout=1_500)
    refresh = page.evaluate("window.__requests")[count]
    assert refresh["sent"] and refresh["visible"] and refresh["on_show"]
    assert refresh["at"] - skipped[0]["at"] < 2_000
    wait_until(page, "n => window.__requests.length > n + 1", arg=count)
    assert len(polled) >= sent + 2
    assert errors == []  # htmx logs an eval it refuses (evalDisallowedError) as an error
