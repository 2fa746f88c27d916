"""Without a broker, the venue's web server answers a save before the standings rebuild
it queued: the rebuild runs on a thread of its own, once for the saves that came while
it waited; other jobs (a round's seating) still run before the answer."""

from __future__ import annotations

import threading

import pytest

from core import background


@pytest.fixture
def jobs(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.JOBS_AFTER_RESPONSE = True
    monkeypatch.setattr(background, "AFTER", background.JobThread())
    release, calls, done = threading.Event(), [], threading.Semaphore(0)
    started = threading.Semaphore(0)

    def job(name):
        def run(*args):
            started.release()
            release.wait(5)
            calls.append((name, args))
            done.release()

        monkeypatch.setitem(background.JOBS, name, run)

    for name in (background.STANDINGS, background.SEATING):
        job(name)
    return release, calls, done, started


def test_a_standings_rebuild_runs_after_the_answer_once_for_the_saves_meanwhile(jobs):
    release, calls, done, started = jobs
    assert background.send(background.STANDINGS, (7,)) is True
    assert calls == []  # queued: the request answers now
    assert started.acquire(timeout=5)  # the first is running, held at `release`
    background.send(background.STANDINGS, (7,))
    background.send(background.STANDINGS, (7,))
    background.send(background.STANDINGS, (8,))
    release.set()
    for _ in range(3):
        assert done.acquire(timeout=5)
    assert done.acquire(timeout=0.2) is False
    assert calls == [
        (background.STANDINGS, (7,)),
        (background.STANDINGS, (7,)),
        (background.STANDINGS, (8,)),
    ]


def test_a_rounds_seating_still_runs_before_the_answer(jobs):
    release, calls, _, _ = jobs
    release.set()
    assert background.send(background.SEATING, (3,)) is True
    assert calls == [(background.SEATING, (3,))]


def test_elsewhere_every_job_runs_before_the_answer(jobs, settings):
    release, calls, _, _ = jobs
    settings.JOBS_AFTER_RESPONSE = False
    release.set()
    background.send(background.STANDINGS, (5,))
    assert calls == [(background.STANDINGS, (5,))]
