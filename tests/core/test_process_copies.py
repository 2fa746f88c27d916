"""What one process keeps of derived data between requests and tasks is bounded, in
entries and in bytes: filling a store past its caps keeps it within them, a copy too
big on its own is not kept, and the caches of names and printed lines keep neither
long texts nor more than their declared memory."""

from __future__ import annotations

import tracemalloc
from fractions import Fraction

import pytest

from api.standings import EVENTS, RENDERED
from core import caching
from core.caching import ANNOUNCED, EVENT_LANGUAGES, ProcessCopies, approximate_bytes
from core.entries.selectors import NAMESAKES
from core.pdf import direction
from core.standings.document import MADE
from core.standings.rebuild import CLOSED_BASES, CLOSED_SETS, WRITTEN_ROWS
from game import collation
from game.ranking import ClosedTally, SetRecord
from public.live import BOARDS, PAGES
from public.views import GZIPPED

MB = 2**20
SITE_COPIES = [
    PAGES,
    RENDERED,
    EVENTS,
    ANNOUNCED,
    CLOSED_BASES,
    CLOSED_SETS,
    WRITTEN_ROWS,
    MADE,
    NAMESAKES,
    BOARDS,
    GZIPPED,
    EVENT_LANGUAGES,
]


def closed_sets(players: int = 4096, rounds: int = 9) -> list[SetRecord]:
    """The closed rounds' sets of a national championship, as a rebuild reads them."""
    return [
        SetRecord(
            entry=100_000 + i % players,
            round=i // players + 1,
            table=i % players // 4 + 1,
            total=1_000 + i * 7 % 900,
            hands_won=i % 9,
            penalty_points=0,
        )
        for i in range(players * rounds)
    ]


def test_filled_past_its_entries_a_store_keeps_the_newest_within_its_size():
    copies = ProcessCopies("test", size=8, why="a test")
    for n in range(100):
        copies.put(n, f"copy {n}")
    assert len(copies) == 8
    assert [copies.get(n) for n in range(92, 100)] == [f"copy {n}" for n in range(92, 100)]
    assert copies.get(91) is None


def test_filled_past_its_bytes_a_store_keeps_the_newest_within_its_bytes():
    copies = ProcessCopies("test", size=64, max_bytes=3 * MB + MB // 2, why="a test")
    for n in range(10):
        copies.put(n, (b"j" * MB, b"z" * 1000))  # a document and its compressed bytes
        assert copies.bytes <= copies.max_bytes
    assert len(copies) == 3
    assert all(copies.get(n) is not None for n in (7, 8, 9))
    assert copies.get(6) is None


def test_a_copy_kept_again_under_its_key_is_counted_once():
    copies = ProcessCopies("test", size=4, max_bytes=10 * MB, why="a test")
    for _ in range(50):
        copies.put("board", b"x" * MB)
    assert len(copies) == 1 and MB <= copies.bytes < 2 * MB


def test_a_copy_bigger_than_the_whole_store_is_not_kept_and_leaves_the_others():
    copies = ProcessCopies("test", size=4, max_bytes=2 * MB, why="a test")
    copies.put("small", b"s" * 1000)
    copies.put("huge", b"h" * 3 * MB)
    assert copies.get("huge") is None and copies.get("small") == b"s" * 1000
    assert copies.refused == 1


def test_an_expired_copy_is_let_go(monkeypatch):
    copies = ProcessCopies("test", size=4, ttl=10, why="a test")
    now = [100.0]
    monkeypatch.setattr(caching.time, "monotonic", lambda: now[0])
    copies.put("event", b"e" * 5000)
    now[0] = 111.0
    assert copies.get("event") is None
    assert len(copies) == 0 and copies.bytes == 0


def test_a_copy_kept_for_its_own_time_is_let_go_in_a_store_with_none(monkeypatch):
    """A public event's row is kept among the pages (no lifetime of their own) for
    EVENT_TTL seconds only (public.live): a change that moves no version reaches page
    loads within that time."""
    copies = ProcessCopies("test", size=4, why="a test")
    now = [100.0]
    monkeypatch.setattr(caching.time, "monotonic", lambda: now[0])
    copies.put("event", "the row", ttl=10)
    copies.put("page", "the page")
    now[0] = 109.0
    assert copies.get("event") == "the row"
    now[0] = 111.0
    assert copies.get("event") is None
    assert copies.get("page") == "the page"  # kept with no lifetime: kept
    assert len(copies) == 1


@pytest.mark.parametrize(
    "make",
    [
        closed_sets,
        lambda: {
            100_000 + i: ClosedTally(points=1_000 + i, table_points=Fraction(i, 3), best_set=500)
            for i in range(4096)
        },
        lambda: (7, 12, {100_000 + i: (7_000_000 + i, (1_000 + i, 300 + i)) for i in range(4096)}),
        lambda: [{"rank": i, "player": {"id": i, "name": f"Player {i}"}} for i in range(4096)],
    ],
    ids=["closed sets", "closed tallies", "written rows", "standings document"],
)
def test_a_copy_is_weighed_near_what_it_holds(make):
    tracemalloc.start()
    try:
        value = make()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert 0.7 * held <= approximate_bytes(value) <= 2 * held


def test_the_site_keeps_no_store_but_these():
    made_here = {"test"}
    assert {c.name for c in caching.process_copies()} - made_here == {c.name for c in SITE_COPIES}


@pytest.mark.parametrize("copies", SITE_COPIES, ids=lambda c: c.name)
def test_every_store_of_the_site_holds_its_caps_filled_past_them(copies):
    assert copies.size <= 4096 and copies.max_bytes <= 64 * MB
    for n in range(copies.size + 50):
        copies.put(("test", n), n)
    assert len(copies) == copies.size
    piece = b"b" * (copies.max_bytes // 8)
    for n in range(copies.size):
        copies.put(("big", n), piece)
        assert copies.bytes <= copies.max_bytes
    assert len(copies) < 8


def test_a_national_championships_closed_sets_fit_four_times_and_no_more():
    sets = closed_sets()
    for event_id in range(8):
        CLOSED_SETS.put(event_id, ((10, 9, ()), sets))
        assert CLOSED_SETS.bytes <= CLOSED_SETS.max_bytes
    assert all(CLOSED_SETS.get(event_id) is not None for event_id in range(4, 8))
    assert CLOSED_SETS.get(0) is None


def test_the_caches_of_names_keep_no_long_text():
    collation._kept_sort_key.cache_clear()
    collation._kept_folded.cache_clear()
    long = "Zoë " * 100
    assert collation.sort_key(long) == collation.collator().sort_key(long)
    assert collation.folded(long) == "zoe " * 100
    assert collation._kept_sort_key.cache_info().currsize == 0
    assert collation._kept_folded.cache_info().currsize == 0
    assert collation.folded("Zoë") == "zoe" and collation._kept_folded.cache_info().currsize == 1


def held_by(cache, calls) -> tuple[int, int]:
    """(What `calls` made `cache` hold, in bytes; how many entries it then held.)"""
    cache.cache_clear()
    tracemalloc.start()
    try:
        for call in calls:
            call()
        return tracemalloc.get_traced_memory()[0], cache.cache_info().currsize
    finally:
        tracemalloc.stop()
        cache.cache_clear()


@pytest.mark.parametrize(
    "cache, call, most",
    [
        (collation._kept_sort_key, collation.sort_key, 30 * MB),
        (collation._kept_folded, collation.folded, 24 * MB),
        (direction.display_order, lambda line: direction.display_order(line[:60], "R"), 8 * MB),
    ],
    ids=["sort keys", "folded names", "lines of a paper"],
)
def test_the_caches_of_names_and_lines_hold_their_declared_memory_at_most(cache, call, most):
    collation.collator()
    # The longest names kept, of letters that weigh the most: accented, 120 of them.
    names = [(f"{n} " + "Ñúñez-Łukasz Émile " * 7)[: collation.CACHED_LENGTH] for n in range(300)]
    held, entries = held_by(cache, [lambda name=name: call(name) for name in names])
    assert entries == len(names)
    assert held / entries * cache.cache_info().maxsize <= most
