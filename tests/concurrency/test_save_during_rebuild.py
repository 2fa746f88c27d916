"""Saving a hand never waits for a standings rebuild: the set totals the save keeps
hold no foreign key to the event, whose row the rebuild holds for update (a key-share
lock taken to check one would queue every save behind the rebuild running).
PostgreSQL only: real concurrent transactions."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from core import services
from game.rules import HandEntry, SeatEntry
from scoring.models import SetTotal
from tests.concurrency.test_lock_order import rebuild_in_progress
from tests.fixtures import make_event, make_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_hand_save_does_not_wait_for_the_rebuild_holding_the_event(monkeypatch):
    event = make_event()
    table = make_round(event, table_sizes=(4,)).tables.get()
    services.refresh_standings(event=event)
    monkeypatch.setattr("core.background.send", lambda *a, **k: True)
    scores = tuple(SeatEntry(seat=s, points=0 if s == 1 else 9) for s in range(1, 5))
    with rebuild_in_progress(event), connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '3s'")  # a wait would fail, not hang
        try:
            started = time.monotonic()
            entry = HandEntry(went_out=1, scores=scores)
            services.record_hand(table=table, number=1, entry=entry)
            assert time.monotonic() - started < 2
        finally:
            cursor.execute("RESET lock_timeout")
    assert SetTotal.objects.filter(seat__table=table, hands_played=1).count() == 4
