"""REST API v1: an event's standings (API.md, "Standings"). Thin: parse, read the
selector, render.

The standings change only when a rebuild bumps the event's standings version, so the
document is rendered once per version (and page, `?limit=&offset=`), as JSON bytes and
gzip-compressed bytes, and kept in this process and in the shared cache: a read costs
the event's row (who may see it) and a dictionary lookup. Every answer carries a weak
ETag naming that version; a client that sends it back in If-None-Match gets 304 with
no body, and one that accepts gzip gets the compressed bytes.
"""

from __future__ import annotations

import re
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.http.request import HttpHeaders
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from api import standings_shape
from api.guards import MAX_LIMIT, MAX_OFFSET, NUMBER, whole_number
from api.scoring_serializers import StandingsSerializer
from api.support import EventScoped
from core import selectors
from core.caching import (
    ProcessCopies,
    claim_all,
    keep_claimed,
    let_go,
    remember_version,
    still_announced,
    version_key,
    versioned,
    versioned_key,
)
from core.errors import Missing

ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads it

# Rendered documents kept in this process, each under a key naming its version (so
# never stale): the latest few events' pages. Pays for: the standings API's figures in
# docs/benchmarks.md (the whole list 0.32x a trivial view with this copy, where
# fetching 82 KB from Redis per request made it the slowest read).
RENDERED = ProcessCopies(
    "standings API bytes", size=64, why="docs/benchmarks.md: standings API ratio"
)

# A public event's row, kept in this process for anonymous readers no longer than the
# public pages keep theirs, and used only while the shared cache announces the same
# standings version: the read then needs no query at all. Pays for: the anonymous GET
# answered before DRF with no query (docs/benchmarks.md, "The standings API answers an
# anonymous GET before DRF").
EVENT_TTL = 10
EVENTS = ProcessCopies(
    "events read by anonymous standings readers",
    size=64,
    ttl=EVENT_TTL,
    why="docs/benchmarks.md: the anonymous standings read with no query",
)


def is_anonymous(request) -> bool:
    """No credentials at all: no token, no session (the public's reads)."""
    raw = request._request
    return "HTTP_AUTHORIZATION" not in raw.META and settings.SESSION_COOKIE_NAME not in raw.COOKIES


def public_copy(slug: str):
    """This process's copy of a public event, if it is young enough and the shared cache
    still announces its standings version; else None (read it from the database)."""
    event = EVENTS.get(slug)
    if event is None or not still_announced(event):
        return None
    return event


def keep_copy(event) -> None:
    if event.public:
        remember_version(event)  # so the next read finds it announced
        EVENTS.put(event.slug, event)


def standings_data(event, number: int | None, standings=None) -> dict:
    """The standings as the API renders them, kept per standings version (a rebuild
    bumps it, so a kept copy is never stale); from `standings` when the caller has the
    document in hand."""

    def build() -> dict:
        kept = selectors.standings_after(event, number) if standings is None else standings
        return standings_shape.represented(kept)

    return versioned(data_key(event, number), build)


def data_key(event, number: int | None) -> str:
    language = get_language()
    return versioned_key(
        "api-standings", event.pk, event.standings_version, event.status, number, language
    )


def keep_whole_list(event, standings):
    """Once a rebuild has made its standings document (settings.STANDINGS_PRODUCTS):
    the whole list as the API answers it, its document and its bytes, plain and
    compressed, from the document in hand, in the language a client asking for none
    reads (settings.LANGUAGE_CODE: never the event's, `kalooki_site.middleware`). Claimed
    before the version is announced, so a reader at the new version waits for it rather
    than make it too (a 4,096-player list: about 0.1 s of a web process's CPU,
    docs/benchmarks.md, "A national championship, tenth pass"); made after, so the pages
    are not held for it (the eleventh pass). A private event's list is not made."""
    if not event.public:
        return None
    language = settings.LANGUAGE_CODE
    with translation.override(language):
        keys = [data_key(event, None), rendered_key(event, None, None, 0, language)]
    if not claim_all(keys):  # made already, or being made by another process
        return None

    def rest() -> None:
        try:
            with translation.override(language):
                data = standings_shape.represented(standings)
                keep_claimed(keys[0], data)
                body = JSONRenderer().render(data)
                keep_claimed(keys[1], (body, compress_string(body)))
        except BaseException:
            for key in keys:
                let_go(key)  # its readers make it (a claim kept already is gone anyway)
            raise

    return rest


def page_of(data: dict, limit: int | None, offset: int) -> dict:
    """The document with only the standings from `offset`, at most `limit` of them."""
    if limit is None and not offset:
        return data
    end = None if limit is None else offset + limit
    return {**data, "standings": data["standings"][offset:end]}


def rendered(
    event, number: int | None, limit: int | None, offset: int, language: str
) -> tuple[bytes, bytes]:
    """(JSON, gzip-compressed JSON) of one page of the standings at the event's version,
    in `language` (the active one)."""
    key = rendered_key(event, number, limit, offset, language)

    def build() -> tuple[bytes, bytes]:
        body = JSONRenderer().render(page_of(standings_data(event, number), limit, offset))
        return body, compress_string(body)

    # This process keeps the latest version of each page only (docs/benchmarks.md,
    # "Memory of a web process and a worker": each version of a 4,096-player list is
    # 1.3 MB, and old ones are never read again).
    slot = versioned_key("api-standings-page", event.pk, number, limit, offset, language)
    return versioned(key, build, copies=RENDERED, slot=slot)


def rendered_key(event, number: int | None, limit: int | None, offset: int, language: str) -> str:
    # The event's creation time too: an id SQLite gave again after a deletion names
    # another event.
    return versioned_key(
        "api-standings-bytes",
        event.pk,
        event.created_at.timestamp(),
        event.standings_version,
        event.status,
        number,
        limit,
        offset,
        language,
    )


def etag(event, number: int | None, limit: int | None, offset: int, language: str) -> str:
    """Weak: the same for the plain and the compressed bytes of one document, another
    for each language its texts are in."""
    return (
        f'W/"standings-{event.pk}-{event.standings_version}-{event.status}-'
        f'{number or 0}-{limit or 0}-{offset}-{language}"'
    )


def matches(request, tag: str) -> bool:
    """Whether If-None-Match names this version (weak comparison, or `*`)."""
    sent = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not sent:
        return False
    bare = tag.removeprefix("W/")
    return any(
        part.strip() == "*" or part.strip().removeprefix("W/") == bare for part in sent.split(",")
    )


def quiet_number(raw: str | None, *, most: int, least: int = 0) -> int | None | bool:
    """`whole_number` without the error: False for anything it would refuse."""
    if raw is None or raw == "":
        return None
    if not NUMBER.fullmatch(raw) or not least <= int(raw) <= most:
        return False
    return int(raw)


class MetaHeaders:
    """`request.headers.get` (X-Forwarded-For, which DRF's throttles read), read from the
    request's META by Django's own name for it, without making the whole mapping of
    headers first."""

    def __init__(self, meta) -> None:
        self.meta = meta

    def get(self, name: str, default=None):
        return self.meta.get(HttpHeaders.to_wsgi_name(name), default)


class ThrottleShim:
    """What DRF's throttles read of a request (the user, the client's address): an
    anonymous reader's, without wrapping the request in DRF's Request."""

    def __init__(self, request) -> None:
        self._request = request
        self.META = request.META
        self.headers = MetaHeaders(request.META)
        self.user = AnonymousUser()


@cache
def answer_headers(view_class) -> tuple[tuple[str, str], ...]:
    """The headers a fast answer of `view_class` is given besides its own (ETag,
    Cache-Control, Content-Encoding), worked out once: those DRF's `finalize_response`
    adds (Allow; Vary: Accept where it has several renderers) and the Vary of DRF's path
    for a request without cookies (Accept-Language, Cookie), after the answer's own
    (Accept-Encoding). They name the view's methods and renderers, which do not change
    while the process runs."""
    view, response = view_class(), HttpResponse()
    view.setup(None)  # as for a request: a view with GET answers HEAD too
    patch_vary_headers(response, ("Accept-Encoding",))
    view.headers = view.default_response_headers
    view.finalize_response(None, response)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return tuple((name, response[name]) for name in ("Vary", "Allow"))


class StandingsView(EventScoped, APIView):
    permission_classes = [AllowAny]
    # The throttles' verdict, when the fast read already asked them (see `dispatch`).
    _throttle_waits: list | None = None

    def dispatch(self, request, *args, **kwargs):
        """An anonymous GET of a public event whose document is already rendered is
        answered here, before DRF authenticates anyone or checks permissions (there is
        nobody to authenticate, and the public may read): the same throttles counted
        once, the same bytes, ETag, 304 and headers, and one cache round trip in all
        (the count and the announced standings version read together). Anything else,
        or a throttled request (answered 429 by DRF as usual, without counting it
        twice), goes the usual way."""
        fast = self.fast_read(request, kwargs.get("slug", ""))
        if fast is not None:
            # DRF's headers, and the Vary its path gives once the session was looked at
            # for a user: an answer for a request without cookies is not one for a
            # signed-in director (nor, as every answer says, for a reader of another
            # language).
            for name, value in answer_headers(type(self)):
                fast[name] = value
            return fast
        return super().dispatch(request, *args, **kwargs)

    def check_throttles(self, request):
        if self._throttle_waits is None:
            return super().check_throttles(request)
        if self._throttle_waits:
            durations = [wait for wait in self._throttle_waits if wait is not None]
            self.throttled(request, max(durations, default=None))

    def fast_read(self, request, slug: str) -> HttpResponse | None:
        if request.method != "GET":
            return None
        meta, params = request.META, request.GET
        if "HTTP_AUTHORIZATION" in meta or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        if set(params) - {"round", "limit", "offset"}:
            return None
        raw = params.get("round")
        number = None
        if raw is not None:
            if not re.fullmatch(r"[0-9]{1,4}", raw):
                return None
            number = int(raw)
        limit = quiet_number(params.get("limit"), least=1, most=MAX_LIMIT)
        offset = quiet_number(params.get("offset"), most=MAX_OFFSET)
        if limit is False or offset is False:
            return None
        offset = offset or 0
        event = EVENTS.get(slug)
        if event is None:
            return None
        # The throttles and the freshness of this process's copy of the event in one
        # cache round trip: the announced standings version is read beside the count.
        shim, announced = ThrottleShim(request), version_key(slug)
        waits, peeked = [], None
        for throttle in self.get_throttles():
            allowed, read = throttle.counted(shim, self, peek=(announced,))
            peeked = read if read is not None else peeked
            if not allowed:
                waits.append(throttle.wait())
        self._throttle_waits = waits  # counted: DRF's path does not count it again
        if waits:
            return None
        fresh = (
            still_announced(event)  # no limit counts anonymous readers: ask the cache alone
            if peeked is None
            else peeked.get(announced) == (event.standings_version, True)
        )
        if not fresh:
            return None  # the copy is older than the standings: read the event afresh
        language = get_language()
        tag = etag(event, number, limit, offset, language)
        if matches(request, tag):
            response = HttpResponse(status=304)
        else:
            try:
                plain, compressed = rendered(event, number, limit, offset, language)
            except Missing:
                return None  # DRF's path answers the 404 in its own words
            gzip = bool(ACCEPTS_GZIP.search(meta.get("HTTP_ACCEPT_ENCODING", "")))
            response = HttpResponse(compressed if gzip else plain, content_type="application/json")
            if gzip:
                response["Content-Encoding"] = "gzip"
        response["ETag"] = tag
        response["Cache-Control"] = "no-cache"
        return response

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, required=False, description="a closed round"),
            OpenApiParameter(
                "limit",
                int,
                required=False,
                description=f"at most this many standings (1 to {MAX_LIMIT}); all by default",
            ),
            OpenApiParameter(
                "offset", int, required=False, description="skip this many standings first"
            ),
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="the ETag of the standings you hold: 304 while they are current",
            ),
        ],
        responses={200: StandingsSerializer, 304: OpenApiResponse(description="not modified")},
    )
    def get(self, request, slug: str):
        raw = request.query_params.get("round")
        number = None
        if raw is not None:
            if not re.fullmatch(r"[0-9]{1,4}", raw):
                raise exceptions.ValidationError({"round": [_("Give a round number.")]})
            number = int(raw)
        limit = whole_number(request, "limit", least=1, most=MAX_LIMIT)
        offset = whole_number(request, "offset", most=MAX_OFFSET) or 0
        anonymous = is_anonymous(request)
        event = public_copy(slug) if anonymous else None
        if event is None:
            event = self.event
            if anonymous:
                keep_copy(event)
        language = get_language()
        tag = etag(event, number, limit, offset, language)
        if matches(request, tag):
            response = HttpResponse(status=304)
        else:
            plain, compressed = rendered(event, number, limit, offset, language)
            gzip = bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
            response = HttpResponse(compressed if gzip else plain, content_type="application/json")
            if gzip:
                response["Content-Encoding"] = "gzip"
        response["ETag"] = tag
        response["Cache-Control"] = "no-cache" if event.public else "private, no-cache"
        patch_vary_headers(response, ("Accept-Encoding",))
        return response
