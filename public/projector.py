"""The projector view: the venue screen, a page of the list at a time, turning by
itself. The server renders only the page shown, as many rows as the projector's screen
holds (its script measures them); the projector asks for the next page as it turns."""

from __future__ import annotations

from math import ceil
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from core import caching, selectors
from public import live
from public.views import (
    board_rows,
    live_response,
    number_param,
    page_param,
    poll_url,
    screen_context,
)
from tournaments.models import Event

# The projector turns its page every this many seconds (?every= overrides it).
PROJECTOR_SECONDS = 10
# Rows on a projector's page until its script has measured how many fit the screen (a
# first load, or no script), and the most it may ask for.
PROJECTOR_ROWS = 20
PROJECTOR_ROWS_MOST = 200
# Pages cached for every projector asking for them: past this many rows in, rendered
# for each request (no field is that long; the key space stays bounded).
PROJECTOR_CACHED_ROWS = 10_000


def projector_params(request: HttpRequest) -> tuple[int, int]:
    """The page a projector asks for, and its rows per page (the screen it measured)."""
    rows = number_param(request, "rows", PROJECTOR_ROWS) or PROJECTOR_ROWS
    return page_param(request), min(max(rows, 5), PROJECTOR_ROWS_MOST)


def projector_list(board: selectors.Board) -> tuple:
    """What the projector pages through: the board's list, the withdrawn left out of
    the field."""
    rows = board_rows(board)
    if board.phase == "field":
        rows = tuple(row for row in rows if not row.withdrawn)
    return rows


def projector_region(event: Event, page: int = 1, per: int = PROJECTOR_ROWS) -> str:
    """One page of the projector's list, as many rows as its screen holds: the server
    renders only what is shown (a national championship's 4,096 rows were 1.6 MB and
    0.4 s a version), and the projector asks for its next page as it turns."""

    def region() -> str:
        board = live.board(event)
        rows = projector_list(board)
        pages = max(1, ceil(len(rows) / per))
        shown = min(max(page, 1), pages)
        live_url = reverse("public-projector-live", args=[event.slug])
        context = {
            "event": event,
            "board": board,
            "rows": rows[(shown - 1) * per : shown * per],
            "page": shown,
            "pages": pages,
            "per": per,
            "total": len(rows),
            "turn_url": f"{live_url}?{urlencode({'rows': per})}",
            "page_url": reverse("public-projector", args=[event.slug]),
            "poll_url": poll_url(
                "public-projector-live", [event.slug], event, page=shown, rows=per
            ),
            "poll_seconds": settings.PUBLIC_POLL_SECONDS,
            **screen_context(event),
        }
        return render_to_string("public/_projector_board.html", context)

    if page * per > PROJECTOR_CACHED_ROWS:
        return region()
    name = f"projector:{event.slug}:{page}:{per}"
    return live.cached_fragment(name, live.signature(event), region)


@require_safe
@gzip_page
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The venue screen: large type, the whole leaderboard a page at a time. A page of
    its own (no site header), the same for everyone: cached whole."""
    every = min(number_param(request, "every", PROJECTOR_SECONDS) or PROJECTOR_SECONDS, 600)
    page, per = projector_params(request)
    cache = page * per <= PROJECTOR_CACHED_ROWS
    key = live.page_key(f"page:projector:{slug}:{every}:{page}:{per}")
    event, hits = live.lookup(request.user, slug, *([key] if cache else []))

    def content() -> str:
        context = {"event": event, "region": projector_region(event, page, per), "every": every}
        return render_to_string("public/projector.html", context)

    if not cache:
        return HttpResponse(content())
    html = caching.signed(key, live.signature(event), content, hits.get(key))
    return HttpResponse(html)


@require_safe
@never_cache
@gzip_page
def projector_live(request: HttpRequest, slug: str) -> HttpResponse:
    page, per = projector_params(request)
    return live_response(request, slug, lambda event: projector_region(event, page, per))
