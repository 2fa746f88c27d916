"""The versions that live pages follow, kept in the cache.

Every standings rebuild grows `Event.standings_version`, and every other change the
venue screens show (the round clock, an announcement, the field, the event's settings)
grows `Event.screen_version`; each is announced here once it commits. A live page
polls with both versions it shows and, while the cache holds the same two for a public
event, is answered from that one cache round trip without a query. The services write
these keys and the public pages read them: this module is the contract between them.
A table's entry stamp is the same kind of contract: the services that change a table's
hands or players' entries replace it, and the players' entry page follows it.
"""

from __future__ import annotations

import secrets
from functools import partial

from django.core.cache import cache
from django.db import transaction

from tournaments.models import Event, Table

PREFIX = "kalooki:public"
# A version announced by a rebuild holds until the next one replaces it.
ANNOUNCED_TTL = 24 * 60 * 60
# A version a page read from the database is kept only briefly, so a writer that does
# not announce (or a lost announcement) delays live pages by seconds, not for good.
REMEMBERED_TTL = 5


def version_key(slug: str) -> str:
    return f"{PREFIX}:version:{slug}"


def screen_key(slug: str) -> str:
    return f"{PREFIX}:screen:{slug}"


def announce_version(event: Event, version: int) -> None:
    """Tell live pages the standings are now at `version`, once the rebuild commits
    (before then a poller would read the old rows under the new version)."""
    transaction.on_commit(
        partial(cache.set, version_key(event.slug), (version, event.public), ANNOUNCED_TTL)
    )


def announce_screen(event: Event, version: int) -> None:
    """Tell live pages the screens (clock, announcements, field) are now at `version`,
    once the change commits."""
    transaction.on_commit(partial(cache.set, screen_key(event.slug), version, ANNOUNCED_TTL))


def remember_version(event: Event) -> None:
    """Keep the versions a page just read from the database, for a few seconds.

    `add` does not replace an announcement, which may be newer than this read. A
    cached version older than this read (an announcement lost) or a changed public
    flag is replaced, briefly, so that even a race with a newer announcement heals
    within seconds."""
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


def table_key(slug: str, round_number: int, table_number: int) -> str:
    return f"{PREFIX}:table-entry:{slug}:{round_number}:{table_number}"


def touch_table(table: Table) -> None:
    """Tell the players' entry page of `table` (with its round and event loaded) that
    its hands or entries changed, once this transaction commits: the page polls with
    the stamp it shows."""
    key = table_key(table.round.event.slug, table.round.number, table.number)
    transaction.on_commit(partial(cache.set, key, secrets.token_hex(4), ANNOUNCED_TTL))


def unchanged(slug: str, version: int | None, screen: int | None) -> bool:
    """Whether a public event's standings are still at `version` and its screens at
    `screen`: one cache round trip, no query.

    Private events always take the slow path, where the viewer's rights are checked.
    """
    if version is None or screen is None:
        return False
    cached = cache.get_many([version_key(slug), screen_key(slug)])
    standings = cached.get(version_key(slug))
    return (
        standings is not None
        and standings[1] is True
        and standings[0] == version
        and cached.get(screen_key(slug)) == screen
    )
