"""The public pages' documents: the leaderboard, the projector, a round's tables, a
table's sheet, and what the venue screens show with them (the clock, announcements),
kept the way `core.caching` keeps every derived document.

- A live page polls with the versions it shows; when the shared cache announces the
  same two for a public event, the poll is answered from that one round trip
  (`core.caching.unchanged`).
- A public event itself (the row a page starts from) is cached for a few seconds and
  used only while its version is the announced one, so a page load of a public event
  whose standings are cached needs no query: one round trip to the cache fetches the
  event, the announced versions and the page's cached content together.
- The documents and rendered fragments are signed (`core.caching.signed`) with what
  they depend on: the event, both versions and the latest round; each is kept once
  per language (`core.caching.in_reader_language`), words and all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from django.core.cache import cache

from core import selectors
from core.caching import (
    DOCUMENT_TTL,
    PREFIX,
    ProcessCopies,
    announced,
    in_reader_language,
    keep_signed,
    remember_version,
    screen_key,
    signed,
    version_key,
)
from core.selectors import User
from tournaments.models import Event, Table

# A public event's row: how long a change that does not rebuild the standings (its
# name, a round published, the event made private) may take to reach page loads.
EVENT_TTL = 10


# --- The event, as a public page sees it -----------------------------------------------


def event_key(slug: str) -> str:
    return f"{PREFIX}:event:{slug}"


def page_key(name: str) -> str:
    """A rendered page's key: one copy per language."""
    return in_reader_language(f"{PREFIX}:html:{name}")


# A page load of a busy public event would otherwise fetch the event's row and the
# whole compressed page from the shared cache on every request. Each web process keeps
# its own copy of both and uses it only while the two versions announced in the shared
# cache (one small round trip) are still the ones the copy was built for, and the
# event's row no longer than EVENT_TTL: so it is never staler than the shared cache's
# own copy. Pays for: the leaderboard's figures in docs/benchmarks.md ("Third pass":
# 0.58x a trivial view idle, 0.84x under load, against 0.53x fetching the page).
PAGES = ProcessCopies(
    "public pages and their events",
    size=256,
    why="docs/benchmarks.md, third pass: leaderboard ratio to a trivial view",
)


def local_lookup(slug: str, keys: tuple[str, ...]) -> tuple[Event, dict[str, Any]] | None:
    """The event and `keys` from this process's copies, if it holds them all and the
    shared cache still announces the versions they were built for: one small round
    trip. None: take the usual path."""
    event = PAGES.get(event_key(slug))
    if event is None or not event.public:
        return None
    hits = {key: PAGES.get(key) for key in keys}
    if any(value is None for value in hits.values()):
        return None
    versions = announced(slug)
    if (
        versions.get(version_key(slug)) != (event.standings_version, True)
        or versions.get(screen_key(slug)) != event.screen_version
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
        # With the time it goes stale, so that a process taking it from the shared
        # cache keeps it no longer (`lookup`).
        cache.set(event_key(slug), (time.time() + EVENT_TTL, event), EVENT_TTL)
        PAGES.put(event_key(slug), event, EVENT_TTL)
    return event


def lookup(user: User, slug: str, *keys: str) -> tuple[Event, dict[str, Any]]:
    """The event for a page, and whatever the cache holds under `keys`: one cache round
    trip, and no query for a public event cached at the announced version. Private
    events, and anything not cached, come from the database (`public_event`)."""
    found = local_lookup(slug, keys)
    if found is not None:
        return found
    hits = announced(slug, event_key(slug), *keys)
    for key in keys:
        if hits.get(key) is not None:
            PAGES.put(key, hits[key], DOCUMENT_TTL)
    shared = hits.pop(event_key(slug), None)
    stale_at, event = shared if isinstance(shared, tuple) else (0.0, None)
    version = hits.pop(version_key(slug), None)
    screen = hits.pop(screen_key(slug), None)
    if (
        event is None
        or not event.public
        or (version is not None and version[0] != event.standings_version)
        or (screen is not None and screen != event.screen_version)
    ):
        event = public_event(user, slug)
    elif version is not None and screen is not None and stale_at > time.time():
        # Kept here too, for as long as the shared copy holds: the next page loads then
        # need no round trip for it (the versions' alone, `local_lookup`).
        PAGES.put(event_key(slug), event, stale_at - time.time())
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


# --- What the pages show, cached for the event's signature ------------------------------


# The leaderboard as read (a national championship's: 4,096 rows, the standings document
# 45 ms to read back and unpickle, 12 MB once read), for this process's builds of every
# page and size of its regions at one version: each projector asks for its own page.
# The latest read only, whatever its language (a page in another language reads its own
# again).
BOARDS = ProcessCopies(
    "leaderboards, read",
    size=1,
    max_bytes=48 * 2**20,
    why="docs/benchmarks.md, a national championship, third pass: the projector's pages",
)


def board_key(event: Event) -> str:
    """Where the leaderboard's own part is kept (`board`): a name of its own, so a
    process of an earlier release, which kept the whole board under `board:`, never
    reads the part alone as a board."""
    return in_reader_language(f"{PREFIX}:board-frame:{event.pk}")


def board(event: Event, standings: selectors.Standings | None = None) -> selectors.Board:
    """The leaderboard (standings in rank order, the round's progress): no query when
    cached, 4 otherwise. Its own part (`selectors.board_frame`) is kept under the
    board's key, and its standings are the document the rebuild kept (`standings`, when
    the caller has it in hand), read as every reader of the standings reads it: not
    pickled a second time with the board (docs/benchmarks.md, "A national championship,
    tenth pass")."""
    key, sig = board_key(event), signature(event)
    found = BOARDS.get(key)
    if found is not None and found[0] == sig:
        return found[1]
    frame = signed(key, sig, partial(selectors.board_frame, event))
    if standings is None:
        standings = selectors.standings_after(event)
    value = replace(frame, standings=standings)
    BOARDS.put(key, (sig, value))
    return value


def screen(event: Event) -> selectors.Screen:
    """The latest round's clock and the announcements showing: no query when cached,
    2 otherwise."""
    return signed(
        in_reader_language(f"{PREFIX}:screen-doc:{event.pk}"),
        signature(event),
        partial(selectors.screen, event),
    )


def round_board(event: Event, number: int) -> dict[str, Any]:
    """Every table of a public round with each seat's set total: 5 queries, or none."""
    selectors.check_round(event, number)
    return signed(
        in_reader_language(f"{PREFIX}:round:{event.pk}:{number}"),
        signature(event),
        partial(selectors.round_board, event, number),
    )


def sheet(event: Event, table: Table) -> selectors.TableSheet:
    """A table's hand-by-hand sheet with running totals and the hand being played (the
    first not yet scored): 4 queries, or none when cached."""
    return signed(
        in_reader_language(f"{PREFIX}:table:{table.pk}"),
        signature(event),
        partial(selectors.table_sheet, table),
    )


def keep(values: dict[str, Any], sig: tuple) -> None:
    """Cache several values built for `sig` at once (the forms of one page), in this
    process too."""
    keep_signed(values, sig, PAGES)


def cached_fragment(name: str, sig: tuple, render: Callable[[], str]) -> str:
    """A rendered piece of page, shared by every viewer (it holds nothing personal):
    from this process's copy while built for `sig`, else the shared cache's."""
    return signed(page_key(name), sig, render, copies=PAGES)
