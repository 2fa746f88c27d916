"""What stands between the API and hostile input: a JSON parser with a depth limit and
no NUL characters, pages of bounded size, and a token check that slows down guessing.

Kept apart from `api.support` because DRF's settings import these classes while its
views module is still loading.
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions, parsers, throttling
from rest_framework.pagination import LimitOffsetPagination

from core.counters import counters

# Deeper than any body the API takes (a hand is three levels), far below Python's
# recursion limit, so nothing downstream ever recurses on a hostile document.
MAX_DEPTH = 16
MAX_LIMIT = 1000
# Larger offsets cannot point at anything, and PostgreSQL's OFFSET is a bigint.
MAX_OFFSET = 2**31 - 1


def check_document(data: Any) -> None:
    """Refuse a parsed body nested deeper than MAX_DEPTH or holding a NUL character
    (which PostgreSQL cannot store in text). Iterative: a hostile depth cannot
    exhaust the stack."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise exceptions.ParseError("Text in the body may not contain NUL characters.")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise exceptions.ParseError(f"The JSON body is nested deeper than {MAX_DEPTH} levels.")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            pending.append((key, depth + 1))
            pending.append((item, depth + 1))


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser (NaN and Infinity refused), answering 400 instead of failing on
    a document nested beyond what Python's parser can follow."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise exceptions.ParseError(
                f"The JSON body is nested deeper than {MAX_DEPTH} levels."
            ) from error
        check_document(data)
        return data


class Pagination(LimitOffsetPagination):
    """?limit= and ?offset= as DRF reads them, each with a maximum."""

    max_limit = MAX_LIMIT

    def get_offset(self, request) -> int:
        raw = request.query_params.get(self.offset_query_param, "")
        if not (raw.isascii() and raw.isdigit()):
            return 0
        return MAX_OFFSET if len(raw) > 10 else min(int(raw), MAX_OFFSET)


class AnonRateThrottle(throttling.AnonRateThrottle):
    """DRF's, counting in `core.counters`: still counted while Redis is down."""

    cache = counters


class UserRateThrottle(throttling.UserRateThrottle):
    """DRF's, counting in `core.counters`: still counted while Redis is down."""

    cache = counters


class AuthFailureThrottle(throttling.SimpleRateThrottle):
    """Counts requests with a wrong token, per client address (rate `auth-failure`), in
    `core.counters`: still counted while Redis is down."""

    scope = "auth-failure"
    cache = counters

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def blocked(self, request) -> bool:
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) >= self.num_requests

    def failed(self) -> None:
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check; a client that sent too many wrong tokens is answered 429
    until its window passes, so tokens cannot be guessed at speed."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        throttle = AuthFailureThrottle()
        if throttle.blocked(request):
            raise exceptions.Throttled(throttle.wait(), "Too many requests with a wrong token.")
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            throttle.failed()
            raise
