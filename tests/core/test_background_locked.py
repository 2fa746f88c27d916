"""Without a broker a job runs in the web process; SQLite may refuse it for a moment
while another request reads the same table, so it is tried again before the catch-up is
left to do it."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from core import background


@pytest.fixture
def job(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    calls = []

    def register(failures: list[Exception]):
        def run(*args):
            calls.append(args)
            if failures:
                raise failures.pop(0)

        monkeypatch.setitem(background.JOBS, "test.job", run)
        return calls

    return register


def test_a_job_refused_for_a_locked_table_is_tried_again(job):
    calls = job([OperationalError("database table is locked: tournaments_event")] * 2)
    assert background.send("test.job", (7,)) is True
    assert calls == [(7,), (7,), (7,)]


def test_other_failures_and_a_lock_that_stays_are_left_to_the_catch_up(job):
    calls = job([OperationalError("no such table: nowhere")])
    assert background.send("test.job", (1,)) is False
    assert len(calls) == 1
    calls = job([OperationalError("database is locked")] * background.LOCKED_TRIES)
    assert background.send("test.job", (2,)) is False
    assert len(calls) == 1 + background.LOCKED_TRIES
