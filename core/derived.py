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
- a job run through `rebuild_alone` is the only one rebuilding the same thing (on
  PostgreSQL): it rebuilds again while changes keep coming, with its copies of the last
  rebuild still in hand, and the jobs of those changes, waiting for it meanwhile, then
  find the data clean;
- queueing can fail (the broker is down): that is logged, never raised, since the
  change has committed; and a queued job can be lost (its worker killed). Either
  way the row stays dirty, and `catch_up`, run by Celery beat every few seconds,
  queues the job again for anything dirty for longer than `GRACE_SECONDS`;
- and when no worker takes jobs at all (the broker down for long, every worker
  dead), `rebuild_overdue`, run by the supervisor's standby process (`manage.py
  run_processes`), rebuilds in its own process whatever has been dirty for longer
  than `settings.REBUILD_HERE_AFTER_SECONDS`: the data is right again within that
  bound whatever the broker and the workers do.

Each catch-up a worker runs also notes its time (`worker_ran`): `manage.py
check_worker` reads it to say when no worker has taken a job for too long.

New derived data needs only a job registered with `background.runs(kind)` that
follows the same three calls.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TypeVar

from django.conf import settings
from django.db import Error, close_old_connections, connection
from django.db.models import Case, F, When
from django.utils import timezone

from core import background
from scoring.models import DerivedState

log = logging.getLogger(__name__)
STATE = DerivedState._meta.db_table

# A change's own job normally runs within a second or two of it; only data dirty for
# longer than this is queued again by the catch-up.
GRACE_SECONDS = 10
# The row a worker's catch-up stamps (`built_at`) each time it runs: the heartbeat of
# "some worker is taking jobs". It is never dirty, so no catch-up ever queues it.
WORKER_RAN = ("core.catch_up", 0)
T = TypeVar("T")


def changed(kind: str, key: int, *, countdown: float | None = None) -> None:
    """The sources of `kind` for `key` changed in this transaction: mark it dirty now,
    and queue its rebuild once the transaction commits."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    # One statement whether the row is there yet or not (a hand's save makes this mark).
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {STATE} (kind, "key", changes, built, dirty_since)
            VALUES (%s, %s, 1, 0, %s)
            ON CONFLICT (kind, "key") DO UPDATE SET changes = {STATE}.changes + 1,
                dirty_since = COALESCE({STATE}.dirty_since, excluded.dirty_since)""",
            [kind, key, now],
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


@contextmanager
def rebuilding(kind: str, key: int) -> Iterator[None]:
    """Held while this process rebuilds `kind` for `key`; a process asking while another
    holds it waits for it to be let go. A PostgreSQL advisory lock, held by this
    connection until the block ends, and let go with the connection when it closes (a
    killed process's too). Elsewhere nothing: SQLite's writers are one at a time anyway."""
    if connection.vendor != "postgresql":
        yield
        return
    claim = (zlib.crc32(kind.encode()) - 2**31, key % 2**31)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", claim)
    try:
        yield
    finally:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", claim)
        except Error:  # the connection is gone, and its claim with it
            log.warning("Could not let go of rebuilding %s %s.", kind, key, exc_info=True)


def rebuild_alone(
    kind: str, key: int, rebuild: Callable[[], T], *, turn: float | None = None
) -> T | None:
    """Run `rebuild` (a whole transaction that clears the mark as `built` does, or
    returns None when what `key` named is gone) as long as `kind` for `key` is dirty,
    one process at a time (`rebuilding`). The process rebuilding goes round again for
    the changes that came while it ran, with whatever it keeps of its last rebuild in
    hand; a job that came meanwhile waits for it, then finds nothing left to do. After
    `turn` seconds (settings.REBUILD_TURN_SECONDS) of rebuilds it stops: every change not yet
    covered has its own job, waiting for the lock or queued (or, its queueing failed,
    the catch-up's). Returns what the last rebuild returned (None: none ran)."""
    turn = settings.REBUILD_TURN_SECONDS if turn is None else turn
    result, rebuilt = None, 0
    if not is_dirty(kind, key):
        return None
    with rebuilding(kind, key):
        started = time.monotonic()  # the turn counts from the lock, not the wait for it
        while is_dirty(kind, key):
            if rebuilt and time.monotonic() - started >= turn:
                return result  # the jobs of the changes since are waiting, or queued
            result, rebuilt = rebuild(), rebuilt + 1
            if result is None:  # what `key` named is gone
                return None
    return result


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


def worker_ran() -> None:
    """A worker is taking jobs now (called by the catch-up task it runs)."""
    kind, key = WORKER_RAN
    now = timezone.now()
    if not DerivedState.objects.filter(kind=kind, key=key).update(built_at=now):
        DerivedState.objects.get_or_create(kind=kind, key=key, defaults={"built_at": now})


def worker_last_ran():
    """When a worker last ran the catch-up (None: never)."""
    kind, key = WORKER_RAN
    found = DerivedState.objects.filter(kind=kind, key=key).values_list("built_at", flat=True)
    return next(iter(found), None)


def oldest_dirty():
    """Since when the longest-stale derived data has been stale (None: all up to date)."""
    return (
        DerivedState.objects.filter(dirty_since__isnull=False)
        .order_by("dirty_since")
        .values_list("dirty_since", flat=True)
        .first()
    )


def rebuild_overdue(*, older_than: float | None = None) -> list[tuple[str, int]]:
    """Rebuild here, in this process, everything dirty for longer than `older_than`
    seconds (default `settings.REBUILD_HERE_AFTER_SECONDS`); return what was rebuilt.

    The workers normally rebuild within seconds; data stale this long means none is
    taking jobs, so the standby does it without the broker. A rebuild takes the same
    locks and clears the same marks as a worker's, so the two never disagree; one that
    fails is logged and tried again next time."""
    if older_than is None:
        older_than = settings.REBUILD_HERE_AFTER_SECONDS
    close_old_connections()  # a long-running process: drop a connection the database cut
    cutoff = timezone.now() - timedelta(seconds=older_than)
    overdue = list(
        DerivedState.objects.filter(dirty_since__lte=cutoff)
        .order_by("dirty_since")
        .values_list("kind", "key")
    )
    done = []
    for kind, key in overdue:
        job = background.JOBS.get(kind)
        if job is None:
            log.error("Stale %s %s has no job to rebuild it.", kind, key)
            continue
        log.warning(
            "No worker rebuilt %s %s within %ss: rebuilding it here.", kind, key, older_than
        )
        try:
            job(key)
        except Exception:
            log.exception("Rebuilding %s %s here failed; trying again later.", kind, key)
            continue
        done.append((kind, key))
    return done
