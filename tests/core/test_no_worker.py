"""When no worker takes jobs: the standby rebuilds what has been stale for longer than
REBUILD_HERE_AFTER_SECONDS in its own process (no broker, no worker), and
`manage.py check_worker` says when no worker has run the catch-up for too long."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from core import background, derived, services
from core.tasks import catch_up
from game.rules import HandEntry, SeatEntry
from scoring.models import DerivedState, Standing
from tests.fixtures import make_entries, make_event, make_round

pytestmark = pytest.mark.django_db(transaction=True)
STANDINGS = background.STANDINGS


@pytest.fixture
def event():
    event = make_event(slug="kingston")
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    return event


def points(event) -> list[int]:
    return sorted(Standing.objects.filter(event=event).values_list("points", flat=True))


def lost_save(event, monkeypatch) -> None:
    """A hand saved whose rebuild job no worker ever runs (the broker down, no worker)."""
    hand = HandEntry(went_out=1, scores=(SeatEntry(2, 30), SeatEntry(3, 7), SeatEntry(4, 9)))
    with monkeypatch.context() as patch:
        patch.setitem(background.JOBS, STANDINGS, lambda event_id: None)
        services.record_hand(table=event.rounds.get().tables.get(), number=1, entry=hand)
    assert derived.is_dirty(STANDINGS, event.pk)


def stale_for(seconds: float) -> None:
    DerivedState.objects.exclude(dirty_since=None).update(
        dirty_since=timezone.now() - timedelta(seconds=seconds)
    )


def test_the_standby_rebuilds_standings_stale_for_longer_than_the_bound(
    event, settings, monkeypatch
):
    settings.REBUILD_HERE_AFTER_SECONDS = 30
    lost_save(event, monkeypatch)
    # Within the bound a worker may still do it: the standby leaves it alone.
    stale_for(20)
    call_command("rebuild_overdue", stdout=StringIO())
    assert points(event) == [] and derived.is_dirty(STANDINGS, event.pk)

    stale_for(31)
    out = StringIO()
    call_command("rebuild_overdue", stdout=out)
    assert out.getvalue() == f"rebuilt {STANDINGS} {event.pk}\n"
    assert points(event) == [0, 7, 9, 30]
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_a_standby_rebuild_that_fails_is_logged_and_tried_again(event, monkeypatch, caplog):
    lost_save(event, monkeypatch)
    stale_for(60)

    def broken(event_id):
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setitem(background.JOBS, STANDINGS, broken)
        assert derived.rebuild_overdue(older_than=30) == []
    assert "Rebuilding core.refresh_standings" in caplog.text
    assert derived.rebuild_overdue(older_than=30) == [(STANDINGS, event.pk)]
    assert points(event) == [0, 7, 9, 30]


def test_check_worker_fails_until_a_worker_has_run_the_catch_up():
    with pytest.raises(CommandError, match="No worker has ever run the catch-up"):
        call_command("check_worker")
    catch_up()  # what a worker runs when beat sends it
    out = StringIO()
    call_command("check_worker", stdout=out)
    assert out.getvalue().startswith("ok")


def test_check_worker_fails_when_no_worker_has_taken_a_job_for_too_long(settings):
    settings.WORKER_SILENT_SECONDS = 60
    catch_up()
    kind, key = derived.WORKER_RAN
    DerivedState.objects.filter(kind=kind, key=key).update(
        built_at=timezone.now() - timedelta(seconds=90)
    )
    with pytest.raises(CommandError, match="No worker has taken a job for 90 s") as failed:
        call_command("check_worker")
    assert failed.value.returncode == 1
    call_command("check_worker", "--seconds", "120", stdout=StringIO())


def test_check_worker_fails_when_derived_data_stays_stale(event, settings, monkeypatch):
    settings.WORKER_SILENT_SECONDS = 60
    lost_save(event, monkeypatch)
    catch_up()  # a worker runs the catch-up...
    stale_for(90)  # ...but the standings have stayed stale all the same
    with pytest.raises(CommandError, match="stale for 90 s: nothing is catching up"):
        call_command("check_worker")


def test_the_heartbeat_row_is_never_queued_for_a_rebuild():
    catch_up()
    assert derived.catch_up(grace=0) == []
    assert derived.rebuild_overdue(older_than=0) == []
