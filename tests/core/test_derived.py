"""Staleness of derived data lives in the database (README, "Standings"): every
change marks the standings stale in its own transaction, a rebuild clears the mark
only if nothing changed while it ran, a failure to queue never fails the committed
write, and the periodic catch-up rebuilds whatever stayed stale."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from celery import current_app
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core import background, derived, services
from core.standings.services import refresh_standings_job
from core.tasks import catch_up
from game.rules import HandEntry, SeatEntry
from scoring.models import DerivedState, Standing
from tests.api.conftest import hand_url
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)
STANDINGS = background.STANDINGS


@pytest.fixture
def event(alice):
    event = make_event(slug="kingston")
    event.directors.add(alice)
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    return event


def hand(points: int = 30) -> HandEntry:
    return HandEntry(went_out=1, scores=(SeatEntry(2, points), SeatEntry(3, 7), SeatEntry(4, 9)))


def points(event) -> list[int]:
    return sorted(Standing.objects.filter(event=event).values_list("points", flat=True))


@pytest.fixture
def broker_down(settings, monkeypatch):
    """A broker that cannot be reached: Celery's own error when it sends a task."""
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(current_app, "send_task", unreachable)


def test_a_change_marks_the_standings_stale_and_the_rebuild_clears_it(event):
    table = event.rounds.get().tables.get()
    with_rebuild_held = background.JOBS[STANDINGS]
    background.JOBS[STANDINGS] = lambda event_id: None  # the rebuild has not run yet
    try:
        services.record_hand(table=table, number=1, entry=hand())
    finally:
        background.JOBS[STANDINGS] = with_rebuild_held
    state = DerivedState.objects.get(kind=STANDINGS, key=event.pk)
    assert state.dirty_since is not None and state.changes > state.built
    refresh_standings_job(event.pk)
    state.refresh_from_db()
    assert state.dirty_since is None and state.built == state.changes
    assert points(event) == [0, 7, 9, 30]


def test_a_change_that_arrives_while_a_rebuild_runs_keeps_them_stale(event, monkeypatch):
    monkeypatch.setitem(background.JOBS, STANDINGS, lambda event_id: None)  # no job runs
    derived.changed(STANDINGS, event.pk)
    seen = derived.seen(STANDINGS, event.pk)  # a rebuild starts reading
    derived.changed(STANDINGS, event.pk)  # a change it does not see commits meanwhile
    derived.built(STANDINGS, event.pk, seen)
    assert derived.is_dirty(STANDINGS, event.pk)
    derived.built(STANDINGS, event.pk, derived.seen(STANDINGS, event.pk))
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_a_rebuild_job_with_nothing_new_to_do_returns_at_once(event):
    services.record_hand(table=event.rounds.get().tables.get(), number=1, entry=hand())
    event.refresh_from_db()
    version = event.standings_version
    assert refresh_standings_job(event.pk) is None
    event.refresh_from_db()
    assert event.standings_version == version


BODY = {
    "went_out": 1,
    "scores": [{"seat": 2, "points": 30}, {"seat": 3, "points": 7}, {"seat": 4, "points": 9}],
}


def test_a_save_while_the_broker_is_down_is_answered_200_and_marked_stale(
    alice, event, broker_down, caplog
):
    director = APIClient()
    director.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    with caplog.at_level(logging.ERROR, logger="core.background"):
        response = director.put(hand_url(), BODY, format="json", HTTP_IF_MATCH='"0"')
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 1
    assert "Could not queue core.refresh_standings" in caplog.text
    assert derived.is_dirty(STANDINGS, event.pk)
    assert points(event) == []
    # The director's retry of the same hand is not refused as someone else's change.
    again = director.put(hand_url(), BODY, format="json", HTTP_IF_MATCH='"1"')
    assert again.status_code == 200 and again.json()["version"] == 1


def test_the_catch_up_rebuilds_what_stayed_stale_and_leaves_fresh_changes_alone(
    event, settings, monkeypatch
):
    table = event.rounds.get().tables.get()
    monkeypatch.setitem(background.JOBS, STANDINGS, lambda event_id: None)  # the job is lost
    services.record_hand(table=table, number=1, entry=hand())
    monkeypatch.undo()
    assert points(event) == []
    assert derived.catch_up() == []  # stale for less than the grace period: its job may run
    DerivedState.objects.update(dirty_since=timezone.now() - timedelta(seconds=30))
    assert catch_up() == 1  # the task beat sends
    assert points(event) == [0, 7, 9, 30]
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_an_eager_rebuild_that_fails_does_not_fail_the_save(event, monkeypatch, caplog):
    def broken(event_id):
        raise RuntimeError("the rebuild fell over")

    monkeypatch.setitem(background.JOBS, STANDINGS, broken)
    recorded = services.record_hand(table=event.rounds.get().tables.get(), number=1, entry=hand())
    assert recorded.changed and "the rebuild fell over" in caplog.text
    assert derived.is_dirty(STANDINGS, event.pk)


def test_a_round_whose_seating_job_was_lost_is_seated_by_the_catch_up(event, broker_down):
    event.rounds.all().delete()
    round_ = services.start_round(event=event, seed=3)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.SEATING
    DerivedState.objects.update(dirty_since=timezone.now() - timedelta(seconds=30))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.conf.settings.CELERY_TASK_ALWAYS_EAGER", True)
        assert (background.SEATING, round_.pk) in derived.catch_up()
    assert Round.objects.get(pk=round_.pk).status == Round.Status.DRAFT
    assert not derived.is_dirty(background.SEATING, round_.pk)


def test_a_rebuild_run_alone_goes_round_again_for_a_change_that_came_while_it_ran(
    event, monkeypatch
):
    monkeypatch.setattr(background, "send", lambda *args, **kwargs: True)  # to a worker
    derived.changed(STANDINGS, event.pk)
    calls = []

    def rebuild() -> int:
        seen = derived.seen(STANDINGS, event.pk)
        if not calls:
            derived.changed(STANDINGS, event.pk)  # a save commits meanwhile
        calls.append(seen)
        derived.built(STANDINGS, event.pk, seen)
        return len(calls)

    assert derived.rebuild_alone(STANDINGS, event.pk, rebuild) == 2
    assert calls[1] == calls[0] + 1
    assert not derived.is_dirty(STANDINGS, event.pk)


def test_a_rebuild_run_alone_ends_its_turn_and_leaves_the_rest_to_the_jobs_waiting(
    event, monkeypatch
):
    sent = []
    monkeypatch.setattr(background, "send", lambda *args, **kwargs: sent.append(args))
    derived.changed(STANDINGS, event.pk)
    sent.clear()
    calls = []

    def never_catching_up() -> int:
        calls.append(1)  # changes keep coming (their jobs queued elsewhere)
        assert len(calls) < 3, "the turn never ended"
        DerivedState.objects.filter(kind=STANDINGS, key=event.pk).update(changes=F("changes") + 1)
        return len(calls)

    assert derived.rebuild_alone(STANDINGS, event.pk, never_catching_up, turn=0) == 1
    assert derived.is_dirty(STANDINGS, event.pk)  # for the jobs of those changes
    assert sent == []  # no job of its own: a job without a broker would run in this one


def test_a_standings_job_for_an_event_deleted_meanwhile_forgets_it(event, monkeypatch):
    monkeypatch.setattr(background, "send", lambda *args, **kwargs: True)  # to a worker
    derived.changed(STANDINGS, event.pk)
    gone = event.pk
    event.delete()
    assert refresh_standings_job(gone) is None
    assert not DerivedState.objects.filter(kind=STANDINGS, key=gone).exists()
