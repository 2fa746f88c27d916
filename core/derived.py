"""Derived data that catches up by itself: a dirty marker in the database plus a
periodic catch-up.

Derived data (an event's standings, a series' standings, a round's seating, the
ratings) is named by the background job that rebuilds it, and kept in step with its sources by
one `scoring.models.DerivedState` row per thing derived:

- a service that changes the sources calls `changed(kind, key)` inside its
  transaction: the row is marked dirty with the change, atomically, and the rebuild
  job is queued once the transaction commits;
- the rebuild calls `seen(kind, key)` before it reads the sources and `built(kind,
  key, seen)` in its own transaction: the mark is cleared only if no change arrived
  meanwhile, so a change is never lost between the two;
- a rebuild job that finds its data clean (`is_dirty`) returns at once: many changes
  queue many jobs, and the first to run does the work for all of them;
- queueing can fail (the broker is down): that is logged, never raised, since the
  change has committed; and a queued job can be lost (its worker killed). Either
  way the row stays dirty, and `catch_up`, run by Celery beat every few seconds,
  queues the job again for anything dirty for longer than `GRACE_SECONDS`.

New derived data needs only a job registered with `background.runs(kind)` that
follows the same three calls.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Case, F, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from core import background
from scoring.models import DerivedState

log = logging.getLogger(__name__)

# A change's own job normally runs within a second or two of it; only data dirty for
# longer than this is queued again by the catch-up.
GRACE_SECONDS = 10


def changed(kind: str, key: int, *, countdown: float | None = None) -> None:
    """The sources of `kind` for `key` changed in this transaction: mark it dirty now,
    and queue its rebuild once the transaction commits."""
    now = timezone.now()
    marked = DerivedState.objects.filter(kind=kind, key=key).update(
        changes=F("changes") + 1, dirty_since=Coalesce(F("dirty_since"), Value(now))
    )
    if not marked:
        state, created = DerivedState.objects.get_or_create(
            kind=kind, key=key, defaults={"changes": 1, "dirty_since": now}
        )
        if not created:  # another transaction made the row meanwhile
            DerivedState.objects.filter(pk=state.pk).update(
                changes=F("changes") + 1, dirty_since=Coalesce(F("dirty_since"), Value(now))
            )
    background.after_commit(kind, key, countdown=countdown)


def seen(kind: str, key: int) -> int:
    """How many changes a rebuild starting now will see (call it before reading the
    sources, holding whatever lock serialises the rebuilds)."""
    found = DerivedState.objects.filter(kind=kind, key=key).values_list("changes", flat=True)
    return next(iter(found), 0)


def built(kind: str, key: int, changes_seen: int) -> None:
    """A rebuild that saw `changes_seen` changes is being committed: the data is clean
    unless more changes arrived while it ran."""
    DerivedState.objects.filter(kind=kind, key=key).update(
        built=changes_seen,
        built_at=timezone.now(),
        dirty_since=Case(When(changes=changes_seen, then=None), default=F("dirty_since")),
    )


def is_dirty(kind: str, key: int) -> bool:
    """Whether a rebuild is needed. Data never marked (from before these marks, or
    loaded in bulk) counts as dirty: rebuilding it is always safe."""
    found = list(
        DerivedState.objects.filter(kind=kind, key=key).values_list("dirty_since", flat=True)
    )
    return not found or found[0] is not None


def dirty_since(kind: str, key: int):
    """Since when the data has been stale (None: up to date)."""
    found = DerivedState.objects.filter(kind=kind, key=key).values_list("dirty_since", flat=True)
    return next(iter(found), None)


def forget(kind: str, key: int) -> None:
    """What `key` named is gone: nothing left to rebuild."""
    DerivedState.objects.filter(kind=kind, key=key).delete()


def catch_up(*, grace: float = GRACE_SECONDS) -> list[tuple[str, int]]:
    """Queue the rebuild of everything dirty for longer than `grace` seconds; return
    what was queued. Run periodically (Celery beat), so derived data is right again
    within seconds of a broker or a worker coming back, with no further change."""
    cutoff = timezone.now() - timedelta(seconds=grace)
    stale = list(
        DerivedState.objects.filter(dirty_since__lte=cutoff)
        .order_by("dirty_since")
        .values_list("kind", "key")
    )
    for kind, key in stale:
        if kind not in background.JOBS:
            log.error("Stale %s %s has no job to rebuild it.", kind, key)
            continue
        log.warning("Catching up: %s %s has been stale for over %ss.", kind, key, grace)
        background.send(kind, (key,))
    return stale
