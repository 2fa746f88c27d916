"""A standings job never waits for another process's rebuild of the same event: it
leaves the work to that process, which rebuilds again for the change the job was
queued for. PostgreSQL only: the claim is an advisory lock, seen across connections."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection

from core import background, derived, services
from core.standings.services import refresh_standings_job
from tests.concurrency.test_lock_order import in_thread
from tests.concurrency.threads import another_connection
from tests.fixtures import make_entries, make_event, make_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
STANDINGS = background.STANDINGS


@pytest.fixture
def event(monkeypatch):
    monkeypatch.setattr(background, "send", lambda *args, **kwargs: True)  # to a worker
    event = make_event()
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    services.refresh_standings(event=event)
    event.refresh_from_db()
    return event


def test_a_job_leaves_the_rebuild_to_the_process_rebuilding_which_covers_its_change(event):
    entered, go, calls = threading.Event(), threading.Event(), []

    def slow_rebuild() -> int:
        """Another process's rebuild: reads what it covers, then takes its time."""
        seen = derived.seen(STANDINGS, event.pk)
        calls.append(seen)
        entered.set()
        go.wait(10)
        derived.built(STANDINGS, event.pk, seen)
        return len(calls)

    derived.changed(STANDINGS, event.pk)
    rebuilder, outcome = in_thread(lambda: derived.rebuild_alone(STANDINGS, event.pk, slow_rebuild))
    try:
        assert entered.wait(10)
        derived.changed(STANDINGS, event.pk)  # a save while it rebuilds: its job runs now
        started = time.monotonic()
        assert refresh_standings_job(event.pk) is None
        assert time.monotonic() - started < 1  # no wait for the other's locks
        event.refresh_from_db()
        assert event.standings_version == 1  # nothing rebuilt here
    finally:
        go.set()
        rebuilder.join(10)
    assert outcome == [2]  # the process rebuilding went round again, for that save
    assert calls[1] > calls[0]
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_once_the_other_process_lets_go_the_job_rebuilds_itself(event):
    derived.changed(STANDINGS, event.pk)
    held, release = threading.Event(), threading.Event()

    def hold_the_claim() -> bool:
        with derived.rebuilding(STANDINGS, event.pk) as mine:
            held.set()
            release.wait(10)
            return mine

    holder, outcome = in_thread(hold_the_claim)
    assert held.wait(10)
    try:
        assert refresh_standings_job(event.pk) is None
        assert derived.is_dirty(STANDINGS, event.pk)
    finally:
        release.set()
        holder.join(10)
    assert outcome == [True]
    assert refresh_standings_job(event.pk) == 2
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_a_rebuild_whose_connection_is_cut_fails_with_its_own_error_and_lets_go(event):
    """The database ends the rebuilding connection (a restart, an administrator): the
    rebuild's own error is what the job raises (Celery tries it again), and the claim
    went with the connection, so the next job rebuilds."""
    derived.changed(STANDINGS, event.pk)

    def cut_off() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with another_connection() as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
            other.commit()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return 1

    with pytest.raises(OperationalError, match="terminat"):
        derived.rebuild_alone(STANDINGS, event.pk, cut_off)
    connection.close()
    assert refresh_standings_job(event.pk) == 2
    assert not derived.is_dirty(STANDINGS, event.pk)
