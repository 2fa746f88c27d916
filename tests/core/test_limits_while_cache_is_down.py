"""While Redis is down the clients' limits still hold, counted in each process (wrong
players' codes, the anonymous API, wrong tokens), and the outage's traceback is logged
once per interval, not once per request. The cache is the site's own django-redis
configuration on a port nobody listens on."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from core import services
from core.errors import Forbidden, TooManyAttempts
from kalooki_site.logs import OncePerInterval
from kalooki_site.settings import cache_settings
from tests.processes import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down():
    with override_settings(CACHES=cache_settings(f"redis://127.0.0.1:{free_port()}/0")):
        yield


@pytest.fixture
def fresh_log():
    """The outage not yet logged in this process (an earlier test may have)."""
    for logger in ("kalooki_site.cache", "core.background"):
        for found in logging.getLogger(logger).filters:
            if isinstance(found, OncePerInterval):
                found.forget()


def wrong_code(table) -> Exception:
    try:
        services.identify_player(table=table, code="WRONG-CODE", client="203.0.113.9")
    except (Forbidden, TooManyAttempts) as error:
        return error
    raise AssertionError("a wrong code was taken")


def test_wrong_codes_are_still_refused_with_429_while_redis_is_down(entry_world, redis_down):
    allowed = settings.TABLE_CODE_ATTEMPTS
    refusals = [wrong_code(entry_world.table) for _ in range(allowed + 1)]
    assert all(isinstance(error, Forbidden) for error in refusals[:allowed])
    assert isinstance(refusals[-1], TooManyAttempts) and refusals[-1].status_code == 429


def test_the_page_refuses_the_eleventh_wrong_code_with_429(entry_world, redis_down):
    phone = Client(REMOTE_ADDR="203.0.113.10")
    address = "/events/kingston/rounds/1/tables/1/enter/"
    answers = [
        phone.post(address, {"code": "WRONG-CODE"}).status_code
        for _ in range(settings.TABLE_CODE_ATTEMPTS + 1)
    ]
    assert answers == [403] * settings.TABLE_CODE_ATTEMPTS + [429]


def test_the_anonymous_api_still_throttles_while_redis_is_down(entry_world, redis_down):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "3/minute"}
    with mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", rates):
        client = APIClient()
        answers = [client.get("/api/v1/events/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


def test_wrong_tokens_are_still_throttled_while_redis_is_down(entry_world, redis_down):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["auth-failure"].split("/")[0])
    answers = [client.get("/api/v1/events/").status_code for _ in range(limit + 1)]
    assert answers[:limit] == [401] * limit and answers[-1] == 429


def test_the_outage_is_logged_once_per_interval_not_per_request(
    entry_world, redis_down, fresh_log, caplog
):
    caplog.set_level(logging.WARNING)
    for _ in range(20):
        wrong_code(entry_world.table)
        Client().get("/events/kingston/")
    tracebacks = [r for r in caplog.records if r.exc_info and r.name == "kalooki_site.cache"]
    kinds = {(r.getMessage(), r.exc_info[0]) for r in tracebacks}
    assert tracebacks, "the outage is not logged at all"
    assert len(tracebacks) == len(kinds) <= 2, [r.getMessage() for r in tracebacks]


def test_the_next_traceback_says_how_many_were_left_out():
    kept = OncePerInterval(seconds=0.2)
    record = logging.LogRecord("kalooki_site.cache", logging.ERROR, "", 0, "down", None, None)
    assert kept.filter(record)
    assert not any(kept.filter(logging.makeLogRecord(record.__dict__)) for _ in range(5))
    with mock.patch("kalooki_site.logs.time.monotonic", return_value=10**9):
        later = logging.makeLogRecord({**record.__dict__, "msg": "down"})
        assert kept.filter(later)
    assert "5 more like this" in later.getMessage()
