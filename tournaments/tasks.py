"""Celery tasks for tournaments: thin callers of services, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from tournaments import services
from tournaments.models import Round


@shared_task(acks_late=True, reject_on_worker_lost=True, max_retries=5, default_retry_delay=2)
def seat_round(round_id: int) -> str | None:
    if not Round.objects.filter(pk=round_id).exists():
        return None
    return services.seat_round(round_id=round_id).status
