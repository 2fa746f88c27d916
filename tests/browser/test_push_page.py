"""Live pages in Chromium with the push on (settings.LIVE_PUSH), served by uvicorn as
the push server is: an open leaderboard is sent the new region when a hand is saved
and sends no poll while its stream is open (the gzip stream read whole); a phone at the
table is told when another player enters a hand and asks for its region once; and
where the push address is not served (WSGI: 404) the same page polls as before."""

from __future__ import annotations

import gc
import socket
import threading
import time

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from playwright.sync_api import expect

from core import services
from game.rules import HandEntry, SeatEntry
from public import push
from public.push import Router
from tests.browser.test_public_live import LIVE_TIMEOUT, kingston  # noqa: F401 (a fixture)
from tests.browser.test_table_entry import PHONE, enter_hand
from tests.browser.test_table_entry import kingston as players_kingston  # noqa: F401
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asgi_server(settings):
    """The whole site under uvicorn in this process (its database and cache), as the
    push server serves it; the address it listens on."""
    settings.LIVE_PUSH = True
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        Router(ASGIStaticFilesHandler(get_asgi_application())),
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{listening.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)
    assert not thread.is_alive(), "uvicorn did not stop"
    listening.close()
    push.WATCHES.clear()
    # The server's threads' database connections closed now, before the flush, not at
    # a later collection (an open one can hold a read lock on the in-memory database).
    gc.collect()


def hand_two(event: Event) -> None:
    """Hand 2: Beverley goes out, Andre is caught with 45."""
    services.record_hand(
        table=event.rounds.get(number=1).tables.get(number=1),
        number=2,
        entry=HandEntry(went_out=2, scores=(SeatEntry(1, 45), SeatEntry(3, 5), SeatEntry(4, 1))),
    )


def watched(page) -> dict[str, list[str]]:
    """The live region's requests the page sends: its stream, and its polls."""
    sent: dict[str, list[str]] = {"push": [], "poll": []}

    def note(request) -> None:
        if "/live/push/" in request.url:
            sent["push"].append(request.url)
        elif "/live/?" in request.url:
            sent["poll"].append(request.url)

    page.on("request", note)
    return sent


def test_an_open_leaderboard_is_sent_the_new_hand_without_polling(asgi_server, new_page, kingston):  # noqa: F811
    spectator = new_page(390, 844)
    sent = watched(spectator)
    spectator.goto(f"{asgi_server}/events/kingston/")
    board = spectator.locator("#leaderboard")
    expect(board).to_have_attribute("data-version", "1")
    expect(board.locator("tbody tr").first.locator("th.name")).to_have_text("Andre")
    spectator.evaluate("window.__loadedOnce = 'still the same page'")
    # Three polls' time (PUBLIC_POLL_SECONDS is 1 in the tests) with the stream open.
    spectator.wait_for_timeout(3000)

    hand_two(kingston)

    expect(board).to_have_attribute("data-version", "2", timeout=LIVE_TIMEOUT)
    first = board.locator("tbody tr").first
    expect(first.locator("th.name")).to_have_text("Beverley")
    expect(first.locator("td.points")).to_have_text("10")
    assert spectator.evaluate("window.__loadedOnce") == "still the same page"
    assert len(sent["push"]) == 1, sent
    assert sent["poll"] == [], "a poll went while the stream was open"
    # The page's clock takes the server's time from the stream: no banner of old data.
    expect(spectator.locator("[data-stale-banner]")).to_have_count(0)


def test_where_the_push_is_not_served_the_page_polls(live_server, new_page, kingston, settings):  # noqa: F811
    settings.LIVE_PUSH = True  # the page asks; gunicorn's side of the site answers 404
    spectator = new_page(390, 844)
    sent = watched(spectator)
    spectator.goto(f"{live_server.url}/events/kingston/")
    board = spectator.locator("#leaderboard")
    expect(board).to_have_attribute("data-push", "/events/kingston/live/push/?v=1&s=0&lang=en")

    hand_two(kingston)

    expect(board).to_have_attribute("data-version", "2", timeout=LIVE_TIMEOUT)
    assert sent["push"] and sent["poll"]


def test_a_phone_is_told_when_another_player_enters_a_hand(
    asgi_server,
    new_page,
    players_kingston,  # noqa: F811
):
    _, codes = players_kingston
    entry = f"{asgi_server}/events/kingston/rounds/1/tables/1/enter/"
    beverley = new_page(*PHONE)
    sent = watched(beverley)
    beverley.goto(f"{entry}?code={codes[(1, 2)]}")
    expect(beverley.locator("#who")).to_contain_text("You are seat")
    beverley.wait_for_timeout(3000)  # three polls' time, with the stream open
    assert len(sent["push"]) == 1 and sent["poll"] == [], sent

    andre = new_page(*PHONE)
    andre.goto(f"{entry}?code={codes[(1, 1)]}")
    enter_hand(andre, {1: "", 2: "23", 3: "JK AS 10H 7D", 4: "41"}, went_out=1)
    expect(andre.locator(".flash")).to_contain_text("Hand 1 is entered")

    card = beverley.locator("#proposal-1")
    expect(card).to_contain_text("entered by seat 1 · Andre", timeout=LIVE_TIMEOUT)
    card.get_by_role("button", name="Confirm hand 1").wait_for()
    # Told once, it asked once (twice at most, had the stream opened again meanwhile).
    assert 1 <= len(sent["poll"]) <= 2, sent
