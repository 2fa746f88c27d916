"""Public pages: the events list (the front page), an event's live leaderboard (the
projector's view of it: `public.projector`), a round's tables, a table's sheet and a
player's results. No login; private events are 404 for the public. Each live page has
a small endpoint it polls (htmx, every few seconds).

A poll carries the versions the page shows (the standings', `v`, and the screens',
`s`: the clock, announcements, the field). While the event's versions in the cache are
the same, the answer is an empty 204 from that one cache round trip; otherwise it is
the re-rendered live region, which carries the new versions in its next poll. Every
poll's answer says the server's time (`X-Server-Time`, in milliseconds), so a page's
clock counts down by the server's time rather than its own device's.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import replace
from math import ceil
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.text import compress_string
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from core import caching, selectors
from core.entries.selectors import namesakes_of
from core.errors import Missing
from core.publishing.selectors import public_note
from core.series.selectors import player_series, series_of_event
from core.standings.prizes import event_prize_winners
from game.collation import matches
from public import live, ratings
from tournaments.models import Event

PER_PAGE = 100
ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads it
# What a cached page's answer depends on besides its address.
VARY = ("Accept-Encoding", "Cookie")
# Pages past this one are rendered for each request rather than cached (a long tail).
MAX_CACHED_PAGE = 50


def number_param(request: HttpRequest, name: str, default: int | None = None) -> int | None:
    return number_of(request.GET.get(name, ""), default)


def number_of(value: str, default: int | None = None) -> int | None:
    """A query's whole number as typed (ASCII digits, not too long), else `default`."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else default


def poll_url(name: str, args: list[Any], event: Event, **extra: Any) -> str:
    query = {
        "v": event.standings_version,
        "s": event.screen_version,
        **{k: v for k, v in extra.items() if v not in (None, "", 1)},
    }
    return f"{reverse(name, args=args)}?{urlencode(query)}"


def with_server_time(response: HttpResponse) -> HttpResponse:
    response["X-Server-Time"] = str(int(time.time() * 1000))
    return response


def live_response(
    request: HttpRequest, slug: str, render_region: Callable[[Event], str]
) -> HttpResponse:
    """204 while the page's versions are current; the new live region otherwise, with
    the event as a page load takes it (no query while this process or the shared cache
    holds it at the announced versions)."""
    version, screen = number_param(request, "v"), number_param(request, "s")
    if caching.unchanged(slug, version, screen):
        return with_server_time(HttpResponse(status=204))
    event = live.lookup(request.user, slug)[0]
    if event.standings_version == version and event.screen_version == screen:
        return with_server_time(HttpResponse(status=204))
    return with_server_time(region_response(request, render_region(event)))


# A live region's answer compressed once per content in this process: after a new
# version every open page's next poll brings the same region (a leaderboard's page: 46
# KB of HTML, 0.8 ms to compress, on each of a few hundred polls a second).
GZIPPED = caching.ProcessCopies(
    "live regions, compressed",
    size=64,
    why="docs/benchmarks.md, a national championship, third pass: regions compressed once",
)


def region_response(request: HttpRequest, html: str) -> HttpResponse:
    """The live region, compressed as gzip_page would (from this process's copy when it
    compressed the same region already) for a reader that accepts gzip."""
    body = html.encode()
    if len(body) < 200 or not ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        return HttpResponse(body)
    key = hashlib.blake2b(body, digest_size=16).digest()
    compressed = GZIPPED.get(key)
    if compressed is None:
        compressed = compress_string(body)
        GZIPPED.put(key, compressed)
    response = HttpResponse(compressed)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def screen_context(
    event: Event, round_number: int | None = None, table: int | None = None
) -> dict[str, Any]:
    """The announcements a live region shows, and the clock of the round in play (one
    table's, with its extra time, for a table; none on the pages of an earlier round),
    worked out now: the page's script keeps the clock going."""
    screen = live.screen(event)
    now = timezone.now()
    clock = screen.clock
    if clock is not None and round_number not in (None, clock.round):
        clock = None
    return {
        "screen": screen,
        "face": clock.face(now, table) if clock else None,
        "extra_faces": clock.extra_faces(now) if clock and table is None else (),
    }


# --- The leaderboard ------------------------------------------------------------------


def board_rows(board: selectors.Board) -> tuple:
    """What the board lists in its phase: the field, the seating, or the standings."""
    return {"field": board.field, "seating": board.seating}.get(board.phase, board.rows)


def board_context(event: Event, board: selectors.Board, page: int, search: str) -> dict[str, Any]:
    rows = board_rows(board)
    if search:  # case and accents set aside: "nunez" finds Ñúñez
        rows = tuple(row for row in rows if matches(search, row.name))
    pages = max(1, ceil(len(rows) / PER_PAGE))
    page = min(max(page, 1), pages)
    return {
        "event": event,
        "board": board,
        "rows": rows[(page - 1) * PER_PAGE : page * PER_PAGE],
        "page": page,
        "pages": pages,
        "search": search,
        "matches": len(rows),
        "poll_url": poll_url("public-event-live", [event.slug], event, page=page, q=search),
        "poll_seconds": settings.PUBLIC_POLL_SECONDS,
        # A search's rows are the searcher's own: polled, never pushed.
        "push_url": settings.LIVE_PUSH
        and not search
        and poll_url("public-event-push", [event.slug], event, page=page, lang=get_language()),
        "page_url": reverse("public-event", args=[event.slug]),
        **screen_context(event),
    }


def board_region(event: Event, page: int, search: str, board: selectors.Board | None = None) -> str:
    """The leaderboard's live region; a plain page of it is cached for every viewer.
    `board`: the leaderboard at the event's versions, when the caller has it in hand."""

    def region(page: int = page) -> str:
        context = board_context(event, board or live.board(event), page, search)
        return render_to_string("public/_leaderboard.html", context)

    if search:
        return region()
    return live.cached_fragment(region_name(event, page), live.signature(event), region)


def region_name(event: Event, page: int) -> str:
    """The name a plain page of the leaderboard's region is kept under: apart with the
    push on and off (the region names its stream only with it on, so a copy made before
    a restart that turned it on or off is not served after)."""
    return f"board:{event.slug}:{page}{':push' if settings.LIVE_PUSH else ''}"


def keep_first_page(rebuilt: Event, standings: selectors.Standings) -> None:
    """Once a rebuild has made its standings document, before its version is announced
    (`core.standings.document.keep_rebuilt`, settings.STANDINGS_PRODUCTS): the
    leaderboard's first page, its live region (what the push server sends every open
    page, and a poll is answered), made from the document in hand in the event's
    language, so that neither the push server nor a web process reads the document
    back to make it at each version (docs/benchmarks.md, "A national championship,
    tenth pass"); the board in hand too (the document is kept in the shared cache
    only after the announcement). A private event's pages are not shared: nothing is made. Nor is
    anything made when the event changed since the rebuild (the document is keyed by
    the rebuild's status: finished since, its page must say final)."""
    if not rebuilt.public:
        return
    try:
        event = selectors.public_event(AnonymousUser(), rebuilt.slug)  # with its latest round
    except Missing:  # made private since
        return
    if (
        not event.public
        or event.standings_version != standings.version
        or event.status != rebuilt.status
    ):
        return  # the page that needs it makes it (after a newer rebuild: that one does)
    language = caching.event_language(event.slug) or settings.LANGUAGE_CODE
    with translation.override(language):
        board_region(event, 1, "", live.board(event, standings))


def search_param(request: HttpRequest) -> str:
    if not request.META.get("QUERY_STRING"):
        return ""
    return request.GET.get("q", "").strip()[:60]


def page_param(request: HttpRequest) -> int:
    if not request.META.get("QUERY_STRING"):  # most page loads: the query not parsed
        return 1
    return number_param(request, "page", 1) or 1


def clamped(event: Event, page: int) -> int:
    """Past the last page shows the last one (and is cached as that page)."""
    if page == 1:
        return 1
    return board_context(event, live.board(event), page, "")["page"]


def is_anonymous(request: HttpRequest) -> bool:
    """No session: the visitor is anonymous, without loading a user (or a query)."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES


def cached_page(
    request: HttpRequest,
    slug: str,
    name: str,
    title: Callable[[Event], str],
    content: Callable[[Event], str],
    *,
    cache: bool = True,
) -> HttpResponse:
    """A public page whose content is the same for every viewer, looked up with the
    event in one cache round trip and built (and kept) when the event's signature
    changes. An anonymous visitor gets the whole page as cached (compressed already
    when they accept gzip); a signed-in one, the cached content in a frame rendered
    for them."""
    anonymous = is_anonymous(request)
    # Read from the request's own headers (request.headers would copy them all first).
    gzip = anonymous and bool(ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
    # Each form of the page under its own key, so a request fetches only the one it sends.
    form = "gzip" if gzip else "page" if anonymous else "content"

    def key_of(form: str) -> str:
        return live.page_key(f"page:{name}:{form}")

    key = key_of(form)
    event, hits = live.lookup(request.user, slug, *([key] if cache else []))
    sig = live.signature(event)
    value = caching.opened(hits.get(key), sig)
    if value is caching.MISSING:
        html = mark_safe(content(event))  # rendered by our own templates
        # The frame as an anonymous visitor sees it: no user, no CSRF token (a
        # visitor without a session posts nothing from these pages).
        page = render_to_string("public/page.html", {"title": title(event), "content": html})
        built = {"content": str(html), "page": page, "gzip": compress_string(page.encode())}
        if cache:
            live.keep({key_of(f): v for f, v in built.items()}, sig)
        value = built[form]
    if gzip:
        response = HttpResponse(value)
        response["Content-Encoding"] = "gzip"
    elif anonymous:
        response = HttpResponse(value)
    else:
        context = {"title": title(event), "content": mark_safe(value)}
        response = render(request, "public/page.html", context)
    patch_vary_headers(response, VARY)
    return response


def prizes_shown(event: Event) -> list:
    """The event's prizes by rank, each winner named as the leaderboard names them."""
    winners = event_prize_winners(event)
    names = namesakes_of(event) if winners else {}
    return [replace(w, name=names.get(w.player_id, w.name)) for w in winners]


@require_safe
@gzip_page
def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The event with its live leaderboard: no query while the standings are cached,
    4 when they just changed."""
    page, search = page_param(request), search_param(request)

    def content(event: Event) -> str:
        context = {
            "event": event,
            "rounds": range(1, (event.latest_round or 0) + 1),
            "region": board_region(event, clamped(event, page), search),
            "search": search,
            # The series it belongs to, and its prizes once final.
            "series": series_of_event(event),
            # The public series whose grand final it is (read with the event: no query).
            "final_of": getattr(event, "final_of_slug", None)
            and {
                "slug": event.final_of_slug,
                "name": f"{event.final_of_name} {event.final_of_season or ''}".strip(),
            },
            "prizes": prizes_shown(event),
            "published": public_note(event),  # read with the event: no query
        }
        return render_to_string("public/_event.html", context)

    return cached_page(
        request,
        slug,
        f"event:{slug}:{page}",
        lambda event: _("%(event)s: leaderboard") % {"event": event.name},
        content,
        cache=not search and page <= MAX_CACHED_PAGE,
    )


@require_safe
@never_cache
@gzip_page
def event_live(request: HttpRequest, slug: str) -> HttpResponse:
    page, search = page_param(request), search_param(request)
    return live_response(
        request, slug, lambda event: board_region(event, clamped(event, page), search)
    )


# --- A round's tables -----------------------------------------------------------------


def round_region(event: Event, number: int) -> str:
    selectors.check_round(event, number)

    def region() -> str:
        context = {
            "event": event,
            "round": live.round_board(event, number),
            "poll_url": poll_url("public-round-live", [event.slug, number], event),
            "poll_seconds": settings.PUBLIC_POLL_SECONDS,
            **screen_context(event, number),
        }
        return render_to_string("public/_round_tables.html", context)

    return live.cached_fragment(f"round:{event.slug}:{number}", live.signature(event), region)


@require_safe
@gzip_page
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a round with each seat's set total: no query while cached, 6
    after a change."""

    def content(event: Event) -> str:
        context = {
            "event": event,
            "number": number,
            "rounds": range(1, (event.latest_round or 0) + 1),
            "region": round_region(event, number),
            "published": public_note(event),
        }
        return render_to_string("public/_round.html", context)

    return cached_page(
        request,
        slug,
        f"round:{slug}:{number}",
        lambda event: _("%(event)s: round %(round)s") % {"event": event.name, "round": number},
        content,
    )


@require_safe
@never_cache
@gzip_page
def round_live(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return live_response(request, slug, lambda event: round_region(event, number))


# --- A table's sheet ------------------------------------------------------------------


def table_region(event: Event, number: int, table_number: int) -> str:
    table = selectors.public_table(event, number, table_number)

    def region() -> str:
        context = {
            "event": event,
            "sheet": live.sheet(event, table),
            "poll_url": poll_url("public-table-live", [event.slug, number, table_number], event),
            "poll_seconds": settings.PUBLIC_POLL_SECONDS,
            **screen_context(event, number, table_number),
        }
        return render_to_string("public/_table_sheet.html", context)

    return live.cached_fragment(
        f"table:{event.slug}:{number}:{table_number}", live.signature(event), region
    )


@require_safe
@gzip_page
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A table's hand-by-hand scores and the hand being played: no query while cached,
    6 after a change."""

    def content(event: Event) -> str:
        context = {
            "event": event,
            "number": number,
            "table_number": table,
            "region": table_region(event, number, table),
            "published": public_note(event),
        }
        return render_to_string("public/_table.html", context)

    return cached_page(
        request,
        slug,
        f"table:{slug}:{number}:{table}",
        lambda event: (
            _("%(event)s: round %(round)s, table %(table)s")
            % {"event": event.name, "round": number, "table": table}
        ),
        content,
    )


@require_safe
@never_cache
@gzip_page
def table_live(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    return live_response(request, slug, lambda event: table_region(event, number, table))


# --- The events list, a player, the health check -------------------------------------


# Which events the list shows, and under which heading (a draft is still being set up).
GROUPS = (
    (Event.Status.RUNNING, gettext_lazy("Playing now")),
    (Event.Status.REGISTRATION, gettext_lazy("Coming up")),
    (Event.Status.FINISHED, gettext_lazy("Finished")),
)


@require_safe
@gzip_page
def events(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events: one query."""
    listed = selectors.public_event_list(request.user, [status for status, _ in GROUPS])
    by_status: dict[str, list[Event]] = {status: [] for status, _ in GROUPS}
    for event in listed:
        by_status[event.status].append(event)
    groups = [
        {"status": status, "title": title, "events": by_status[status]} for status, title in GROUPS
    ]
    return render(request, "public/events.html", {"groups": groups, "any": any(by_status.values())})


@require_safe
@gzip_page
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's results in every event and series the viewer may see, their rating
    and its chart, best results and head-to-head: 9 queries (11 with an opponent
    chosen)."""
    history = selectors.player_history(request.user, player_id)
    history.update(ratings.profile(request, history))  # rating, chart, best, head-to-head
    history["series"] = player_series(  # their series results: one query
        player_id, request.user, events=[e["event"] for e in history["events"]]
    )
    return render(request, "public/player.html", history)


def healthz(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmark compares the leaderboard with."""
    return HttpResponse("ok", content_type="text/plain")
