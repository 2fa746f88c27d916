"""How long a request waits for a row another transaction holds.

A service a request calls takes row locks (a table's row for a hand's save or a
player's entry, an event's row for a director's change) so that two writers are
served one after the other. A lock held for long (a stuck transaction, a slow disk)
must not stall the site: each web worker waiting behind it is a worker that serves
nobody else, and a client that gives up leaves a save that commits later. So the
transaction of a service marked `@for_request` waits at most `LOCK_WAIT_SECONDS` for
any lock, then is refused with `Busy` (503, Retry-After), nothing written.

Background jobs (the standings rebuild, seating, ratings) are not marked: nobody waits
on them, and they wait for their locks as long as it takes.

PostgreSQL only (`SET LOCAL lock_timeout`): SQLite has no row locks; it serialises
writers on its own, and the embedded default has one process. A service whose first
lock is taken by one query (a hand's save: its table's row) may have that query set
the bound as it reads (`for_request(..., bound_by_first_lock=True)` and `bounded`),
which spares the save a round trip to the database.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import BooleanField, CharField, Func, QuerySet, Value
from django.utils.translation import gettext_lazy

from core.errors import Busy

F = TypeVar("F", bound=Callable)
# PostgreSQL's code for "lock_timeout expired" (lock_not_available).
LOCK_NOT_AVAILABLE = "55P03"
# Set on the connection while a marked transaction runs, so a marked service called
# inside another (a confirmation recording its hand) sets the bound only once.
BOUNDED = "kalooki_lock_wait_bounded"
# Set while a marked transaction's bound is still to be set by its first locking query.
PENDING = "kalooki_lock_wait_pending"


# What a busy row is refused with, by what the service names it (`for_request`).
BUSY = {
    "event": gettext_lazy(
        "This event is busy: another change to it is still being saved. Nothing was "
        "saved; try again in a few seconds."
    ),
    "round": gettext_lazy(
        "This round is busy: another change to it is still being saved. Nothing was "
        "saved; try again in a few seconds."
    ),
    "table": gettext_lazy(
        "This table is busy: another change to it is still being saved. Nothing was "
        "saved; try again in a few seconds."
    ),
    "series": gettext_lazy(
        "This series is busy: another change to it is still being saved. Nothing was "
        "saved; try again in a few seconds."
    ),
    "site's setting": gettext_lazy(
        "This site's setting is busy: another change to it is still being saved. Nothing "
        "was saved; try again in a few seconds."
    ),
}


def busy(what: str) -> Busy:
    message = BUSY.get(what)
    return Busy(
        str(message)
        if message is not None
        else f"This {what} is busy: another change to it is still being saved. Nothing was "
        "saved; try again in a few seconds.",
        retry_after=settings.LOCK_RETRY_AFTER_SECONDS,
    )


def is_lock_timeout(error: BaseException) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE


# SQLite refuses a write for a moment while another connection reads the same table
# ("database table is locked", or "database is locked" once its own wait runs out):
# the service's transaction, rolled back whole, is run again this many times, a little
# later each time, before the refusal is answered as busy.
SQLITE_TRIES = 4


def sqlite_locked(error: BaseException) -> bool:
    return connection.vendor == "sqlite" and "locked" in str(error)


def bound_lock_waits() -> None:
    """Wait at most LOCK_WAIT_SECONDS for any lock in the rest of this transaction."""
    setattr(connection, PENDING, False)
    if connection.vendor == "postgresql":
        milliseconds = int(settings.LOCK_WAIT_SECONDS * 1000)
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {milliseconds}")


def bound_now() -> None:
    """Set the bound now if this transaction's is still to be set (by a service marked
    `bound_by_first_lock` about to take a lock some other way than through `bounded`)."""
    if getattr(connection, PENDING, False):
        bound_lock_waits()


def bounded(queryset: QuerySet) -> QuerySet:
    """`queryset`, the first query of a service marked `bound_by_first_lock` that takes
    a lock (`select_for_update`), setting the transaction's bound as it reads: on
    PostgreSQL a condition `set_config('lock_timeout', ..., true)`, the same as `SET
    LOCAL`. Being volatile, it is evaluated for each row the query reads, before the
    rows it passes are locked, so the bound holds for the query's own row locks and for
    the rest of the transaction. A query that matches no row sets nothing: call
    `bound_now` before locking anything else then. Anywhere else, `queryset` as is."""
    if not getattr(connection, PENDING, False):
        return queryset
    setattr(connection, PENDING, False)
    if connection.vendor != "postgresql":
        return queryset
    milliseconds = str(int(settings.LOCK_WAIT_SECONDS * 1000))
    setting = Func(
        Value("lock_timeout"),
        Value(milliseconds),
        Value(True, output_field=BooleanField()),
        function="set_config",
        output_field=CharField(),
    )
    return queryset.alias(lock_wait_bound=setting).filter(lock_wait_bound__isnull=False)


def for_request(what: str, *, bound_by_first_lock: bool = False) -> Callable[[F], F]:
    """The service runs in one transaction (as `transaction.atomic`) whose lock waits
    are bounded; a wait that runs out is refused as `Busy`, naming `what` is busy (the
    table, the event), with everything the transaction wrote rolled back.
    `bound_by_first_lock`: the service's first lock is taken by a query it passes
    through `bounded` (or after `bound_now`), which sets the bound: no statement of its
    own."""

    def decorate(service: F) -> F:
        @functools.wraps(service)
        def run(*args, **kwargs):
            if getattr(connection, BOUNDED, False):
                with transaction.atomic():
                    return service(*args, **kwargs)
            for attempt in range(SQLITE_TRIES):
                try:
                    with transaction.atomic():
                        setattr(connection, BOUNDED, True)
                        try:
                            if bound_by_first_lock:
                                setattr(connection, PENDING, True)
                            else:
                                bound_lock_waits()
                            return service(*args, **kwargs)
                        finally:
                            setattr(connection, BOUNDED, False)
                            setattr(connection, PENDING, False)
                except OperationalError as error:
                    if is_lock_timeout(error):
                        raise busy(what) from error
                    if not sqlite_locked(error) or attempt == SQLITE_TRIES - 1:
                        raise
                time.sleep(0.05 * (attempt + 1))  # rolled back whole: try it again

        return run  # type: ignore[return-value]

    return decorate
