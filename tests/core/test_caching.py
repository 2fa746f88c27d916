"""One owner of caching (`core.caching`): process copies are bounded and expire, a
versioned document is built once per version, a signed one again when its signature
changes, and one reset drops the shared cache and every process copy."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from api.standings import EVENTS, RENDERED
from core import caching
from core.standings.rebuild import CLOSED_BASES, CLOSED_SETS, WRITTEN_ROWS
from public.live import PAGES


def test_process_copies_keep_at_most_their_size_and_drop_the_oldest_first():
    copies = caching.ProcessCopies("test", size=2, why="a test")
    copies.put("a", 1), copies.put("b", 2), copies.put("c", 3)
    assert (copies.get("a"), copies.get("b"), copies.get("c")) == (None, 2, 3)
    assert len(copies) == 2


def test_a_process_copy_past_its_time_is_not_served(monkeypatch):
    copies = caching.ProcessCopies("test", size=4, ttl=10, why="a test")
    now = [100.0]
    monkeypatch.setattr(caching.time, "monotonic", lambda: now[0])
    copies.put("event", "row")
    now[0] = 109.0
    assert copies.get("event") == "row"
    now[0] = 111.0
    assert copies.get("event") is None


def test_a_versioned_document_is_built_once_per_key_and_served_from_the_process():
    copies = caching.ProcessCopies("test", size=4, why="a test")
    built = []
    key = caching.versioned_key("doc", 7, 3)
    for _ in range(3):
        assert caching.versioned(key, lambda: built.append(1) or "doc", copies=copies) == "doc"
    assert built == [1]
    assert cache.get(key) == "doc"
    cache.delete(key)  # another process's cache is gone: this process's copy still serves
    assert caching.versioned(key, lambda: "other", copies=copies) == "doc"


def test_a_signed_document_is_built_again_when_its_signature_changes():
    assert caching.signed("k", (1,), lambda: "first") == "first"
    assert caching.signed("k", (1,), lambda: "again") == "first"
    assert caching.signed("k", (2,), lambda: "second") == "second"


@pytest.mark.parametrize(
    "copies", [PAGES, RENDERED, EVENTS, CLOSED_BASES, CLOSED_SETS, WRITTEN_ROWS]
)
def test_every_process_copy_is_bounded_says_why_and_is_dropped_by_one_reset(copies):
    assert copies.size <= 256 and copies.why
    copies.put("key", "value")
    cache.set("shared", 1)
    caching.reset()
    assert copies.get("key") is None and cache.get("shared") is None
