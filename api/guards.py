"""What stands between the API and hostile input: a JSON parser with a depth limit and
no NUL characters, pages of bounded size, and a token check that slows down guessing.

Kept apart from `api.support` because DRF's settings import these classes while its
views module is still loading.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions, parsers, throttling
from rest_framework.pagination import LimitOffsetPagination

from core.common import UNREADABLE, text_problem
from core.counters import count, counters, uncount
from core.errors import NON_FIELD

# Deeper than any body the API takes (a hand is three levels), far below Python's
# recursion limit, so nothing downstream ever recurses on a hostile document.
MAX_DEPTH = 16
MAX_LIMIT = 1000
# Larger offsets cannot point at anything, and PostgreSQL's OFFSET is a bigint.
MAX_OFFSET = 2**31 - 1


def check_document(data: Any) -> None:
    """Refuse a parsed body nested deeper than MAX_DEPTH, or holding text no field can
    take (a NUL, which PostgreSQL cannot store, another control character, or a lone
    surrogate, which cannot even be written back as UTF-8), naming the field it is in.
    Iterative: a hostile depth cannot exhaust the stack."""
    pending: list[tuple[Any, int, str]] = [(data, 1, "")]
    while pending:
        value, depth, where = pending.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                field = where.split("[", 1)[0].split(".", 1)[0] or NON_FIELD
                if where and where != field:
                    problem = _("%(problem)s (in %(where)s).") % {
                        "problem": problem[:-1],
                        "where": where,
                    }
                raise exceptions.ValidationError({field: [problem]})
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise exceptions.ParseError(
                _("The JSON body is nested deeper than %(most)s levels.") % {"most": MAX_DEPTH}
            )
        if isinstance(value, dict):
            for key, item in value.items():
                key_name = UNREADABLE.sub("?", str(key))
                name = f"{where}.{key_name}" if where else key_name
                pending.append((key, depth + 1, name))
                pending.append((item, depth + 1, name))
        else:
            for index, item in enumerate(value):
                pending.append((item, depth + 1, f"{where}[{index}]"))


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser (NaN and Infinity refused), answering 400 instead of failing on
    a document nested beyond what Python's parser can follow."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise exceptions.ParseError(
                _("The JSON body is nested deeper than %(most)s levels.") % {"most": MAX_DEPTH}
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


class Counted:
    """DRF's rate limits counted with two window counters (`core.counters.count`): a
    sliding window's estimate in one cache round trip, whatever the rate, instead of
    DRF's list of request times read and written back on every request (a minute of
    them at a high rate). Counted in `core.counters`, so still counted while Redis is
    down; a refused request is taken back, as DRF does not count it either."""

    hit = None

    def allow_request(self, request, view) -> bool:
        return self.counted(request, view)[0]

    def counted(self, request, view, peek: tuple[str, ...] = ()) -> tuple[bool, dict | None]:
        """(allowed, the shared cache's values under `peek`, read in the same round
        trip; None when this limit counts nobody here and so read nothing)."""
        if self.rate is None:
            return True, None
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True, None
        self.hit = count(self.key, self.duration, peek=peek)
        if self.hit.estimate() <= self.num_requests:
            return True, self.hit.peeked
        uncount(self.hit)
        return False, self.hit.peeked

    def wait(self) -> float | None:
        return None if self.hit is None else self.hit.wait(self.num_requests)


class AnonRateThrottle(Counted, throttling.AnonRateThrottle):
    """DRF's limit for anonymous clients, per address (rate `anon`)."""


class UserRateThrottle(Counted, throttling.UserRateThrottle):
    """DRF's limit for signed-in users and token holders, per user (rate `user`). An
    anonymous client is the anonymous limit's alone (rate `anon`): counted once, not
    twice."""

    def get_cache_key(self, request, view) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return super().get_cache_key(request, view)


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
    """DRF's token check; an address that sent too many wrong tokens has every wrong
    one answered 429 until its window passes, so a flood of guesses is told to wait.

    A right token is always let through, whatever other clients at its address (a
    venue's Wi-Fi, an office) sent: a key carries 160 random bits, so letting a
    blocked address's guesses still be checked gives a guesser nothing, while
    refusing them would let anyone lock out everyone behind the same address."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        throttle = AuthFailureThrottle()
        blocked = throttle.blocked(request)
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            if blocked:
                raise exceptions.Throttled(
                    throttle.wait(), _("Too many requests with a wrong token.")
                ) from None
            throttle.failed()
            raise


NUMBER = re.compile(r"[0-9]{1,10}")


def whole_number(request, name: str, *, most: int, least: int = 0) -> int | None:
    """A query parameter that must be a whole number from `least` to `most` (None when
    absent); anything else is a 400 naming it."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not NUMBER.fullmatch(raw) or not least <= int(raw) <= most:
        raise exceptions.ValidationError(
            {
                name: [
                    _("Give a whole number from %(least)s to %(most)s, not %(value)s.")
                    % {"least": least, "most": most, "value": repr(raw[:20])}
                ]
            }
        )
    return int(raw)
