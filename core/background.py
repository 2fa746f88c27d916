"""Background work queued by services once their transaction commits.

A service names the job (`STANDINGS`, `SEATING`) and its arguments; with a broker the
job goes to Celery under that name (the worker runs it through `core.tasks`), and
without one (the embedded default) it runs in this process, right after the commit.
Services never import the tasks module: the tasks call the services, not the other
way round. Each job is the service function registered with `@runs(name)`.

Queueing happens after the commit, so it must never fail the request that committed:
a broker that cannot be reached (or an eager job that fails) is logged, and the work
is caught up later (`core.derived`).

Without a broker, the web server `manage.py run_processes` starts (the venue's) runs
the rebuilds of derived standings on a thread of its own instead (`JOBS_AFTER_RESPONSE`):
a save is answered without waiting for the rebuild it queued, and the saves that come
while one runs share the next one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from celery import current_app
from django.conf import settings
from django.db import OperationalError, connection, transaction

from core.jobs import SEATING, SERIES_STANDINGS, STANDINGS

__all__ = ["SEATING", "SERIES_STANDINGS", "STANDINGS", "after_commit", "runs", "send"]

log = logging.getLogger(__name__)
JOBS: dict[str, Callable[..., Any]] = {}
F = TypeVar("F", bound=Callable[..., Any])


def runs(name: str) -> Callable[[F], F]:
    """Register a service function as the job `name` (a task of that name calls it)."""

    def register(function: F) -> F:
        JOBS[name] = function
        return function

    return register


def after_commit(name: str, *args: Any, countdown: float | None = None) -> None:
    """Run the job `name` once this transaction commits (at once, outside one)."""
    transaction.on_commit(partial(send, name, args, countdown))


# Without a broker the job runs in the web process, where SQLite may refuse it for a
# moment while another request reads the same table ("database table is locked"): it
# is tried again this many times, a little later each time, before the catch-up is left
# to do it.
LOCKED_TRIES = 4


def after_response() -> bool:
    return getattr(settings, "JOBS_AFTER_RESPONSE", False)


def run_now(name: str, args: tuple) -> None:
    for attempt in range(LOCKED_TRIES):
        try:
            JOBS[name](*args)
            return
        except OperationalError as error:
            if "locked" not in str(error) or attempt == LOCKED_TRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


# The jobs that may wait for a thread of their own (JOBS_AFTER_RESPONSE): derived
# standings, which the catch-up rebuilds should the process end before they run. A
# round's seating is not among them: the page after "start the round" shows it.
AFTER_RESPONSE = frozenset({STANDINGS, SERIES_STANDINGS})


class JobThread:
    """The jobs this process runs on one thread of its own, in the order queued; a job
    queued again while it still waits runs once."""

    def __init__(self) -> None:
        self.ready = threading.Condition()
        self.waiting: dict[tuple[str, tuple], None] = {}
        self.thread: threading.Thread | None = None

    def put(self, name: str, args: tuple) -> None:
        with self.ready:
            self.waiting[(name, args)] = None
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.work, name="jobs", daemon=True)
                self.thread.start()
            self.ready.notify()

    def work(self) -> None:
        while True:
            with self.ready:
                while not self.waiting:
                    self.ready.wait()
                name, args = next(iter(self.waiting))
                del self.waiting[(name, args)]
            try:
                run_now(name, args)
            except Exception:
                log.exception("Could not run %s%r; it will be caught up later.", name, args)
            finally:
                connection.close()  # this thread's own


AFTER = JobThread()


def send(name: str, args: tuple, countdown: float | None = None) -> bool:
    """Queue the job now (run it, without a broker); whether that worked. Never raises:
    the caller's write has committed, and what is not done now is caught up later."""
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER and name in AFTER_RESPONSE and after_response():
            AFTER.put(name, tuple(args))
        elif settings.CELERY_TASK_ALWAYS_EAGER:
            run_now(name, args)
        else:
            current_app.send_task(name, args=args, countdown=countdown)
    except Exception:
        log.exception("Could not queue %s%r; it will be caught up later.", name, args)
        return False
    return True
