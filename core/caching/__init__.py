"""The one owner of caching: how a derived document (a leaderboard, a standings list, a
board, the API's bytes, what a rebuild read) is keyed, stored, served and dropped.

Derived data changes only when its event's versions grow: every standings rebuild
grows `Event.standings_version`, and every other change the venue screens show (the
round clock, an announcement, the field, the event's settings) grows
`Event.screen_version`. So a document is kept one of two ways:

- **versioned**: under a key that names the version it was built for
  (`versioned_key`). Such a copy is never stale; a new version simply reads another
  key, and the old one expires.
- **signed**: one key per thing (an event's board, a page), holding the signature it
  was built for beside it (`signed`). A reader with another signature builds it again
  and replaces it, so a busy event does not fill the cache with stale copies.

The versions themselves sit in the shared cache once each change commits
(`announce_version`, `announce_screen`), so a live page polling with the versions it
shows is answered from one cache round trip without a query (`unchanged`). A table's
entry stamp is the same kind of contract for the players' entry page
(`core.caching.stamps`).

Copies kept inside one process (`ProcessCopies`, in `core.process_copies`) are the
exception: each is bounded in entries and in bytes, says beside it which figure in
docs/benchmarks.md pays for it, and is checked against the announced versions (or keyed
by what cannot change) so it is never staler than the shared cache. `reset()` drops
the shared cache and every process copy at once.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import get_language

from core.counters import counters

# Copies kept in one process, offered here with the rest of caching.
from core.process_copies import ProcessCopies as ProcessCopies
from core.process_copies import approximate_bytes as approximate_bytes
from core.process_copies import forget_process_copies as forget_process_copies
from core.process_copies import process_copies as process_copies
from tournaments.models import Event

PREFIX = "kalooki:public"
# A version announced by a rebuild holds until the next one replaces it.
ANNOUNCED_TTL = 24 * 60 * 60
# A version a page read from the database is kept only briefly, so a writer that does
# not announce (or a lost announcement) delays live pages by seconds, not for good.
REMEMBERED_TTL = 5
# Documents kept under a versioned or signed key: rebuilt whenever the version changes.
DOCUMENT_TTL = 60 * 60


def reset() -> None:
    """Drop the shared cache, the clients' counters and every copy this process keeps
    (tests do, around each test)."""
    cache.clear()
    counters.clear()
    forget_process_copies()


# --- One builder at a time ------------------------------------------------------------------

# The keys some thread of this process is building a document for, each with its lock
# and how many threads hold or wait for it. When a version changes, every open page's
# next poll asks for the new document at once (a national championship's 1,000 open
# leaderboards: dozens of a process's threads in the same second); one builds it and
# the others wait for it and read what it kept, instead of each building it again.
# Pays for: docs/benchmarks.md, "A national championship, second pass", the
# national bench step by step.
_BUILDERS: dict[str, list] = {}
_BUILDERS_LOCK = threading.Lock()


# Set while this thread holds a claim that others wait for (`holding_claims`).
HOLDING = threading.local()


def holding() -> bool:
    return getattr(HOLDING, "claims", False)


@contextmanager
def holding_claims() -> Iterator[None]:
    """While this thread holds claims that other processes wait for (the standings job,
    from its document's claim to its keeping): it waits for no one else's claim, nor for
    another thread of this process building the same thing (`one_builder`), and builds
    what the other is building instead. Waiting could be for ever, until
    BUILD_WAIT: a web process that claimed the leaderboard's first page at the new
    version waits for the document to make it, while the job, before it keeps the
    document, would wait for that page (docs/benchmarks.md, "The document kept after
    the announcement")."""
    was = holding()
    HOLDING.claims = True
    try:
        yield
    finally:
        HOLDING.claims = was


@contextmanager
def one_builder(key: str) -> Iterator[None]:
    """Hold `key`'s lock in this process while building its document. A document built
    inside another's build (a region's board) is keyed apart, always in the same order,
    so waiting threads never hold each other's keys."""
    with _BUILDERS_LOCK:
        held = _BUILDERS.setdefault(key, [threading.Lock(), 0])
        held[1] += 1
    # A thread holding claims (`holding_claims`) builds alongside the one holding the
    # lock: that one may be waiting for its claims (the job run in a web process).
    got = held[0].acquire(blocking=not holding())
    try:
        yield
    finally:
        if got:
            held[0].release()
        with _BUILDERS_LOCK:
            held[1] -= 1
            if not held[1]:
                del _BUILDERS[key]


# --- Documents keyed by their version ------------------------------------------------------


def versioned_key(kind: str, *parts: Any) -> str:
    """The key of a document of `kind` built for `parts`, which must name every version
    it depends on (so the copy under it is never stale)."""
    return ":".join(("kalooki", kind, *(str(part) for part in parts)))


def versioned(
    key: str,
    build: Callable[[], Any],
    *,
    copies: ProcessCopies | None = None,
    slot: str | None = None,
) -> Any:
    """The document under `key` (a `versioned_key`): from this process's `copies` when
    given, else the shared cache, else built and kept in both. `slot` names the document
    apart from its version: `copies` then holds one version per slot, the latest read,
    so an older version leaves this process as soon as a newer one is read rather than
    when the store is full (the shared cache lets it expire)."""
    held = key if slot is None else slot
    if copies is not None:
        found = copies.get(held)
        if found is not None and slot is None:
            return found
        if found is not None and found[0] == key:
            return found[1]
    found = cache.get(key)
    if found is None:
        with one_builder(key):
            found = cache.get(key)  # built meanwhile by another of this process's threads
            if found is None:
                found = built_once_versioned(key, build)
    if copies is not None:
        copies.put(held, found if slot is None else (key, found))
    return found


def built_once_versioned(key: str, build: Callable[[], Any]) -> Any:
    """The document under `key`, built by one process while the others wait for it
    (BUILD_WAIT at most, as `built_once`): the standings job, which claims a new
    version's standings before it announces them and keeps them after, say, while a web
    process that read the new version asks for them."""
    if not claim(key):
        found = built_elsewhere(claim_key(key), key)
        if found is not None:
            return found
    found = build()
    keep_claimed(key, found)
    return found


def claim_key(key: str) -> str:
    return f"{key}:building"


def claim(key: str) -> bool:
    """Claim the building of the document under `key` (a `versioned_key`): a process
    reading it meanwhile waits for it (BUILD_WAIT at most) rather than build it too.
    False: another process holds the claim."""
    return cache.add(claim_key(key), 1, BUILD_WAIT)


def claim_all(keys: list[str]) -> bool:
    """Claim the building of every document under `keys` (`claim`): False, with nothing
    claimed, when one of them is kept already or another process claims one."""
    if cache.get_many(keys):
        return False
    claimed = [key for key in keys if claim(key)]
    if len(claimed) == len(keys):
        return True
    for key in claimed:
        let_go(key)
    return False


def keep_claimed(key: str, value: Any) -> None:
    """Keep the document built under a claim (`claim`), and let the claim go, whether or
    not it could be kept (its readers then make it at once)."""
    try:
        cache.set(key, value, DOCUMENT_TTL)
    finally:
        cache.delete(claim_key(key))


def let_go(key: str) -> None:
    """Let a claim go with nothing built (its readers build the document themselves)."""
    cache.delete(claim_key(key))


MISSING = object()  # what `opened` answers for a copy of another signature
# How long another process may take to build a signed document before a reader builds
# it too (and how long a crashed builder's claim holds), and how often a waiting reader
# looks whether it is done.
BUILD_WAIT = 3.0
BUILD_LOOK = 0.02


def sealed(sig: tuple, value: Any) -> tuple[tuple, bytes]:
    """A signed copy of `value` as every signed copy is kept, in the shared cache and in
    a process's copies alike: its signature, and the value pickled apart, so a copy of
    an older version (a 4,096-player board: 1 MB, 40-100 ms to unpickle) is told apart
    without unpickling it (`opened`)."""
    return sig, pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def opened(hit: Any, sig: tuple) -> Any:
    """The value in a signed copy `hit` (`sealed`) if it was built for `sig`, else
    MISSING. A copy an earlier release kept with its value not sealed (the shared cache
    outlives a deploy) is MISSING too: built again, never served unopened."""
    if hit is None or hit[0] != sig or not isinstance(hit[1], bytes):
        return MISSING
    return pickle.loads(hit[1])


def signed(
    key: str,
    sig: tuple,
    build: Callable[[], Any],
    hit: Any = MISSING,
    *,
    copies: ProcessCopies | None = None,
    ttl: int = DOCUMENT_TTL,
) -> Any:
    """The value under `key` if it was built for signature `sig`; else build it and keep
    it (for `ttl` seconds). `hit` is what the cache held under `key`, when the caller
    fetched it already; `copies`, when given, is looked in first and keeps what was read
    or built.

    One builder at a time in all the processes sharing the cache: a process's threads
    wait for the one building (`one_builder`), and a process finding another's claim
    on this signature waits up to BUILD_WAIT for it to be kept, then builds it too."""
    if copies is not None:
        found = opened(copies.get(key), sig)
        if found is not MISSING:
            return found
    kept = cache.get(key) if hit is MISSING else hit
    found = opened(kept, sig)
    if found is MISSING:
        kept, found = built_once(key, sig, build, ttl)
    if copies is not None:
        copies.put(key, kept, ttl)
    return found


def built_once(
    key: str, sig: tuple, build: Callable[[], Any], ttl: int = DOCUMENT_TTL
) -> tuple[Any, Any]:
    """The signed copy under `key` for `sig` and its value, built by one thread of one
    process while the others wait for it (`signed`)."""
    with one_builder(key):
        kept = cache.get(key)  # built meanwhile by another thread
        found = opened(kept, sig)
        if found is not MISSING:
            return kept, found
        claim = f"{key}:building:{':'.join(map(str, sig))}"
        if not cache.add(claim, 1, BUILD_WAIT):
            kept = built_elsewhere(claim, key)
            found = opened(kept, sig)
            if found is not MISSING:
                return kept, found
        found = build()
        kept = sealed(sig, found)
        cache.set(key, kept, ttl)
        cache.delete(claim)
        return kept, found


def built_elsewhere(claim: str, key: str) -> Any:
    """Wait for another process's claim to go (a small key, looked at every
    BUILD_LOOK), then what it kept under `key`; waits BUILD_WAIT at most, and not at
    all while this thread holds claims of its own (`holding_claims`)."""
    if holding():
        return cache.get(key)
    give_up = time.monotonic() + BUILD_WAIT
    while cache.get(claim) is not None and time.monotonic() < give_up:
        time.sleep(BUILD_LOOK)
    return cache.get(key)


def keep_signed(values: dict[str, Any], sig: tuple, copies: ProcessCopies | None = None) -> None:
    """Keep several values built for `sig` at once (the forms of one page), sealed as
    `signed` keeps one."""
    kept = {key: sealed(sig, value) for key, value in values.items()}
    cache.set_many(kept, DOCUMENT_TTL)
    if copies is not None:
        for key, value in kept.items():
            copies.put(key, value, DOCUMENT_TTL)


# --- The versions live pages follow ----------------------------------------------------------


def version_key(slug: str) -> str:
    return f"{PREFIX}:version:{slug}"


def screen_key(slug: str) -> str:
    return f"{PREFIX}:screen:{slug}"


# The versions the shared cache announces, as this process last read them, reused for
# RECHECK seconds: a busy page or live poll then asks the shared cache a few times a
# second per process instead of on every request. This process's own announcements
# replace them at once (`announce_version`, `announce_screen`, `remember_version`);
# another process's reach this one within RECHECK. Pays for: the leaderboard's and the
# live poll's ratio to the trivial view (docs/benchmarks.md, "Reads at the cache's
# speed"), where the round trip was most of a cached page's cost on a busy machine.
RECHECK = 0.25
ANNOUNCED = ProcessCopies(
    "announced versions",
    size=4096,
    ttl=RECHECK,
    max_bytes=2**20,
    why="docs/benchmarks.md, reads at the cache's speed: leaderboard and poll ratios",
)


def announced(slug: str, *keys: str) -> dict[str, Any]:
    """The event's announced versions and whatever the cache holds under `keys`: one
    round trip, or none for the versions alone when this process read them less than
    RECHECK seconds ago."""
    if not keys:
        known = ANNOUNCED.get(slug)
        if known is not None:
            return dict(known)
    versions = (version_key(slug), screen_key(slug))
    found = cache.get_many([*versions, *keys])
    ANNOUNCED.put(slug, {key: found[key] for key in versions if key in found})
    return found


def announce_version(event: Event, version: int) -> None:
    """Tell live pages the standings are now at `version`, once the rebuild commits
    (before then a poller would read the old rows under the new version)."""
    transaction.on_commit(partial(announce_now, event, version))


def announce_now(event: Event, version: int) -> None:
    """Tell live pages the standings are now at `version` (committed already)."""
    cache.set(version_key(event.slug), (version, event.public), ANNOUNCED_TTL)
    ANNOUNCED.forget(event.slug)


def announce_screen(event: Event, version: int) -> None:
    """Tell live pages the screens (clock, announcements, field) are now at `version`,
    once the change commits. A change of the event's settings comes this way too, so
    the event's default language is looked up afresh."""
    transaction.on_commit(partial(cache.set, screen_key(event.slug), version, ANNOUNCED_TTL))
    transaction.on_commit(partial(cache.delete, language_key(event.slug)))
    transaction.on_commit(partial(EVENT_LANGUAGES.forget, event.slug))
    transaction.on_commit(partial(ANNOUNCED.forget, event.slug))


# --- The default language of an event's pages --------------------------------------------


def in_reader_language(key: str) -> str:
    """The key of a copy made for the reader's language (the one active now): a page,
    or a document holding words, is kept once per language, so a reader in one never
    fills the copy a reader in another is served."""
    return f"{key}:{get_language() or settings.LANGUAGE_CODE}"


def language_key(slug: str) -> str:
    return f"{PREFIX}:language:{slug}"


# The events' default languages as this process last read them, for LANGUAGE_RECHECK
# seconds: every page and poll of a reader whose browser names no language the site has
# needs it (a national championship's phones: a round trip on each of 340 polls a
# second, as many as the poll's own). A change of an event's settings reaches this
# process at once, and the others within LANGUAGE_RECHECK.
LANGUAGE_RECHECK = 5.0
EVENT_LANGUAGES = ProcessCopies(
    "events' default languages",
    size=1024,
    ttl=LANGUAGE_RECHECK,
    max_bytes=2**20,
    why="docs/benchmarks.md, a national championship, third pass: the phones' polls",
)


def event_language(slug: str) -> str | None:
    """The default language of the event of `slug` (None: no such event), for a reader
    who asks for none the site has: from this process's copy (`EVENT_LANGUAGES`), the cache,
    else one query by the unique slug, kept until the event's settings change
    (`announce_screen`)."""
    found = EVENT_LANGUAGES.get(slug)
    if found is not None:
        return found or None
    key = language_key(slug)
    found = cache.get(key)
    if found is None:
        found = Event.objects.filter(slug=slug).values_list("language", flat=True).first() or ""
        cache.set(key, found, ANNOUNCED_TTL)
    EVENT_LANGUAGES.put(slug, found)
    return found or None


def remember_version(event: Event) -> None:
    """Keep the versions a page just read from the database, for a few seconds.

    `add` does not replace an announcement, which may be newer than this read. A
    cached version older than this read (an announcement lost) or a changed public
    flag is replaced, briefly, so that even a race with a newer announcement heals
    within seconds."""
    ANNOUNCED.forget(event.slug)
    key, value = version_key(event.slug), (event.standings_version, event.public)
    if not cache.add(key, value, REMEMBERED_TTL):
        cached = cache.get(key)
        if cached is not None and (cached[0] < value[0] or cached[1] != value[1]):
            cache.set(key, value, REMEMBERED_TTL)
    key, screen = screen_key(event.slug), event.screen_version
    if not cache.add(key, screen, REMEMBERED_TTL):
        cached = cache.get(key)
        if cached is not None and cached < screen:
            cache.set(key, screen, REMEMBERED_TTL)


def still_announced(event: Event) -> bool:
    """Whether the shared cache still announces this copy of a public event's
    standings version: one round trip at most (`announced`)."""
    return announced(event.slug).get(version_key(event.slug)) == (event.standings_version, True)


def unchanged(slug: str, version: int | None, screen: int | None) -> bool:
    """Whether a public event's standings are still at `version` and its screens at
    `screen`: one cache round trip at most (`announced`), no query.

    Private events always take the slow path, where the viewer's rights are checked.
    """
    if version is None or screen is None:
        return False
    cached = announced(slug)
    standings = cached.get(version_key(slug))
    return (
        standings is not None
        and standings[1] is True
        and standings[0] == version
        and cached.get(screen_key(slug)) == screen
    )
