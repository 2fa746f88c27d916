"""The sheet and a hand's save run the same number of SQL queries whatever the event's
size (bench/save_hand.py measures the same on a 1,024-player event)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core import services
from game import rules
from tests.fixtures import make_world
from tests.html import HTMX, row, signed_in

pytestmark = pytest.mark.django_db

GOOD = dict(seat1=23, seat2=0, seat3=15, seat4=41, went_out=2)


def fill(table, hands: int) -> None:
    for number in range(1, hands + 1):
        services.record_hand(
            table=table,
            number=number,
            entry=rules.HandEntry(
                went_out=1,
                scores=tuple(rules.SeatEntry(s, points=0 if s == 1 else 5) for s in (1, 2, 3, 4)),
            ),
        )


def counts(tables: int, filled: int, tag: str) -> tuple[int, int, int, int]:
    w = make_world(table_sizes=(4,) * tables, tag=tag, table_entry="players")
    for table in w.round.tables.all():
        fill(table, filled)
    client = signed_in(w.alice)
    client.get(w.sheet_url())  # the session is loaded once, as in any later request
    with CaptureQueriesContext(connection) as sheet:
        assert client.get(w.sheet_url()).status_code == 200
    with CaptureQueriesContext(connection) as save:
        data = row(**GOOD, version=1 if filled else 0)
        assert client.post(w.hand_url(1), data, **HTMX).status_code == 200
    with CaptureQueriesContext(connection) as dashboard:
        assert client.get(w.url()).status_code == 200
    panel = reverse("director:round-proposals", args=[w.event.slug, w.round.number])
    with CaptureQueriesContext(connection) as entries:  # the players' entries, polled
        assert client.get(panel).status_code == 200
    return len(sheet), len(save), len(dashboard), len(entries)


def test_query_counts_do_not_grow_with_the_event():
    small = counts(tables=2, filled=3, tag="-small")
    large = counts(tables=12, filled=8, tag="-large")
    assert small == large, (small, large)
