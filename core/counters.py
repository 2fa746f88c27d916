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

from django.core.cache import caches
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

    def get_many(self, *args, **kwargs):
        return self._either("get_many", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._either("set", *args, **kwargs)

    def add(self, *args, **kwargs):
        return self._either("add", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._either("incr", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._either("delete", *args, **kwargs)

    def clear(self):
        self.local.clear()
        return self._either("clear")
