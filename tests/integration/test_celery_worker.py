"""Real `celery worker` processes against Redis and PostgreSQL (marker `worker`).

.ci/run runs these with CELERY_BROKER_URL and DATABASE_URL set; elsewhere they are
left out (a run without a broker has no worker to talk to).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection

from core import services
from game.rules import HandEntry, SeatEntry
from scoring.models import Standing
from tests.concurrency.threads import another_connection
from tests.fixtures import make_entries, make_event, make_round
from tests.processes import Worker, wait_until
from tournaments.models import Round

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
# The worker killed mid-rebuild is replaced quickly in this test: its task comes back
# after a visibility timeout shortened to seconds.
QUICK_RESTORE = {"CELERY_VISIBILITY_TIMEOUT": "4", "CELERY_RESTORE_INTERVAL": "1"}


@pytest.fixture(autouse=True)
def _needs_broker_and_postgres():
    assert settings.CELERY_BROKER_URL, "worker tests need CELERY_BROKER_URL"
    assert connection.vendor == "postgresql", "worker tests need PostgreSQL"
    assert not settings.CELERY_TASK_ALWAYS_EAGER


def hand(points: int) -> HandEntry:
    return HandEntry(went_out=1, scores=(SeatEntry(2, points), SeatEntry(3, 7), SeatEntry(4, 9)))


def test_a_worker_seats_a_round():
    event = make_event()
    make_entries(event, 12)
    worker = Worker("seating")
    try:
        round_ = services.start_round(event=event, seed=9)
        wait_until(lambda: Round.objects.get(pk=round_.pk).status == "draft", 20)
        round_.refresh_from_db()
        assert round_.tables.count() == 3
        assert round_.quality["repeat_meetings"] == 0
        # Running the task again for a seated round changes nothing.
        from core.tasks import seat_round

        seats = list(round_.seats.values_list("pk", flat=True))
        done = worker.output().count("succeeded")
        seat_round.delay(round_.pk)
        worker.wait_for("succeeded", 10, times=done + 1)
        assert list(round_.seats.values_list("pk", flat=True)) == seats
    finally:
        worker.stop()


def test_recording_hands_changes_the_standings_within_five_seconds():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    table = round_.tables.get()
    worker = Worker("standings")
    try:
        services.record_hand(table=table, number=1, entry=hand(30))
        took = wait_until(lambda: Standing.objects.filter(round=round_).count() == 4, 5)
        assert took < 5
        services.record_hand(table=table, number=2, entry=hand(12))
        wait_until(lambda: Standing.objects.filter(round=round_, points=42).exists(), 5)
    finally:
        worker.stop()


@contextmanager
def holding_event_lock(event):
    """Hold the event's row lock from another connection, as a long rebuild would: a
    rebuild that starts meanwhile waits for it, inside its own transaction."""
    with another_connection() as other:
        other.execute("SELECT 1 FROM tournaments_event WHERE id = %s FOR UPDATE", [event.pk])
        yield
        other.rollback()


def test_a_worker_killed_mid_rebuild_is_replaced_and_the_standings_end_correct():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    table = round_.tables.get()
    slow = Worker("crashing", QUICK_RESTORE)
    try:
        with holding_event_lock(event):
            services.record_hand(table=table, number=1, entry=hand(30))
            slow.wait_for("refresh_standings", 10)  # the task was received and is running
            time.sleep(1)  # ...and waits for the event's row lock
            slow.kill()
    finally:
        slow.stop()
    assert not Standing.objects.filter(round=round_).exists()  # the rebuild died unfinished
    event.refresh_from_db()
    assert event.standings_version == 0
    fresh = Worker("recovering", QUICK_RESTORE)
    try:
        wait_until(lambda: Standing.objects.filter(round=round_).count() == 4, 60)
        points = dict(
            Standing.objects.filter(round=round_).values_list("entry__seats__position", "points")
        )
        assert points == {1: 0, 2: 30, 3: 7, 4: 9}
    finally:
        fresh.stop()
