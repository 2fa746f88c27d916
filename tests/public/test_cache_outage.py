"""Reads degrade instead of failing (docs/faults.md, "Redis down"): with the Redis
cache unreachable, the public pages and the standings API are served from the
database, correct and within their query budgets, and once Redis answers again they
use it by themselves. The cache is the real django-redis backend on a private
redis-server that the test stops and starts."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test.utils import override_settings

from core.caching import forget_process_copies
from kalooki_site.settings import cache_settings
from tests.fixtures import kept_for_the_module
from tests.processes import RedisServer, free_port
from tests.public.test_queries import CACHED, PAGES, demo, queries, url

pytestmark = pytest.mark.django_db

READS = [*PAGES, "/api/v1/events/{slug}/standings/"]


def redis_cache(port: int) -> dict:
    """The site's own cache settings, as CACHE_URL gives them in production."""
    return cache_settings(f"redis://127.0.0.1:{port}/0")


@pytest.fixture(scope="module")
def port() -> int:
    return free_port()


@pytest.fixture(scope="module")
def demos(django_db_setup, django_db_blocker):
    """The demo events of 8 and 32 players, made once for the module's tests (which
    only read them): their slugs."""
    yield from kept_for_the_module(django_db_blocker, lambda: [demo(8).slug, demo(32).slug])


@pytest.mark.parametrize("path", READS)
def test_every_public_read_answers_from_the_database_while_redis_is_down(
    client, port, path, still_clock, small, large
):
    expected = client.get(url(path, large)).content  # built with the local cache
    forget_process_copies()  # nor this process's own copies of what it built
    with override_settings(CACHES=redis_cache(port)):  # nothing listens on this port
        started = time.monotonic()
        counts = [queries(client, url(path, small)), queries(client, url(path, large))]
        response = client.get(url(path, large))
        assert time.monotonic() - started < 5
    assert response.status_code == 200
    assert response.content.split(b"<main")[-1] == expected.split(b"<main")[-1]
    # Slower without its cache, but still a fixed number of queries whatever the size.
    assert counts[0] == counts[1], f"{path}: {counts}"


def test_pages_use_redis_again_by_themselves_once_it_is_back(client, port, small):
    address = url(CACHED[0], small)
    with override_settings(CACHES=redis_cache(port)):
        assert client.get(address).status_code == 200  # down: from the database
        redis = RedisServer(port)
        try:
            client.get(address)  # up again: built once more and kept
            assert queries(client, address) == 0  # ...and now answered from Redis
            assert cache.get_many([]) == {}
        finally:
            redis.stop()
        assert client.get(address).status_code == 200  # down again: still answered
