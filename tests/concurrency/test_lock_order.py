"""A director's change and a standings rebuild never deadlock (found by fuzzing a
production-like install: `move` answered 500, "deadlock detected").

A rebuild takes the event's row lock, then (inserting standings) a key-share lock on
the round and entry rows. A change that locked the round or an entry first and the
event after could wait for the rebuild while the rebuild waited for it. Every service
takes its locks in the rebuild's order (the event, then the round or entry), or only
the one row it changes. PostgreSQL only: real concurrent transactions.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from django.db import connection

from core import background, services
from tests.concurrency.threads import another_connection
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def rebuild_in_progress(event):
    """Another connection holding what a rebuild holds first: the event's row lock."""
    with another_connection() as other:
        other.execute("SET lock_timeout = '5s'")
        other.execute("SELECT 1 FROM tournaments_event WHERE id = %s FOR UPDATE", [event.pk])
        yield other
        other.rollback()


def in_thread(action) -> tuple[threading.Thread, list]:
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(action())
        except Exception as error:  # noqa: BLE001 - the test reads what happened
            outcome.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


@pytest.fixture(autouse=True)
def _jobs_to_a_worker(monkeypatch):
    """Background jobs go to a worker, as in production: not run in this process once
    the change commits (there the rebuild would wait for the held lock, rightly)."""
    monkeypatch.setattr(background, "send", lambda *args, **kwargs: None)


@pytest.fixture
def event():
    event = make_event(rounds_planned=2)
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return event


def test_changing_a_rounds_seating_does_not_wait_for_a_rebuild(event):
    round_ = event.rounds.get()
    first, second = list(event.entries.order_by("pk"))[:2]
    with rebuild_in_progress(event):
        thread, outcome = in_thread(
            lambda: services.move_player(round=round_, entry=first, table_number=2)
        )
        thread.join(10)
        assert not thread.is_alive(), "the move waited for the rebuild's event lock"
    assert isinstance(outcome[0], Round)
    thread, outcome = in_thread(
        lambda: services.swap_players(round=round_, first=first, second=second)
    )
    thread.join(10)
    assert isinstance(outcome[0], Round)


@pytest.mark.parametrize("change", ["close", "withdraw", "clock"])
def test_a_change_that_needs_the_event_waits_for_it_before_locking_anything_else(event, change):
    round_ = event.rounds.get()
    entry = event.entries.order_by("pk").first()
    action = {
        "close": lambda: services.close_round(round=round_, force=True),
        "withdraw": lambda: services.withdraw_entry(entry=entry),
        "clock": lambda: services.clock_action(round=round_, action="start"),
    }[change]
    with rebuild_in_progress(event) as rebuild:
        thread, outcome = in_thread(action)
        thread.join(1)  # it now waits for the event...
        # ...holding nothing the rebuild goes on to need (it would deadlock, or time out).
        rebuild.execute("SELECT 1 FROM tournaments_round WHERE id = %s FOR KEY SHARE", [round_.pk])
        rebuild.execute("SELECT 1 FROM tournaments_entry WHERE id = %s FOR KEY SHARE", [entry.pk])
    thread.join(10)
    assert not isinstance(outcome[0], Exception), outcome
