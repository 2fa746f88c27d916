"""Background work queued by services once their transaction commits.

A service names the job (`STANDINGS`, `SEATING`) and its arguments; with a broker the
job goes to Celery under that name (the worker runs it through `core.tasks`), and
without one (the embedded default) it runs in this process, right after the commit.
Services never import the tasks module: the tasks call the services, not the other
way round. Each job is the service function registered with `@runs(name)`.

Queueing happens after the commit, so it must never fail the request that committed:
a broker that cannot be reached (or an eager job that fails) is logged, and the work
is caught up later (`core.derived`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from celery import current_app
from django.conf import settings
from django.db import OperationalError, transaction

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


def run_now(name: str, args: tuple) -> None:
    for attempt in range(LOCKED_TRIES):
        try:
            JOBS[name](*args)
            return
        except OperationalError as error:
            if "locked" not in str(error) or attempt == LOCKED_TRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def send(name: str, args: tuple, countdown: float | None = None) -> bool:
    """Queue the job now (run it, without a broker); whether that worked. Never raises:
    the caller's write has committed, and what is not done now is caught up later."""
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            run_now(name, args)
        else:
            current_app.send_task(name, args=args, countdown=countdown)
    except Exception:
        log.exception("Could not queue %s%r; it will be caught up later.", name, args)
        return False
    return True
