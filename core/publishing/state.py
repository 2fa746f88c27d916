"""What a venue publishes: its event as the archive's rows, keyed by this database's
own ids (`core.archive.export.build_payload` with `identity`), and the change from one
such state to the next.

A change is a JSON object:

    {"seq": 7, "stream": "...", "at": "<when the venue captured it>",
     "event": {changed settings},
     "rows": {section: [rows new or changed]},
     "gone": {section: [keys of rows deleted]},
     "history": {section: [history rows new since the last change]}}

Rows are keyed by their id (a section without ids by what is unique in it: an adjusted
score by its seat and hand number, a standing by its round and entry); history rows,
which are only ever added, by their `history_id`. The standings travel too: a closed
round's are its frozen result; the site ranks the round in play again itself. What the
venue remembers of the last state it captured is a digest per row (`Snapshot`), built
again after a restart by folding the outbox's changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Max

from core.archive import BY_NAME, HISTORY_SECTIONS, SECTIONS, Section, canonical
from core.archive.export import build_payload
from tournaments.models import Announcement, Event, Player, PlayerCode, Table

# The site's own, not the venue's: its address and its pages' versions.
LOCAL_EVENT_FIELDS = ("slug", "standings_version", "screen_version")
# The rows of a section without ids, by what is unique in them: (reference, section).
NATURAL_KEYS = {
    "adjusted_scores": (("seat", "seats"), ("number", None)),
    "standings": (("round", "rounds"), ("entry", "entries")),
}


def key_of(section: Section, row: dict[str, Any]) -> str:
    if section.has_ids:
        return str(row["id"])
    return ":".join(str(row[name]) for name, _target in NATURAL_KEYS[section.name])


def digest(row: Any) -> bytes:
    return hashlib.blake2b(canonical(row), digest_size=12).digest()


@dataclass
class Snapshot:
    """The last state captured: the event's values, a digest of each row, and the
    history rows' ids."""

    event: dict[str, Any] = field(default_factory=dict)
    rows: dict[str, dict[str, bytes]] = field(default_factory=dict)
    history: dict[str, set[int]] = field(default_factory=dict)

    def fold(self, change: dict[str, Any]) -> None:
        """This state moved on by `change` (one of the outbox's)."""
        self.event.update(change.get("event", {}))
        for name, rows in change.get("rows", {}).items():
            kept = self.rows.setdefault(name, {})
            for row in rows:
                kept[key_of(BY_NAME[name], row)] = digest(row)
        for name, keys in change.get("gone", {}).items():
            for key in keys:
                self.rows.get(name, {}).pop(str(key), None)
        for name, rows in change.get("history", {}).items():
            self.history.setdefault(name, set()).update(r["history_id"] for r in rows)


# History rows are only ever added, with ids that grow: a look reads those after the
# last it has, less this margin (on PostgreSQL a transaction that took a lower id may
# commit after one that took a higher), and keeps the ones it has not seen.
HISTORY_MARGIN = 5000


@contextmanager
def consistent_read() -> Iterator[None]:
    """Every query inside reads the database as it stood at the first one. On SQLite a
    deferred transaction: the site's own (`transaction_mode` IMMEDIATE) would hold the
    write lock for the whole look, and every save at the venue would wait behind it;
    in WAL mode a reader never holds up a writer. On PostgreSQL, REPEATABLE READ."""
    if connection.in_atomic_block:  # inside a transaction already: it reads as one
        yield
        return
    if connection.vendor != "sqlite":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield
        return
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("COMMIT")


def read_state(event: Event, snapshot: Snapshot | None = None) -> dict[str, Any]:
    """The event as the venue publishes it, read in one consistent snapshot of the
    database (a change must never carry a hand without its scores); with `snapshot`,
    only the history rows it may not have."""
    after = None
    if snapshot is not None:
        after = {name: max(ids) - HISTORY_MARGIN for name, ids in snapshot.history.items() if ids}
    with consistent_read():
        event = Event.objects.get(pk=event.pk)
        payload = build_payload(event, identity=True, history_after=after)
    values = {k: v for k, v in payload["event"].items() if k not in LOCAL_EVENT_FIELDS}
    values.pop("directors", None)  # each site grants its own
    return {
        "event": values,
        "rows": {
            name: {key_of(BY_NAME[name], row): row for row in payload[name]}
            for name in (s.name for s in SECTIONS)
        },
        "history": {
            s.name: {row["history_id"]: row for row in payload["history"][s.name]}
            for s in HISTORY_SECTIONS
        },
    }


def difference(snapshot: Snapshot, state: dict[str, Any]) -> dict[str, Any]:
    """What changed from `snapshot` to `state` (empty when nothing did)."""
    change: dict[str, Any] = {}
    values = {k: v for k, v in state["event"].items() if snapshot.event.get(k, ...) != v}
    if values:
        change["event"] = values
    rows: dict[str, list] = {}
    gone: dict[str, list] = {}
    for name, now in state["rows"].items():
        before = snapshot.rows.get(name, {})
        changed = [row for key, row in now.items() if before.get(key) != digest(row)]
        if changed:
            rows[name] = changed
        deleted = sorted(key for key in before if key not in now)
        if deleted:
            gone[name] = deleted
    history: dict[str, list] = {}
    for name, now in state["history"].items():
        seen = snapshot.history.get(name, set())
        new = [row for history_id, row in sorted(now.items()) if history_id not in seen]
        if new:
            history[name] = new
    for part, value in (("rows", rows), ("gone", gone), ("history", history)):
        if value:
            change[part] = value
    return change


def signature(event: Event) -> tuple:
    """A few cheap figures that move whenever the event may have changed (a save writes
    a history row; the screens bump their version): a capture reads the whole event
    only when they moved, or when its periodic full look is due."""
    figures: list[Any] = list(
        Event.objects.filter(pk=event.pk).values_list("updated_at", "screen_version").first() or ()
    )
    for section in HISTORY_SECTIONS:
        figures.append(section.history_model._default_manager.aggregate(m=Max("history_id"))["m"])
    for model in (Table, Player, PlayerCode, Announcement):
        figures.append(model._default_manager.aggregate(m=Max("pk"))["m"])
    figures.append(event.rounds.aggregate(m=Max("adjusted_at"))["m"])
    return tuple(figures)
