"""One owner of caching (`core.caching`): process copies are bounded and expire, a
versioned document is built once per version, a signed one again when its signature
changes, and one reset drops the shared cache and every process copy."""

from __future__ import annotations

import pickle
import threading
import time

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


def test_threads_asking_at_once_for_a_new_document_build_it_once():
    """A new version: every thread of a web process serving a poll asks for the new
    region in the same instant; one builds it, the others wait and read it."""
    built, answers, start = [], [], threading.Barrier(8)

    def build() -> str:
        built.append(1)
        time.sleep(0.2)  # long enough for every other thread to ask meanwhile
        return "region v2"

    def ask() -> None:
        start.wait()
        answers.append(caching.signed("board", (2,), build))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == [1]
    assert answers == ["region v2"] * 8
    assert caching._BUILDERS == {}  # nothing held once they are done


def test_a_process_finding_another_building_waits_for_its_copy():
    """Another web process claimed the new version's board first: this one waits for
    the copy it keeps instead of building the same 4,096 rows again."""
    claim = "board:building:2"
    cache.add(claim, 1, caching.BUILD_WAIT)
    answers = []
    reader = threading.Thread(
        target=lambda: answers.append(caching.signed("board", (2,), lambda: "built here"))
    )
    reader.start()
    time.sleep(0.1)
    assert reader.is_alive()  # waiting for the other process
    cache.set("board", ((2,), pickle.dumps("built there")))  # ...which keeps its copy
    cache.delete(claim)  # ...and lets go
    reader.join(timeout=caching.BUILD_WAIT)
    assert answers == ["built there"]


def test_a_claim_left_by_a_builder_that_died_holds_the_others_only_so_long(monkeypatch):
    monkeypatch.setattr(caching, "BUILD_WAIT", 0.2)
    cache.add("board:building:2", 1, 60)  # never let go
    began = time.monotonic()
    assert caching.signed("board", (2,), lambda: "built here") == "built here"
    assert 0.2 <= time.monotonic() - began < 2


def test_a_copy_kept_by_an_earlier_release_is_built_again_after_a_deploy():
    cache.set("board", ((2,), "the value as an earlier release kept it"))
    assert caching.signed("board", (2,), lambda: "built again") == "built again"
    assert caching.signed("board", (2,), lambda: "not again") == "built again"


def test_a_copy_of_an_older_version_is_told_apart_without_opening_it():
    caching.signed("board", (1,), lambda: ["4,096 rows"])
    sig, kept = cache.get("board")
    assert sig == (1,) and isinstance(kept, bytes)  # the value pickled apart
    assert caching.opened((sig, kept), (2,)) is caching.MISSING


@pytest.mark.parametrize(
    "copies", [PAGES, RENDERED, EVENTS, CLOSED_BASES, CLOSED_SETS, WRITTEN_ROWS]
)
def test_every_process_copy_is_bounded_says_why_and_is_dropped_by_one_reset(copies):
    assert copies.size <= 256 and copies.why
    copies.put("key", "value")
    cache.set("shared", 1)
    caching.reset()
    assert copies.get("key") is None and cache.get("shared") is None


def test_a_versioned_document_another_process_is_building_is_waited_for():
    """The standings job claimed the new version's standings (it builds them before it
    announces them); a web process that read the version from the database meanwhile
    waits for its copy instead of building the same 4,096 rows from the database."""
    key = caching.versioned_key("standings", 1, 2)
    cache.add(f"{key}:building", 1, caching.BUILD_WAIT)
    answers = []
    reader = threading.Thread(
        target=lambda: answers.append(caching.versioned(key, lambda: "built here"))
    )
    reader.start()
    time.sleep(0.1)
    assert reader.is_alive()  # waiting for the job
    cache.set(key, "built by the job")
    cache.delete(f"{key}:building")
    reader.join(timeout=caching.BUILD_WAIT)
    assert answers == ["built by the job"]
    # Built here, it is claimed while it is built and the claim let go after.
    claims = []
    other = caching.versioned_key("standings", 1, 3)
    caching.versioned(other, lambda: claims.append(cache.get(f"{other}:building")) or "v3")
    assert claims == [1] and cache.get(f"{other}:building") is None


def test_redis_answers_are_read_by_the_c_parser():
    """`hiredis` is a dependency for the cache round trips' cost (docs/benchmarks.md,
    seventh pass): redis-py ignores a release it does not take, silently."""
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE
