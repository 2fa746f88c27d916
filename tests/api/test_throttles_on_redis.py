"""The API's rate limits on the site's own Redis configuration (a private redis-server):
an anonymous standings read answered before DRF costs one round trip to Redis in all
(its limit counted and the announced standings version read together), the limits hold
across processes sharing Redis, and a refused request is not counted against the client.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.test.utils import override_settings
from redis.connection import AbstractConnection
from redis.exceptions import ResponseError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from core.caching import forget_process_copies, version_key
from core.counters import Hit, count, round_trip
from kalooki_site.settings import cache_settings
from tests.processes import RedisServer

pytestmark = pytest.mark.django_db

URL = "/api/v1/events/kingston/standings/"


@pytest.fixture(scope="module")
def redis():
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture
def on_redis(redis):
    """The site's cache and counters on the private Redis, emptied before and after."""
    with override_settings(CACHES=cache_settings(redis.url(0))):
        cache.clear()
        forget_process_copies()
        yield
        cache.clear()
        forget_process_copies()


class RoundTrips:
    """Counts the commands (or pipelines of commands) sent to Redis: each is one round
    trip, as redis-py writes a pipeline in one packed send."""

    def __init__(self) -> None:
        self.sent = 0
        self.original = AbstractConnection.send_packed_command

    def __enter__(self):
        def counted(connection, command, *args, **kwargs):
            self.sent += 1
            return self.original(connection, command, *args, **kwargs)

        self.patch = mock.patch.object(AbstractConnection, "send_packed_command", counted)
        self.patch.start()
        return self

    def __exit__(self, *exc) -> None:
        self.patch.stop()


def test_an_anonymous_standings_read_costs_one_round_trip_to_redis(on_redis, entry_world):
    reader = APIClient()
    first = reader.get(URL, HTTP_ACCEPT_ENCODING="gzip")  # reads the event, renders, keeps
    assert first.status_code == 200
    for headers in ({"HTTP_ACCEPT_ENCODING": "gzip"}, {"HTTP_IF_NONE_MATCH": first["ETag"]}):
        with RoundTrips() as trips:
            again = reader.get(URL, **headers)
        assert again.status_code in (200, 304)
        assert trips.sent == 1, f"{trips.sent} round trips to Redis for {headers}"
    assert again.status_code == 304


def test_a_newer_announced_version_sends_the_read_to_the_database(on_redis, entry_world):
    reader = APIClient()
    assert reader.get(URL).status_code == 200
    cached = cache.get(version_key("kingston"))
    # Another process rebuilt the standings: the copy this process keeps is now old.
    cache.set(version_key("kingston"), (cached[0] + 1, True))
    with RoundTrips() as trips:
        assert reader.get(URL).status_code == 200
    assert trips.sent > 1  # the fast read gave way to the full one


def test_the_limit_holds_across_processes_and_refusals_do_not_count(on_redis, entry_world):
    rates = {"anon": "3/minute", "user": "100/minute"}
    with (
        mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", rates),
        mock.patch.object(UserRateThrottle, "THROTTLE_RATES", rates),
    ):
        answers = [APIClient().get(URL, REMOTE_ADDR="10.1.2.3").status_code for _ in range(3)]
        forget_process_copies()  # as another web process would: its own copies, one Redis
        refused = [APIClient().get(URL, REMOTE_ADDR="10.1.2.3") for _ in range(3)]
        other = APIClient().get(URL, REMOTE_ADDR="10.1.2.4")
    assert answers == [200, 200, 200]
    assert [r.status_code for r in refused] == [429, 429, 429]
    assert all(int(r["Retry-After"]) > 0 for r in refused)
    assert other.status_code == 200
    # Three allowed and counted; the refused ones were taken back.
    keys = [k for k in cache.client.get_client().keys("*throttle_anon_10.1.2.3*")]
    assert sum(int(cache.client.get_client().get(k)) for k in keys) == 3


def test_the_window_before_weighs_less_as_time_passes():
    one_full_window_ago = Hit(this=1, previous=10, elapsed=0, window=60, peeked={})
    half_way = Hit(this=1, previous=10, elapsed=30, window=60, peeked={})
    assert one_full_window_ago.estimate() == 11
    assert half_way.estimate() == 6
    assert half_way.wait(allowed=6) == 0
    # 10 before, 1 now, 3 allowed: room once the window before weighs 2, 48 s in.
    assert half_way.wait(allowed=3) == pytest.approx(18)
    assert Hit(this=5, previous=0, elapsed=20, window=60, peeked={}).wait(allowed=3) == 40


def test_counting_peeks_at_the_cache_in_the_same_call(on_redis):
    cache.set("kalooki:test:peeked", (7, True))
    with RoundTrips() as trips:
        hit = count("test-counter", 60, peek=("kalooki:test:peeked", "kalooki:test:absent"))
    assert trips.sent == 1
    assert hit.this == 1 and hit.previous == 0
    assert hit.peeked == {"kalooki:test:peeked": (7, True)}


def test_a_window_s_counter_expires_after_two_windows_and_keeps_its_first_expiry(on_redis):
    first = count("test-expiring", 60)
    client = caches["counters"].client.get_client(write=True)
    key = caches["counters"].make_key(first.counter)
    assert 0 < client.ttl(key) <= 121
    client.expire(key, 500)
    assert count("test-expiring", 60).this == 2
    assert client.ttl(key) > 121  # NX: a later count does not push the expiry back


def test_a_connection_the_server_closed_is_replaced_not_counted_locally(on_redis):
    client = caches["counters"].client.get_client(write=True)
    count("test-reconnect", 60)
    client.client_kill_filter(_type="normal", skipme=True)  # every other connection
    with mock.patch.object(LocMemCache, "incr", side_effect=AssertionError("counted locally")):
        assert count("test-reconnect", 60).this == 2


def test_an_error_reply_is_raised_and_leaves_the_pool_answering(on_redis):
    client = caches["counters"].client.get_client(write=True)
    client.set("kalooki:test:not-a-number", "x")
    with pytest.raises(ResponseError):
        round_trip(client, [("INCR", "kalooki:test:not-a-number"), ("GET", "kalooki:test:x")])
    assert round_trip(client, [("SET", "kalooki:test:x", "1"), ("GET", "kalooki:test:x")]) == [
        b"OK",
        b"1",
    ]


def test_a_token_holder_is_held_to_the_user_limit_not_the_anonymous_one(on_redis, entry_world):
    rates = {"anon": "2/minute", "user": "3/minute"}
    holder = APIClient()
    token = Token.objects.create(user=entry_world.alice)
    holder.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    with (
        mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", rates),
        mock.patch.object(UserRateThrottle, "THROTTLE_RATES", rates),
    ):
        answers = [holder.get(URL, REMOTE_ADDR="10.1.2.5").status_code for _ in range(4)]
        anonymous = APIClient().get(URL, REMOTE_ADDR="10.1.2.5")
    assert answers == [200, 200, 200, 429]
    assert anonymous.status_code == 200  # the same address, counted apart
