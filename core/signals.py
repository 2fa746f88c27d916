"""Deletions that reach derived data: however an event or a round is deleted (the
admin, `demo_event --replace`, an archive replacing an event, a service, a queryset in
a shell), the data derived from it is marked stale in the same transaction and rebuilt
once it commits, so it catches up by itself.

- A closed round may have been rated: deleting it (alone, or with its event) takes
  its rated round and the players' current ratings that came from it with it
  (cascades), so the ratings are marked stale; the rebuild rolls back to before the
  first round that is gone and applies the rest again (`core.ratings.services`).
- A leg of a series: its series' standings are marked stale and ranked again without it.

Receivers, rather than one delete service, because a deletion cascades from more
places than any service sees; each receiver only marks and queues (no query of its
own beyond the mark)."""

from __future__ import annotations

from django.db.models.signals import post_delete
from django.dispatch import receiver

from core.ratings.services import queue_ratings_refresh
from core.series.standings import queue_series_refresh
from tournaments.models import Event, Round


@receiver(post_delete, sender=Round, dispatch_uid="core.round_deleted_ratings")
def round_deleted(sender, instance: Round, **kwargs) -> None:
    if instance.status == Round.Status.CLOSED:
        queue_ratings_refresh()


@receiver(post_delete, sender=Event, dispatch_uid="core.event_deleted_series")
def event_deleted(sender, instance: Event, **kwargs) -> None:
    if instance.series_id is not None:
        queue_series_refresh(instance.series_id)
