"""Whether a Celery worker is taking jobs, read from the database: the time the last
catch-up ran on a worker (`core.derived.worker_ran`, every CATCH_UP_SECONDS while a
worker, beat and the broker work) and the oldest stale mark."""

from __future__ import annotations

from django.utils import timezone

from core import derived


def problems(*, silent_for: float) -> list[str]:
    """What is wrong, one sentence each (none: a worker ran the catch-up within
    `silent_for` seconds and nothing has been stale that long)."""
    now = timezone.now()
    found = []
    last = derived.worker_last_ran()
    if last is None:
        found.append("No worker has ever run the catch-up: is a worker (and beat) running?")
    elif (now - last).total_seconds() > silent_for:
        ago = (now - last).total_seconds()
        found.append(
            f"No worker has taken a job for {ago:.0f} s (last catch-up at {last:%H:%M:%S})."
        )
    oldest = derived.oldest_dirty()
    if oldest is not None and (now - oldest).total_seconds() > silent_for:
        ago = (now - oldest).total_seconds()
        found.append(f"Derived data has been stale for {ago:.0f} s: nothing is catching up.")
    return found
