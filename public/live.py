"""Caching for the public pages: the leaderboard, the projector, a round's tables, a
table's sheet, and what the venue screens show with them (the clock, announcements).

Everything a live page shows changes only when the standings are rebuilt (which grows
`Event.standings_version`) or when something else on the screens changes (the clock,
an announcement, the field, the settings: `Event.screen_version`). So:

- the event's current versions sit in the cache under `version_key(slug)` and
  `screen_key(slug)`, set after each change commits (`core.live`). A live page polls
  with the versions it shows; when the cache holds the same two for a public event,
  the poll is answered from that one cache round trip, without touching the database;
- a public event itself (the row a page starts from) is cached for a few seconds and
  used only while its version is the announced one, so a page load of a public event
  whose standings are cached needs no query: one round trip to the cache fetches the
  event, the announced version and the page's cached content together;
- the documents (plain data) and rendered fragments are cached under one key per
  event, round, table or page, holding the signature they were built for (the event,
  both versions and the latest round); a reader with another signature rebuilds them.
  One key per thing, rather than one per version, so a busy event does not fill the
  cache with stale copies.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.cache import cache

from core import selectors
from core.live import PREFIX, remember_version, screen_key, version_key
from core.selectors import User
from tournaments.models import Event, Table

# A public event's row: how long a change that does not rebuild the standings (its
# name, a round published, the event made private) may take to reach page loads.
EVENT_TTL = 10
# Documents and fragments: rebuilt whenever their signature changes anyway.
DOCUMENT_TTL = 60 * 60


# --- The event, as a public page sees it -----------------------------------------------


def event_key(slug: str) -> str:
    return f"{PREFIX}:event:{slug}"


def page_key(name: str) -> str:
    return f"{PREFIX}:html:{name}"


# --- A copy in this process, checked against the announced versions ------------------
#
# A page load of a busy public event would otherwise fetch the event's row and the
# whole compressed page from the shared cache on every request. Each web process keeps
# its own copy of both (a few hundred entries at most) and uses it only while the two
# versions announced in the shared cache (one small round trip) are still the ones the
# copy was built for, and the event's row no longer than EVENT_TTL: so it is never
# staler than the shared cache's own copy. Anything missing, or no announcement in the
# shared cache (emptied, or restarted), takes the usual path.

LOCAL_ENTRIES = 256
_local: OrderedDict[str, tuple[float, Any]] = OrderedDict()


def keep_local(key: str, value: Any, ttl: float) -> None:
    _local[key] = (time.monotonic() + ttl, value)
    _local.move_to_end(key)
    while len(_local) > LOCAL_ENTRIES:
        _local.popitem(last=False)


def local(key: str) -> Any:
    found = _local.get(key)
    if found is None or found[0] < time.monotonic():
        return None
    return found[1]


def forget_local() -> None:
    """Drop this process's copies (the shared cache was emptied: tests do)."""
    _local.clear()


def local_lookup(slug: str, keys: tuple[str, ...]) -> tuple[Event, dict[str, Any]] | None:
    """The event and `keys` from this process's copies, if it holds them all and the
    shared cache still announces the versions they were built for: one small round
    trip. None: take the usual path."""
    event = local(event_key(slug))
    if event is None or not event.public:
        return None
    hits = {key: local(key) for key in keys}
    if any(value is None for value in hits.values()):
        return None
    announced = cache.get_many([version_key(slug), screen_key(slug)])
    if (
        announced.get(version_key(slug)) != (event.standings_version, True)
        or announced.get(screen_key(slug)) != event.screen_version
    ):
        return None
    return event, hits


def public_event(user: User, slug: str) -> Event:
    """The event if this user may see it, with its latest public round (one query), its
    version remembered for live polls and, for a public event, the row itself cached
    for page loads."""
    event = selectors.public_event(user, slug)
    remember_version(event)
    if event.public:
        cache.set(event_key(slug), event, EVENT_TTL)
        keep_local(event_key(slug), event, EVENT_TTL)
    return event


def lookup(user: User, slug: str, *keys: str) -> tuple[Event, dict[str, Any]]:
    """The event for a page, and whatever the cache holds under `keys`: one cache round
    trip, and no query for a public event cached at the announced version. Private
    events, and anything not cached, come from the database (`public_event`)."""
    found = local_lookup(slug, keys)
    if found is not None:
        return found
    hits = cache.get_many([version_key(slug), screen_key(slug), event_key(slug), *keys])
    for key in keys:
        if hits.get(key) is not None:
            keep_local(key, hits[key], DOCUMENT_TTL)
    event = hits.pop(event_key(slug), None)
    announced = hits.pop(version_key(slug), None)
    screen = hits.pop(screen_key(slug), None)
    if (
        event is None
        or not event.public
        or (announced is not None and announced[0] != event.standings_version)
        or (screen is not None and screen != event.screen_version)
    ):
        event = public_event(user, slug)
    return event, hits


def signature(event: Event) -> tuple:
    """What a cached event document depends on: the event, its standings, its screens,
    and which round is the latest (publishing a round does not rebuild the standings)."""
    return (
        event.pk,
        event.standings_version,
        event.screen_version,
        event.latest_round,
        event.latest_status,
    )


_MISSING = object()


def cached(key: str, sig: tuple, build: Callable[[], Any], hit: Any = _MISSING) -> Any:
    """The value under `key` if it was built for `sig`; else build it and keep it.
    `hit` is what the cache held under `key`, when the caller fetched it already."""
    if hit is _MISSING:
        hit = cache.get(key)
    if hit is not None and hit[0] == sig:
        return hit[1]
    value = build()
    cache.set(key, (sig, value), DOCUMENT_TTL)
    return value


# --- What the pages show, cached for the event's signature ------------------------------


def board(event: Event) -> selectors.Board:
    """The leaderboard (standings in rank order, the round's progress): no query when
    cached, 3 otherwise."""
    return cached(f"{PREFIX}:board:{event.pk}", signature(event), partial(selectors.board, event))


def screen(event: Event) -> selectors.Screen:
    """The latest round's clock and the announcements showing: no query when cached,
    2 otherwise."""
    return cached(
        f"{PREFIX}:screen-doc:{event.pk}", signature(event), partial(selectors.screen, event)
    )


def round_board(event: Event, number: int) -> dict[str, Any]:
    """Every table of a public round with each seat's set total: 5 queries, or none."""
    selectors.check_round(event, number)
    return cached(
        f"{PREFIX}:round:{event.pk}:{number}",
        signature(event),
        partial(selectors.round_board, event, number),
    )


def sheet(event: Event, table: Table) -> selectors.TableSheet:
    """A table's hand-by-hand sheet with running totals and the hand being played (the
    first not yet scored): 4 queries, or none when cached."""
    return cached(
        f"{PREFIX}:table:{table.pk}", signature(event), partial(selectors.table_sheet, table)
    )


def keep(values: dict[str, Any], sig: tuple) -> None:
    """Cache several values built for `sig` at once (the forms of one page)."""
    cache.set_many({key: (sig, value) for key, value in values.items()}, DOCUMENT_TTL)
    for key, value in values.items():
        keep_local(key, (sig, value), DOCUMENT_TTL)


def cached_fragment(name: str, sig: tuple, render: Callable[[], str], hit: Any = _MISSING) -> str:
    """A rendered piece of page, shared by every viewer (it holds nothing personal)."""
    return cached(page_key(name), sig, render, hit)
