"""Live pages pushed to (server-sent events) the moment what they show changes, instead
of each page asking every few seconds: the leaderboard is sent its new region, and a
table's players' entry page (each phone) is told its table changed.

A national championship's 1,000 open leaderboards and 1,024 phones polling every 3 s ask
~670 times a second, more than a 2-core machine answers (docs/benchmarks.md, "A
national championship, fourth pass"). Here one process holds every open page's
connection and reads, for each event with pages open, the announced versions and the
stamps of its open tables in one cache round trip every LOOK_SECONDS, whatever the
number of pages:

- a leaderboard's page (in a language) is rendered once when its versions move
  (`views.board_region`, the poll's own region, from the shared cache when a web
  process built it already), compressed once, and the same bytes go to every page
  showing it;
- a table's phones are sent its new signature (the one their poll carries): each then
  asks for its own region once (it holds the player's own forms), rather than every 3 s.

How it is served and used:

- By an ASGI server: `manage.py run_processes` starts uvicorn beside gunicorn when
  LIVE_PUSH is on (a shared cache, CACHE_URL, carries the announcements to it), and
  `Router` answers the streams' addresses on the event loop, before Django (no thread,
  no middleware: a crowd opening the page costs little more than its connections).
  Under WSGI the addresses are 404, so a thread is never held by an open page.
- A page asks for its stream only when LIVE_PUSH is on (a proxy in front sends the
  addresses to the push server: README, "Open leaderboards pushed"); its region keeps
  its poll, which the page's script holds back while the stream is open and lets go
  when it breaks, so a page without the script or the stream stays live as before.
- The stream is one gzip body whose every message is compressed on its own (a fresh
  deflate, flushed to a byte boundary): the bytes of a message are the same for every
  page, and their concatenation is one valid deflate stream.
- The server's time comes with each region (the venue clock) and alone every
  KEEP_ALIVE_SECONDS, so an idle proxy keeps the connection and the page knows it is
  live. A connection ends after CONNECTION_SECONDS; the browser opens it again at once
  with the last id it was sent (`Last-Event-ID`), and is sent only what moved meanwhile.
- What the cache cannot say (after an outage, or no change for a while) is read from
  the database now and then, as a poll would; an event no longer public ends its
  pages' streams (they poll, and are answered as any poll is).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host
from django.utils import translation

from core import caching, selectors
from core.caching import stamps
from core.errors import Missing
from public import live, views

log = logging.getLogger(__name__)

LOOK_SECONDS = 0.1  # how often the cache is read, per event with pages open
RECHECK_SECONDS = 2.0  # how often the database is asked what the cache cannot say
# Half the time after which a page says its data is old (clock.js): a page with no news
# still hears from the server well before then.
KEEP_ALIVE_SECONDS = settings.SCREEN_STALE_SECONDS / 2
CONNECTION_SECONDS = 600.0
RETRY_MS = 3000  # how long a browser waits before opening a broken stream again
# The stream never ends with a final block and the gzip trailer: it ends when the page
# goes (or after CONNECTION_SECONDS, and browsers take a gzip body cut short as read).
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, no time, unknown OS
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # each ends a data line, as a browser reads them


def deflated(text: str) -> bytes:
    """`text` as a deflate segment that can follow any other: compressed with no
    reference to earlier bytes and flushed to a byte boundary, so every page's stream
    can carry the same bytes."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)


def sse(name: str, data: str, ident: str | None = None) -> str:
    lines = [f"event: {name}"]
    if ident is not None:
        lines.append(f"id: {ident}")
    lines += [f"data: {line}" for line in LINE_BREAK.split(data)]
    return "\n".join(lines) + "\n\n"


def clock() -> str:
    return sse("time", str(int(time.time() * 1000)))


# --- Who is open, and what they were sent ------------------------------------------------


@dataclass(eq=False)
class Page:
    """One open page: the latest message it has not been sent yet."""

    gzip: bool
    waiting: bytes | str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def offer(self, plain: str, packed: bytes) -> None:
        self.waiting = packed if self.gzip else plain  # a newer message replaces an unsent one
        self.ready.set()

    def close(self) -> None:
        self.closed = True
        self.ready.set()


@dataclass(eq=False)
class Channel:
    """Every open page of one thing (a leaderboard's page in a language; a table's
    entry), and what they were last sent: its id (`sent`) and message, time aside."""

    key: tuple
    pages: set[Page] = field(default_factory=set)
    sent: str | None = None
    message: str = ""
    # The announced versions it was last rendered for, and when: a render that found
    # older ones (a copy of the event a moment behind) is tried again, now and then.
    tried: tuple[str | None, float] = (None, 0.0)

    def send(self, ident: str, message: str) -> None:
        self.sent, self.message = ident, message
        plain = clock() + message
        packed = deflated(plain)
        for page in self.pages:
            page.offer(plain, packed)

    def close(self) -> None:
        for page in list(self.pages):
            page.close()
        self.sent, self.message = None, ""


@dataclass(eq=False)
class Watch:
    """An event's channels, and the task reading the cache for them."""

    slug: str
    channels: dict[tuple, Channel] = field(default_factory=dict)
    task: asyncio.Task | None = None
    opening: dict[tuple, asyncio.Future] = field(default_factory=dict)


WATCHES: dict[str, Watch] = {}


# --- What each kind of page is sent -------------------------------------------------------


def board_message(slug: str, page: int, language: str) -> tuple[str, str]:
    """The leaderboard's live region as its poll answers it, as a message, and its id
    (the versions it shows); 404 once the event is no longer public."""
    close_old_connections()  # a pool thread's connection, as a request's would be
    caching.ANNOUNCED.forget(slug)  # the versions as announced now, not a moment ago
    with translation.override(language):
        event = live.lookup(AnonymousUser(), slug)[0]
        if not event.public:
            raise Http404
        html = views.board_region(event, views.clamped(event, page), "")
    ident = f"{event.standings_version}.{event.screen_version}"
    return ident, sse("region", html, ident)


def table_message(signature: str) -> str:
    return sse("changed", signature, signature)


def table_signature(slug: str, round_number: int, table: int) -> tuple[str, str]:
    """A table's signature as its phones' polls carry it: from the cache alone (as an
    unchanged poll reads it) or, when the cache cannot say (after an outage, say), from
    the database as a poll would, stamping the table again; 404 unless the event is
    public."""
    signature = stamps.table_signature_cached(slug, round_number, table)
    if signature is None:
        close_old_connections()  # a pool thread's connection, as a request's would be
        event = selectors.public_event(AnonymousUser(), slug)
        if not event.public:
            raise Http404
        signature = stamps.table_signature(selectors.public_table(event, round_number, table))
    return signature, table_message(signature)


# --- Reading the cache for an event's open pages -----------------------------------------


async def refresh_boards(watch: Watch, versions: tuple | None) -> None:
    """Render each leaderboard channel whose announced versions are not what it was sent
    (once per announcement, and again every RECHECK_SECONDS while a render finds other
    versions), and send what moved. With none announced, each is rendered unless it was
    a moment ago (the caller asks every RECHECK_SECONDS; a channel's first page had it
    rendered from the database when it joined)."""
    announced = None
    if versions is not None and versions[0][1] is True:
        announced = f"{versions[0][0]}.{versions[1]}"
    for key, channel in list(watch.channels.items()):
        if key[0] != "board" or not channel.pages:
            continue
        if announced is not None and announced == channel.sent:
            continue
        recent = time.monotonic() - channel.tried[1] < RECHECK_SECONDS
        if announced is not None and announced == channel.tried[0] and recent:
            continue
        if versions is None and recent:  # read from the database a moment ago
            continue
        try:
            ident, message = await sync_to_async(board_message, thread_sensitive=False)(
                watch.slug, *key[1:]
            )
        except (Http404, Missing):
            channel.close()
            continue
        channel.tried = (announced, time.monotonic())
        if ident != channel.sent:
            channel.send(ident, message)


async def look(watch: Watch) -> None:
    """While the event has open pages: read the cache for them every LOOK_SECONDS and
    send whatever moved."""
    asked = 0.0
    while True:
        for key, channel in list(watch.channels.items()):
            if not channel.pages and key not in watch.opening:
                del watch.channels[key]
        if not watch.channels and not watch.opening:  # no page: gone (no await since)
            if WATCHES.get(watch.slug) is watch:
                del WATCHES[watch.slug]
            return
        tables = [key[1:] for key in watch.channels if key[0] == "table"]
        try:
            versions, signatures = await sync_to_async(
                stamps.table_signatures_cached, thread_sensitive=False
            )(watch.slug, tables)
            # What the cache cannot say (no version announced: a page load's is kept
            # only for seconds) is asked of the database, as a poll would, now and then.
            recheck = time.monotonic() - asked > RECHECK_SECONDS
            for table, signature in signatures.items():
                channel = watch.channels[("table", *table)]
                if signature is None and recheck:
                    try:
                        signature = (
                            await sync_to_async(table_signature, thread_sensitive=False)(
                                watch.slug, *table
                            )
                        )[0]
                    except (Http404, Missing):
                        channel.close()  # no longer public: they poll, and are told so
                if signature is not None and signature != channel.sent:
                    channel.send(signature, table_message(signature))
            if versions is not None or recheck:
                await refresh_boards(watch, versions)
            if recheck:
                asked = time.monotonic()
        except Exception:  # a cache or database outage: the pages wait, the loop goes on
            log.exception("push: what the pages of %s show could not be read", watch.slug)
        await asyncio.sleep(LOOK_SECONDS)


async def join(slug: str, key: tuple, build: Callable[[], tuple[str, str]], page: Page) -> Channel:
    """Add an open page to its channel (looked after from now on) and send it what the
    channel was sent, or `build` for the first page (one build at a time per channel: a
    crowd opening the page waits for the first one's)."""
    while True:
        # Looked up again after every wait: the task may have ended meanwhile (no page
        # left while a first build failed), and a page must join a watched channel.
        watch = WATCHES.get(slug)
        if watch is None or watch.task is None or watch.task.done():
            watch = WATCHES[slug] = Watch(slug)
            watch.task = asyncio.get_running_loop().create_task(look(watch))
        channel = watch.channels.get(key)
        if channel is not None and channel.sent is not None:
            break
        opening = watch.opening.get(key)
        if opening is not None:
            await asyncio.shield(opening)
            continue
        opening = watch.opening[key] = asyncio.get_running_loop().create_future()
        try:
            ident, message = await sync_to_async(build, thread_sensitive=False)()
            channel = watch.channels.setdefault(key, Channel(key))
            channel.sent, channel.message = ident, message
            channel.tried = (None, time.monotonic())
        finally:
            del watch.opening[key]
            opening.set_result(None)
    channel.pages.add(page)
    return channel


# --- Serving the streams --------------------------------------------------------------------


BOARD = re.compile(r"^/events/(?P<slug>[-a-zA-Z0-9_]+)/live/push/$")
TABLE = re.compile(
    r"^/events/(?P<slug>[-a-zA-Z0-9_]+)/rounds/(?P<round>\d{1,4})/tables/(?P<table>\d{1,5})"
    r"/enter/live/push/$"
)


class Router:
    """The push server's ASGI application: the streams are served here, on the event
    loop; every other address goes to `app` (Django)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            path = scope.get("path", "")
            for pattern in (BOARD, TABLE):
                found = pattern.match(path)
                if found:
                    await stream(scope, receive, send, found.groupdict())
                    return
        await self.app(scope, receive, send)


def topic(found: dict[str, str], query: dict[str, list[str]]) -> tuple[tuple, Callable]:
    """The channel a stream's address names, and how its first message is built."""
    slug = found["slug"]
    if "table" in found:
        table = (int(found["round"]), int(found["table"]))
        return ("table", *table), lambda: table_signature(slug, *table)
    language = query.get("lang", [""])[0]
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    number = views.number_of(query.get("page", [""])[0], 1) or 1
    if number > views.MAX_CACHED_PAGE:  # a long tail: those pages poll (bounded channels)
        raise Http404
    return ("board", number, language), lambda: board_message(slug, number, language)


def shown(last_id: str, query: dict[str, list[str]]) -> str:
    """What the page shows: the last message's id when the browser opens the stream
    again, else the page's own (`v` and `s` for a leaderboard, `s` for a table)."""
    if last_id:
        return last_id
    v, s = query.get("v", [""])[0], query.get("s", [""])[0]
    return f"{v}.{s}" if v else s


async def answer(send, status: int, text: str) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text.encode()})


async def stream(scope, receive, send, found: dict[str, str]) -> None:
    """An open page's stream (text/event-stream): what moved since the page was built,
    then each change, the time now and then; 404 for what the cache cannot say (an
    event that is not public, a table never opened). Ends after CONNECTION_SECONDS (the
    browser opens it again) or when the page goes."""
    headers = {name.lower(): value.decode("latin-1") for name, value in scope["headers"]}
    if not validate_host(split_domain_port(headers.get(b"host", ""))[0], allowed_hosts()):
        await answer(send, 400, "Bad Request: the host is not this site's")
        return
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    page = Page(bool(views.ACCEPTS_GZIP.search(headers.get(b"accept-encoding", ""))))
    try:
        key, build = topic(found, query)
        channel = await join(found["slug"], key, build, page)
    except (Http404, Missing):
        await answer(send, 404, "Not Found")
        return
    first = (
        None if channel.sent == shown(headers.get(b"last-event-id", ""), query) else channel.message
    )
    response = [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-store"),
        (b"x-accel-buffering", b"no"),  # nginx: pass each message on as it comes
        (b"x-content-type-options", b"nosniff"),
        (b"vary", b"Accept-Encoding"),
    ]
    if page.gzip:
        response.append((b"content-encoding", b"gzip"))
    if scope["method"] == "HEAD":  # the headers alone
        channel.pages.discard(page)
        await send({"type": "http.response.start", "status": 200, "headers": response})
        await send({"type": "http.response.body", "body": b""})
        return
    gone = asyncio.get_running_loop().create_task(went(receive, page))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": response})
        hello = f"retry: {RETRY_MS}\n\n" + clock() + (first or "")
        await body(send, GZIP_HEADER + deflated(hello) if page.gzip else hello.encode())
        ends = time.monotonic() + CONNECTION_SECONDS
        while not page.closed and time.monotonic() < ends:
            try:
                await asyncio.wait_for(page.ready.wait(), KEEP_ALIVE_SECONDS)
            except TimeoutError:
                await body(send, deflated(clock()) if page.gzip else clock().encode())
                continue
            page.ready.clear()
            message, page.waiting = page.waiting, None
            if message is not None and not page.closed:
                await body(send, message if isinstance(message, bytes) else message.encode())
        if not gone.done():
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        gone.cancel()
        channel.pages.discard(page)


async def body(send, data: bytes) -> None:
    await send({"type": "http.response.body", "body": data, "more_body": True})


async def went(receive, page: Page) -> None:
    """Wait for the page to go (the connection closed), and end its stream."""
    while (await receive())["type"] != "http.disconnect":
        pass
    page.close()


def allowed_hosts() -> list[str]:
    """ALLOWED_HOSTS as Django reads it (in DEBUG with none set: the local names)."""
    hosts = settings.ALLOWED_HOSTS
    return hosts if hosts or not settings.DEBUG else [".localhost", "127.0.0.1", "[::1]"]


def not_here(request: HttpRequest, **kwargs) -> HttpResponse:
    """A stream's address as Django sees it, for `reverse`: the push server's `Router`
    answers it before Django does. Anywhere else (gunicorn's WSGI, where an open page
    would hold a thread) it is 404, and the page polls."""
    raise Http404
