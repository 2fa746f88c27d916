"""The leaderboard pushed to open pages (public/push.py), through Django's ASGI handler:
a page is sent its region only when it is behind, every open page is sent the new
region once a hand's standings are announced (the same compressed bytes for every
page), the time comes between, and under WSGI the address is not served."""

from __future__ import annotations

import asyncio
import re
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application
from django.core.cache import cache

from core import caching, services
from core.caching import stamps
from game.rules import HandEntry, SeatEntry
from public import push
from tests.fixtures import codes_of, hand, make_entries, make_event, make_round, make_world
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event() -> Event:
    event = make_event(slug="kingston", name="Kingston Open")
    entries = make_entries(event, 4)
    for entry, name in zip(entries, ["Andre", "Beverley", "Carlton", "Delroy"], strict=True):
        entry.player.name = name
        entry.player.save()
    make_round(event, table_sizes=(4,), entries=entries)
    record(event, 1)
    event.refresh_from_db()
    return event


def record(event: Event, number: int) -> None:
    """A director records hand `number` at table 1: the standings are rebuilt and the
    new version announced when it commits."""
    table = event.rounds.get(number=1).tables.get(number=1)
    services.record_hand(
        table=table,
        number=number,
        entry=HandEntry(went_out=1, scores=tuple(SeatEntry(s, 10 * s + number) for s in (2, 3, 4))),
    )


def messages(text: str) -> list[dict[str, str]]:
    """Server-sent events as a browser reads them: name, id and the data's lines joined."""
    found = []
    for block in text.split("\n\n"):
        fields: dict[str, list[str]] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(": ")
            fields.setdefault(name, []).append(value)
        if "event" in fields:
            found.append(
                {
                    "event": fields["event"][0],
                    "id": fields.get("id", [""])[0],
                    "data": "\n".join(fields.get("data", [])),
                }
            )
    return found


APPLICATION = push.Router(get_asgi_application())


class Reader:
    """One open page's stream through the push server's ASGI application, read as it
    comes (gzip undone when asked for); closing it is the connection closing."""

    def __init__(self, path: str, headers: dict[str, str], method: str = "GET") -> None:
        address, _, query = path.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": address,
            "raw_path": address.encode(),
            "query_string": query.encode(),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.sent: asyncio.Queue = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(
            APPLICATION(scope, self.incoming.get, self.sent.put)
        )
        self.raw: list[bytes] = []
        self.inflate = None

    async def start(self) -> tuple[int, dict[str, str]]:
        started = await asyncio.wait_for(self.sent.get(), 5)
        assert started["type"] == "http.response.start"
        headers = {k.decode(): v.decode() for k, v in started["headers"]}
        if headers.get("content-encoding") == "gzip":
            self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return started["status"], headers

    async def next(self, timeout: float = 5.0) -> list[dict[str, str]]:
        message = await asyncio.wait_for(self.sent.get(), timeout)
        chunk = message["body"]
        self.raw.append(chunk)
        text = self.inflate.decompress(chunk) if self.inflate else chunk
        return messages(text.decode())

    async def region(self, timeout: float = 5.0, name: str = "region") -> dict[str, str]:
        """The next region (or other message `name`) sent, the time passed over."""
        while True:
            found = [m for m in await self.next(timeout) if m["event"] == name]
            if found:
                return found[-1]

    async def close(self) -> None:
        await self.incoming.put({"type": "http.request", "body": b"", "more_body": False})
        await self.incoming.put({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, 5)


async def open_page(event: Event, *, gzip: bool, versions=None, **headers) -> Reader:
    v, s = versions if versions else (event.standings_version, event.screen_version)
    encoding = "gzip, deflate, br" if gzip else "identity"
    page = Reader(
        f"/events/{event.slug}/live/push/?v={v}&s={s}&lang=en",
        {"host": "testserver", "accept-encoding": encoding, **headers},
    )
    status, answered = await page.start()
    assert status == 200
    assert answered["content-type"].startswith("text/event-stream")
    assert answered.get("content-encoding") == ("gzip" if gzip else None)
    return page


def shown(region: dict[str, str]) -> tuple[int, int]:
    v, s = region["id"].split(".")
    return int(v), int(s)


def run(coroutine) -> None:
    """On an event loop of its own thread, as the push server's is (this one may have
    Playwright's running, from a browser test before it)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coroutine).result()


def test_every_open_page_is_sent_the_new_region_once_the_hand_is_announced(event):
    async def day():
        up_to_date = await open_page(event, gzip=True)
        plain = await open_page(event, gzip=False)
        hello = await up_to_date.next()
        assert [m["event"] for m in hello] == ["time"]  # it shows these versions already
        assert [m["event"] for m in await plain.next()] == ["time"]

        await sync_to_async(record)(event, 2)
        await sync_to_async(event.refresh_from_db)()
        for page in (up_to_date, plain):
            region = await page.region()
            assert shown(region) == (event.standings_version, event.screen_version)
            assert 'id="leaderboard"' in region["data"]
            assert re.search(rf'hx-get="[^"]*\?v={event.standings_version}&', region["data"])
            assert "Andre" in region["data"]
        # One set of bytes for every page that takes gzip: the same segment sent to each.
        other = await open_page(event, gzip=True, versions=(0, 0))
        first = await other.region()
        assert shown(first) == (event.standings_version, event.screen_version)
        await sync_to_async(record)(event, 3)
        a, b = await up_to_date.region(), await other.region()
        assert a == b and shown(a)[0] == event.standings_version + 1
        assert up_to_date.raw[-1] == other.raw[-1]
        for page in (up_to_date, plain, other):
            await page.close()
        await asyncio.sleep(push.LOOK_SECONDS * 3)
        assert event.slug not in push.WATCHES  # no page open: no one looks any more

    run(day())


def test_a_page_behind_is_sent_the_region_at_once_and_a_reopened_one_only_if_it_moved(event):
    async def day():
        behind = await open_page(event, gzip=False, versions=(event.standings_version - 1, 0))
        region = await behind.region(timeout=1)
        assert shown(region) == (event.standings_version, event.screen_version)
        await behind.close()
        # The browser opens it again with the last id it was sent: nothing to send.
        again = await open_page(
            event, gzip=False, versions=(0, 0), **{"last-event-id": region["id"]}
        )
        assert [m["event"] for m in await again.next()] == ["time"]
        await again.close()

    run(day())


def test_the_time_comes_between_regions_so_the_page_knows_it_is_live(event, monkeypatch):
    monkeypatch.setattr(push, "KEEP_ALIVE_SECONDS", 0.2)

    async def day():
        page = await open_page(event, gzip=True)
        await page.next()
        times = await page.next(timeout=2)
        assert [m["event"] for m in times] == ["time"]
        assert abs(int(times[0]["data"]) / 1000 - time.time()) < 5
        await page.close()

    run(day())


def test_a_crowd_opening_the_page_is_answered_without_rendering_it_again(event, monkeypatch):
    rendered, build = [], push.board_message
    monkeypatch.setattr(push, "board_message", lambda *a: rendered.append(a) or build(*a))
    # The watch's first look at the cache comes once the pages have joined (as on a
    # busy machine) and finds no versions there (a page load's are kept only for
    # seconds): what the pages were just sent is not rendered again.
    joined, looks, read = threading.Event(), [], stamps.table_signatures_cached

    def late_and_forgotten(slug, tables):
        joined.wait(5)
        cache.delete_many([caching.version_key(slug), caching.screen_key(slug)])
        looks.append(slug)
        return read(slug, tables)

    monkeypatch.setattr(stamps, "table_signatures_cached", late_and_forgotten)

    async def day():
        pages = [await open_page(event, gzip=True, versions=(0, 0)) for _ in range(5)]
        for page in pages:
            assert shown(await page.region()) == (event.standings_version, 0)
        joined.set()
        give_up = time.monotonic() + 5
        while len(looks) < 2 and time.monotonic() < give_up:  # the first look done
            await asyncio.sleep(0.01)
        assert len(looks) >= 2, "the watch never looked at the cache again"
        assert len(rendered) == 1  # the first page's; the others had its channel's
        for page in pages:
            await page.close()

    run(day())


def test_a_private_event_a_missing_one_or_another_host_is_not_pushed(event):
    event.public = False
    event.save()

    async def status(path: str, host: str = "testserver") -> int:
        return (await Reader(path, {"host": host}).start())[0]

    async def day():
        assert await status(f"/events/{event.slug}/live/push/") == 404
        assert await status("/events/nowhere/live/push/") == 404
        assert await status("/events/nowhere/live/push/", host="evil.example") == 400

    run(day())


def test_under_wsgi_the_push_address_is_not_served(event, client):
    """Gunicorn's threads would each be held by an open page: 404, and the page polls."""
    assert client.get(f"/events/{event.slug}/live/push/").status_code == 404


def test_a_tables_phones_are_told_when_it_changes_and_each_asks_once():
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    seated = codes_of(w.round)
    signature = stamps.table_signature(w.table)  # as the phone's page load stamps it
    address = f"/events/{w.event.slug}/rounds/1/tables/1/enter/live/push/"

    async def day():
        phones = [Reader(f"{address}?s={signature}", {"host": "testserver"}) for _ in range(4)]
        for phone in phones:
            assert (await phone.start())[0] == 200
            assert [m["event"] for m in await phone.next()] == ["time"]  # not behind
        # Another table's phone, its page older than its table (the signature is read
        # from the database: nothing stamped that table yet): told at once.
        other = Reader(
            f"/events/{w.event.slug}/rounds/1/tables/2/enter/live/push/?s=stale",
            {"host": "testserver"},
        )
        assert (await other.start())[0] == 200
        assert [m["event"] for m in await other.next()] == ["time", "changed"]
        await sync_to_async(services.propose_hand)(
            table=w.table, number=1, entry=hand(2, 4), code=seated[(1, 1)], client="c"
        )
        now = await sync_to_async(stamps.table_signature_cached)(w.event.slug, 1, 1)
        assert now != signature
        for phone in phones:
            changed = await phone.region(name="changed")
            assert changed["data"] == changed["id"] == now
        await asyncio.sleep(push.LOOK_SECONDS * 3)
        assert other.sent.empty()  # the other table's phone heard nothing of it
        for phone in [*phones, other]:
            await phone.close()

    run(day())


def test_a_table_whose_event_is_made_private_ends_its_phones_streams(monkeypatch):
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    signature = stamps.table_signature(w.table)
    address = f"/events/{w.event.slug}/rounds/1/tables/1/enter/live/push/?s={signature}"

    async def day():
        phone = Reader(address, {"host": "testserver"})
        assert (await phone.start())[0] == 200
        await phone.next()
        await sync_to_async(services.update_event)(event=w.event, data={"public": False})
        while (message := await asyncio.wait_for(phone.sent.get(), 5))["more_body"]:
            assert b"changed" not in message["body"]  # only the time, until it ends
        assert message == {"type": "http.response.body", "body": b"", "more_body": False}
        assert (await Reader(address, {"host": "testserver"}).start())[0] == 404

    run(day())


def test_a_head_request_is_answered_with_the_headers_alone_and_far_pages_poll(event):
    async def day():
        head = Reader(f"/events/{event.slug}/live/push/", {"host": "testserver"}, "HEAD")
        status, headers = await head.start()
        assert status == 200 and headers["content-type"].startswith("text/event-stream")
        assert await asyncio.wait_for(head.sent.get(), 5) == {
            "type": "http.response.body",
            "body": b"",
        }
        far = Reader(f"/events/{event.slug}/live/push/?page=51", {"host": "testserver"})
        assert (await far.start())[0] == 404  # past the cached pages: polled, not pushed

    run(day())


def test_every_line_break_of_a_message_starts_a_data_line():
    text = push.sse("region", "one\r\ntwo\rthree\nfour", "3.1")
    assert text == ("event: region\nid: 3.1\ndata: one\ndata: two\ndata: three\ndata: four\n\n")
    assert messages(text)[0]["data"] == "one\ntwo\nthree\nfour"


def test_a_render_that_found_older_versions_is_tried_again(event, monkeypatch):
    """A copy of the event a moment behind the announcement renders the old region:
    the channel is not left there (its pages hold their polls back)."""
    calls = []
    real = push.board_message

    def behind_once(*args):
        calls.append(args)
        ident, message = real(*args)
        if len(calls) == 2:  # the first render after the new announcement: the old one
            return f"{event.standings_version}.{event.screen_version}", "stale"
        return ident, message

    monkeypatch.setattr(push, "board_message", behind_once)
    monkeypatch.setattr(push, "RECHECK_SECONDS", 0.3)

    async def day():
        page = await open_page(event, gzip=False)
        await page.next()
        await sync_to_async(record)(event, 2)
        region = await page.region(timeout=5)
        assert shown(region)[0] == event.standings_version + 1
        assert len(calls) >= 3  # rendered again after the stale one
        await page.close()

    run(day())


def test_an_event_made_private_is_announced_hidden_before_its_new_screens(
    monkeypatch, django_capture_on_commit_callbacks
):
    """A live page reading the announcements between the two cache writes sees the event
    hidden, never a change of a hidden event (a phone told its table changed)."""
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    written = []
    real = cache.set
    monkeypatch.setattr(
        cache, "set", lambda key, *a, **k: written.append(key) or real(key, *a, **k)
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.update_event(event=w.event, data={"public": False})
    version, screen = caching.version_key(w.event.slug), caching.screen_key(w.event.slug)
    assert written.index(version) < written.index(screen)
    assert cache.get(version)[1] is False
