"""Celery tasks: thin callers of services, safe to run twice. Each runs under the name
a service queues it by (`core.background`)."""

from __future__ import annotations

from celery import shared_task

from core import background, derived
from core.ratings.services import RATINGS, refresh_ratings_job
from core.seating.services import seat_round_job
from core.series.standings import refresh_series_job
from core.standings.services import refresh_standings_job

RELIABLE = {"acks_late": True, "reject_on_worker_lost": True}
CATCH_UP = "core.catch_up"


@shared_task(name=background.STANDINGS, max_retries=5, default_retry_delay=2, **RELIABLE)
def refresh_standings(event_id: int) -> int | None:
    return refresh_standings_job(event_id)


@shared_task(name=background.SEATING, max_retries=5, default_retry_delay=2, **RELIABLE)
def seat_round(round_id: int) -> str | None:
    return seat_round_job(round_id)


@shared_task(name=background.SERIES_STANDINGS, max_retries=5, default_retry_delay=2, **RELIABLE)
def refresh_series_standings(series_id: int) -> int | None:
    return refresh_series_job(series_id)


@shared_task(name=RATINGS, max_retries=5, default_retry_delay=2, **RELIABLE)
def refresh_ratings(key: int = 0) -> int | None:
    return refresh_ratings_job(key)


# Sent by Celery beat every few seconds; expires rather than piling up while no worker runs.
@shared_task(name=CATCH_UP, ignore_result=True, expires=60)
def catch_up() -> int:
    """Queue the rebuild of any derived data the database says is stale, and note that
    a worker is taking jobs (`manage.py check_worker` reads it)."""
    derived.worker_ran()
    return len(derived.catch_up())
