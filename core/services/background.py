"""Background work queued by services once their transaction commits.

A service names the job (`STANDINGS`, `SEATING`) and its arguments; with a broker the
job goes to Celery under that name (the worker runs it through `core.tasks`), and
without one (the embedded default) it runs in this process, right after the commit.
Services never import the tasks module: the tasks call the services, not the other
way round. Each job is the service function registered with `@runs(name)`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from celery import current_app
from django.conf import settings
from django.db import transaction

STANDINGS = "core.refresh_standings"
SEATING = "core.seat_round"

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


def send(name: str, args: tuple, countdown: float | None = None) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        JOBS[name](*args)
    else:
        current_app.send_task(name, args=args, countdown=countdown)
