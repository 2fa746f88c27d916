"""Celery tasks for scoring: thin callers of services, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from scoring import services
from scoring.services.standings import forget_pending
from tournaments.models import Event


@shared_task(acks_late=True, reject_on_worker_lost=True, max_retries=5, default_retry_delay=2)
def refresh_standings(event_id: int) -> int | None:
    forget_pending(event_id)
    event = Event.objects.filter(pk=event_id).first()
    if event is None:  # deleted meanwhile: nothing to rank
        return None
    return services.refresh_standings(event=event)
