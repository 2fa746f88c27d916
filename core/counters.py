"""Counters that limit clients (wrong players' codes, the API's throttles, wrong
tokens), kept where every web process sees them, and still kept when that is down.

They live in the shared cache (Redis in production), so a limit holds however many
processes serve the site. The cache proper treats Redis being down as "not cached"
(pages are built from the database), but a counter read as "not counted" is a limit
switched off, for exactly as long as the outage lasts. So counters go through their own
cache alias (`counters`, `kalooki_site.settings.cache_settings`) whose backend, while
Redis does not answer, counts in this process instead: a bounded per-process count, so
each process holds its clients to the limit by itself (a client spread over N
processes gets at most N times its allowance) until Redis answers again.

The outage is logged through the cache's logger, which says it once per interval
(`kalooki_site.logs.OncePerInterval`), not once per request.
"""

from __future__ import annotations

import logging
import time
from contextlib import suppress
from typing import NamedTuple

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.connection import ConnectionProxy
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

ALIAS = "counters"
# Clients counted by one process while Redis is down: far above a venue's phones and
# the API's clients in one outage; the oldest go first beyond it.
LOCAL_MAX_ENTRIES = 20_000
UNREACHABLE = (RedisError, ConnectionInterrupted, OSError)

log = logging.getLogger("kalooki_site.cache")

# What the limits count with: `counters.get(...)`, as `django.core.cache.cache`.
counters = ConnectionProxy(caches, ALIAS)


class Hit(NamedTuple):
    """One request counted in a window of `window` seconds: the count in this window
    (this request included), the count in the window before, how far into this window
    it came (seconds), the values read beside it (`count`'s `peek`), and this window's
    counter."""

    this: int
    previous: int
    elapsed: float
    window: int
    peeked: dict
    counter: str = ""

    def estimate(self) -> float:
        """Requests in the last `window` seconds, the window before weighted by how much
        of it that span still covers (a sliding window from two counters)."""
        return self.this + self.previous * (1 - self.elapsed / self.window)

    def wait(self, allowed: int) -> float:
        """Seconds until the estimate is back within `allowed` (0 if it is)."""
        if self.estimate() <= allowed:
            return 0.0
        if self.this > allowed:
            return self.window - self.elapsed  # this window alone is over: its end
        # The window before weighs less as time passes: until it leaves room.
        share = 1 - (allowed - self.this) / self.previous
        return max(0.0, self.window * share - self.elapsed)


def slots(key: str, window: int) -> tuple[str, str, float]:
    """This window's and the previous window's counter keys, and the seconds into this one."""
    slot, elapsed = divmod(time.time(), window)
    return f"{key}:{int(slot)}", f"{key}:{int(slot) - 1}", elapsed


def count(key: str, window: int, *, peek: tuple[str, ...] = ()) -> Hit:
    """Count one request under `key` in windows of `window` seconds and read the count
    of the window before, and the shared cache's values under `peek`: with Redis, one
    round trip for all of it (the cache and the counters live in the same Redis)."""
    backend = caches[ALIAS]
    if isinstance(backend, RedisOrLocalCounters):
        return backend.count(key, window, peek)
    return count_locally(backend, key, window, peek)


def uncount(hit: Hit) -> None:
    """Take back a request `count` counted and the limit then refused (a refused request
    does not count against the client)."""
    with suppress(ValueError):  # the counter expired meanwhile: nothing to take back
        counters.decr(hit.counter)


def count_locally(store, key: str, window: int, peek: tuple[str, ...]) -> Hit:
    this, last, elapsed = slots(key, window)
    store.add(this, 0, 2 * window + 1)
    now = store.incr(this)
    previous = store.get(last) or 0
    return Hit(now, previous, elapsed, window, cache.get_many(list(peek)) if peek else {}, this)


def round_trip(client, commands: list[tuple]) -> list:
    """`commands` sent together on one of `client`'s pooled connections, and their
    replies: what a redis-py pipeline without a transaction sends and reads, without
    its bookkeeping per command (half its CPU for the API's four: 45 against 95 us,
    docs/benchmarks.md, "eighth pass"). An error reply is raised as redis-py raises
    it; a connection that failed mid-way is closed before it goes back to the pool
    (the pool reconnects it when next handed out)."""
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command(connection.pack_commands(commands))
        return [connection.read_response() for _ in commands]
    except BaseException:
        connection.disconnect()
        raise
    finally:
        pool.release(connection)


class RedisOrLocalCounters(RedisCache):
    """django-redis, for counters: each call goes to Redis, and while Redis does not
    answer, to a bounded copy in this process (never "not counted")."""

    def __init__(self, server, params):
        options = {**params.get("OPTIONS", {}), "IGNORE_EXCEPTIONS": False}
        super().__init__(server, {**params, "OPTIONS": options})
        self.local = LocMemCache(
            f"kalooki-counters-{server}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": LOCAL_MAX_ENTRIES}},
        )

    def _either(self, name, *args, **kwargs):
        try:
            return getattr(super(), name)(*args, **kwargs)
        except UNREACHABLE:
            log.warning(
                "Redis does not answer: limits are counted in each process meanwhile.",
                exc_info=True,
            )
            return getattr(self.local, name)(*args, **kwargs)

    def get(self, *args, **kwargs):
        return self._either("get", *args, **kwargs)

    def count(self, key: str, window: int, peek: tuple[str, ...]) -> Hit:
        """`count` in one pipelined round trip: INCR this window's counter (kept for two
        windows), read the previous one, and read `peek` from the shared cache (same
        Redis, the default cache's keys and encoding). While Redis does not answer, the
        request is counted in this process and nothing is peeked."""
        this, last, elapsed = slots(key, window)
        counter = self.make_key(this)
        commands = [
            ("INCR", counter),
            ("EXPIRE", counter, 2 * window + 1, "NX"),
            ("GET", self.make_key(last)),
            *(("GET", cache.make_key(name)) for name in peek),
        ]
        try:
            now, _expiry, previous, *values = round_trip(
                self.client.get_client(write=True), commands
            )
        except UNREACHABLE:
            log.warning(
                "Redis does not answer: limits are counted in each process meanwhile.",
                exc_info=True,
            )
            return count_locally(self.local, key, window, ())
        peeked = {
            name: self.client.decode(value)
            for name, value in zip(peek, values, strict=True)
            if value is not None
        }
        return Hit(int(now), int(previous or 0), elapsed, window, peeked, this)

    def get_many(self, *args, **kwargs):
        return self._either("get_many", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._either("set", *args, **kwargs)

    def add(self, *args, **kwargs):
        return self._either("add", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._either("incr", *args, **kwargs)

    def decr(self, *args, **kwargs):
        return self._either("decr", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._either("delete", *args, **kwargs)

    def clear(self):
        self.local.clear()
        return self._either("clear")
