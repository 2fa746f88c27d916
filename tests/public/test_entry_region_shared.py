"""The phones at a table each ask for the players' entry region once the table changes:
the table's hands and entries, read for the first of them, serve the others (kept in
the shared cache under the table's signature, so in every web process). A change at
the table is read again; the time still counts (a hand settled more than five minutes
ago is no longer said to be, though nothing changed); a table whose stamp the cache
lost is read every time, never served a copy kept before the loss; a change whose stamp
never reached the cache is read within seconds; and no table is served another's copy."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import caching, services
from core.caching import stamps
from tests.fixtures import hand, make_event, make_round
from tests.html import Page
from tests.public.test_entry_region_names import ENTRY, phone_of

pytestmark = pytest.mark.django_db

HANDS, ENTRIES = '"scoring_hand"', '"scoring_proposal"'


def region(phone, poll: str) -> tuple[Page, list[str]]:
    """The region a phone's poll brings (it must have changed), and the SQL it took."""
    with CaptureQueriesContext(connection) as queries:
        answer = phone.get(poll)
    assert answer.status_code == 200
    return Page(answer.content), [q["sql"] for q in queries.captured_queries]


def propose(w, codes) -> None:
    """Seat 1 enters hand 1 at table 1."""
    services.propose_hand(table=w.table, number=1, entry=hand(1, 4), code=codes[1, 1], client="a")


def confirm(w, codes) -> None:
    """Seat 2 confirms it."""
    services.confirm_proposal(table=w.table, number=1, code=codes[1, 2], client="b")


def reads(sql: list[str], table: str) -> bool:
    return any(f"FROM {table}" in query for query in sql)


def proposal_state(page: Page, number: int) -> str | None:
    found = f"proposal-{number}"
    return page.attrs(found)["data-state"] if page.has(found) else None


def test_the_phones_at_a_table_read_its_hands_once_a_change(
    w, codes, django_capture_on_commit_callbacks
):
    phones = [phone_of(codes, seat) for seat in (1, 2, 3, 4)]
    with django_capture_on_commit_callbacks(execute=True):
        propose(w, codes)

    first, sql = region(*phones[0])
    assert reads(sql, HANDS) and reads(sql, ENTRIES)
    assert proposal_state(first, 1) == "pending"
    for phone, poll in phones[1:]:
        page, sql = region(phone, poll)
        assert not reads(sql, HANDS) and not reads(sql, ENTRIES)
        assert proposal_state(page, 1) == "pending"
        assert "Confirm hand 1" in page.text("proposal-1")  # another seat's entry

    # Seat 2 confirms: the table changed, and the next phone reads it again.
    with django_capture_on_commit_callbacks(execute=True):
        confirm(w, codes)
    page, sql = region(phones[2][0], phones[2][1])
    assert reads(sql, HANDS) and reads(sql, ENTRIES)
    assert proposal_state(page, 1) is None
    assert "Hand 1 is recorded" in page.text("settled")
    page, sql = region(phones[3][0], phones[3][1])
    assert not reads(sql, HANDS) and "Hand 1 is recorded" in page.text("settled")


def test_a_hand_settled_long_ago_is_no_longer_said_to_be_from_the_kept_copy(
    w, codes, django_capture_on_commit_callbacks, monkeypatch
):
    phone, poll = phone_of(codes, 3)
    with django_capture_on_commit_callbacks(execute=True):
        propose(w, codes)
        confirm(w, codes)
    page, _ = region(phone, poll)
    assert "Hand 1 is recorded" in page.text("settled")

    later = timezone.now() + timedelta(minutes=6)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with CaptureQueriesContext(connection) as queries:
        answer = phone.get(ENTRY)  # the whole page, the table unchanged
    assert answer.status_code == 200
    assert not reads([q["sql"] for q in queries.captured_queries], HANDS)
    assert not Page(answer.content).has("settled")
    assert "Hand 1" in Page(answer.content).text("sheet")  # the sheet has it, recorded


def test_a_table_whose_stamp_the_cache_lost_is_read_every_time(
    w, codes, django_capture_on_commit_callbacks
):
    phones = [phone_of(codes, seat) for seat in (1, 2)]
    key = stamps.table_key(w.event.slug, w.round.number, w.table.number)
    caching.cache.delete(key)  # lost (evicted, or the cache emptied)
    for phone, _ in phones:
        with CaptureQueriesContext(connection) as queries:
            assert phone.get(ENTRY + "live/").status_code == 200
        assert reads([q["sql"] for q in queries.captured_queries], HANDS)
    # A hand entered meanwhile without the stamp moving is seen all the same.
    propose(w, codes)
    caching.cache.set(key, stamps.UNSTAMPED, caching.ANNOUNCED_TTL)
    answer = phones[1][0].get(ENTRY + "live/")
    assert proposal_state(Page(answer.content), 1) == "pending"


@pytest.fixture
def w(entry_world):
    return entry_world


def test_a_change_whose_stamp_was_lost_is_read_within_seconds(w, codes, monkeypatch):
    monkeypatch.setattr(stamps, "TABLE_ROWS_TTL", 1)
    phone, _ = phone_of(codes, 3)
    caching.cache.set(
        stamps.table_key(w.event.slug, w.round.number, w.table.number), "a1b2c3d4", 3600
    )
    assert proposal_state(Page(phone.get(ENTRY + "live/").content), 1) is None
    propose(w, codes)  # committed, its stamp lost on the way (not run here)
    time.sleep(1.1)
    answer = phone.get(ENTRY + "live/")
    assert proposal_state(Page(answer.content), 1) == "pending"


def test_a_copy_is_never_taken_for_another_table_of_the_same_name(w):
    reads: list[int] = []

    def read(table):
        return lambda: reads.append(table.pk) or table.pk

    first = stamps.table_rows(w.table, "3.a1b2c3d4", read(w.table))
    again = stamps.table_rows(w.table, "3.a1b2c3d4", read(w.table))
    assert first == again == w.table.pk and reads == [w.table.pk]
    # The event deleted and made again under its slug: its table 1 of round 1, at the
    # same versions by chance, is read for itself.
    slug = w.event.slug
    w.event.delete()
    event = make_event(slug=slug, name="Kingston Open, again")
    table = make_round(event, table_sizes=(4,)).tables.get(number=1)
    assert stamps.table_rows(table, "3.a1b2c3d4", read(table)) == table.pk
    assert reads == [w.table.pk, table.pk]


class CacheCalls:
    """The calls made to the shared cache while it is open (each a round trip to Redis
    in production), outermost only: the local memory cache's `get_many` asks `get` for
    each key."""

    NAMES = ("get", "get_many", "set", "set_many", "add", "delete", "incr", "touch")

    def __enter__(self):
        from django.core.cache import caches

        self.backend, self.made, self.depth = caches["default"], [], 0
        for name in self.NAMES:
            setattr(self.backend, name, self.counted(name, getattr(self.backend, name)))
        return self

    def counted(self, name, method):
        def call(*args, **kwargs):
            if not self.depth:
                self.made.append(name)
            self.depth += 1
            try:
                return method(*args, **kwargs)
            finally:
                self.depth -= 1

        return call

    def __exit__(self, *exc):
        for name in self.NAMES:
            delattr(self.backend, name)


def test_a_phone_told_of_a_change_asks_the_cache_twice(
    w, codes, django_capture_on_commit_callbacks
):
    """Its poll's signature, read first to answer 204 when nothing changed, is the
    region's: not read again, nor the event's versions remembered, once the table is
    found. Then the table's hands, as the first phone read them."""
    phones = [phone_of(codes, seat) for seat in (1, 2)]
    with django_capture_on_commit_callbacks(execute=True):
        propose(w, codes)
    region(*phones[0])  # the first phone reads the table's hands for the others
    caching.announced(w.event.slug)  # this process read the event's versions just now
    with CacheCalls() as calls:
        page, _ = region(*phones[1])
    assert proposal_state(page, 1) == "pending"
    assert calls.made == ["get_many", "get"]
