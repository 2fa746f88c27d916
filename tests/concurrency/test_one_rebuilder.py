"""One process at a time rebuilds an event's standings: a job that comes while another
process rebuilds waits for it, and that process goes round again for the change the
job was queued for. PostgreSQL only: the claim is an advisory lock, seen across
connections."""

from __future__ import annotations

import threading

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


def test_a_job_waits_for_the_process_rebuilding_which_goes_round_again_for_its_change(event):
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
    rebuilder, rebuilt = in_thread(lambda: derived.rebuild_alone(STANDINGS, event.pk, slow_rebuild))
    job, done = None, []
    try:
        assert entered.wait(10)
        derived.changed(STANDINGS, event.pk)  # a save while it rebuilds: its job runs now
        job, done = in_thread(lambda: refresh_standings_job(event.pk))
        job.join(0.5)
        assert job.is_alive()  # waiting for the process rebuilding
    finally:
        go.set()
        rebuilder.join(10)
        if job is not None:
            job.join(10)
    assert rebuilt == [2]  # the process rebuilding went round again, for that save
    assert calls[1] > calls[0]
    assert done == [None]  # and the job found nothing left to do
    event.refresh_from_db()
    assert event.standings_version == 1  # nothing rebuilt by the job
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_once_the_other_process_lets_go_the_waiting_job_rebuilds(event):
    derived.changed(STANDINGS, event.pk)
    held, release = threading.Event(), threading.Event()

    def hold_the_claim() -> bool:
        with derived.rebuilding(STANDINGS, event.pk):
            held.set()
            release.wait(10)
            return True

    holder, _ = in_thread(hold_the_claim)
    assert held.wait(10)
    job, done = None, []
    try:
        job, done = in_thread(lambda: refresh_standings_job(event.pk))
        job.join(0.5)
        assert job.is_alive() and derived.is_dirty(STANDINGS, event.pk)
    finally:
        release.set()
        holder.join(10)
        if job is not None:
            job.join(10)
    assert done == [2]
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
