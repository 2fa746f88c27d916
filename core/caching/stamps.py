"""A table's entry stamp: the players' entry page's contract with the shared cache, as
the announced versions are the live pages' (`core.caching`). Every change at a table
(an entry, a confirmation, a dispute, a director's change, its lock) gives it a new
stamp once committed (`touch_table`); its phones poll with the signature they show
(the stamp and the event's screen version) and are answered from the cache alone while
it is the same; the rows they read after a change are read once for all of them
(`table_rows`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import transaction

from core.caching import (
    ANNOUNCED_TTL,
    PREFIX,
    remember_version,
    screen_key,
    signed,
    version_key,
    versioned_key,
)
from tournaments.models import Table

# A table's entry stamp when the cache had none: the same after every loss of it.
UNSTAMPED = "0"
# How long the rows a table's phones read after a change are kept for the others (who
# ask within a second or two of each other: the push tells them at once, or their polls
# come within ENTRY_POLL_SECONDS).
TABLE_ROWS_TTL = 10


def table_key(slug: str, round_number: int, table_number: int) -> str:
    return f"{PREFIX}:table-entry:{slug}:{round_number}:{table_number}"


def touch_table(table: Table) -> None:
    """Tell the players' entry page of `table` (with its round and event loaded) that
    its hands or entries changed, once this transaction commits: the page polls with
    the stamp it shows."""
    key = table_key(table.round.event.slug, table.round.number, table.number)
    transaction.on_commit(partial(cache.set, key, secrets.token_hex(4), ANNOUNCED_TTL))


def table_signature_cached(slug: str, number: int, table_number: int) -> str | None:
    """What the players' entry page's live region shows depends on, from the cache
    alone (so an unchanged poll costs no query): the table's entry stamp (every entry,
    confirmation, dispute, director's change at the table, its lock) and the event's
    screen version (its settings, the field, a round closed or reopened, a publication
    applied), for a public event. Not the standings version: a hand recorded at another
    table changes nothing this region shows. None when the cache cannot say."""
    return table_signatures_cached(slug, [(number, table_number)])[1][(number, table_number)]


def table_signatures_cached(
    slug: str, tables: list[tuple[int, int]]
) -> tuple[tuple | None, dict[tuple[int, int], str | None]]:
    """The event's announced versions ((standings, public), screen; None unless both
    are there) and the signature of each (round, table) as `table_signature_cached`
    reads it: one round trip, whatever the number of tables (the push server's, for
    every open table of an event)."""
    keys = [version_key(slug), screen_key(slug), *(table_key(slug, *t) for t in tables)]
    found = cache.get_many(keys)
    standings, screen = found.get(keys[0]), found.get(keys[1])
    versions = None if standings is None or screen is None else (standings, screen)
    public = versions is not None and standings[1] is True
    return versions, {
        table: f"{screen}.{found[key]}" if public and key in found else None
        for table, key in zip(tables, keys[2:], strict=True)
    }


def table_rows(table: Table, signature: str, read: Callable[[], Any]) -> Any:
    """What `read` reads of `table` for its players' entry region (its hands and
    entries), kept under the table's `signature` (read before it) and the table's own
    id: the phones at a table each ask for the region once the table changes, and the
    first one's read serves the others, in every process.

    Kept TABLE_ROWS_TTL seconds only, so that a change whose stamp never reached the
    cache (an outage as it committed, a process killed between the two) is read within
    seconds, as a lost announcement is (REMEMBERED_TTL). A stamp made again (a cache
    that lost it, or a table nothing has changed at since) names no history: read every
    time, lest a copy kept under the same signature before the loss be taken for the
    table now."""
    if signature.rpartition(".")[2] == UNSTAMPED:
        return read()
    round_ = table.round
    key = versioned_key("table-rows", round_.event.slug, round_.number, table.number)
    return signed(key, (signature, table.pk), read, ttl=TABLE_ROWS_TTL)


def table_signature(table: Table, cached: str | None = None) -> str:
    """The players' entry region's signature, giving the table a stamp if the cache
    has none (the table with its round and event loaded). `cached`: what
    `table_signature_cached` read for the table just before (a phone told of a change),
    taken as it is while the event as read is public, as the cache said it was; a
    private event's is read again, which sets the cache right if it still calls the
    event public (an announcement lost)."""
    round_ = table.round
    event = round_.event
    if cached is not None and event.public:
        return cached
    key = table_key(event.slug, round_.number, table.number)
    cache.add(key, UNSTAMPED, ANNOUNCED_TTL)
    remember_version(event)  # so the next unchanged poll needs no query
    return table_signature_cached(event.slug, round_.number, table.number) or (
        f"{event.screen_version}.{cache.get(key)}"
    )
