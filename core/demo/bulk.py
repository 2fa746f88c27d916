"""Writing a generated event's many rows quickly, each with the history a save gives it.

Django's `bulk_create` (and `simple_history`'s `bulk_create_with_history`, which adds
a history row per row) builds a model instance for every row and every history row
and passes every value through its field: for a 1,024-player event of 10 rounds
(23,000 hands, 92,000 hand scores, 10,000 seats, and a history row for each) that was
most of the time it took to generate. The demo's values are plain already (numbers,
text, booleans, one time for the whole write), so they go to the database as they are.

The rows' ids come first from the table's own sequence (so that the history rows can
name them and later rows can point at them: the same ids as `bulk_create` would have
given, in the same order), then the rows go in one statement and their history rows
in another: COPY on PostgreSQL, one prepared INSERT run for every row on SQLite. The
history rows are those `bulk_create_with_history` writes: every tracked field as the
row has it, `history_type` "+", the change reason given, no user, and the time of the
write (one time for all of them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from datetime import datetime
from operator import itemgetter
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone

# Fields whose Python values are what the database stores: written without their
# field's preparation. Any other field's values are prepared by the field, as
# `bulk_create` would.
PLAIN_FIELDS = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "ForeignKey",
    "IntegerField",
    "PositiveBigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}
# What a history row adds to the row it records, in this order.
HISTORY_FIELDS = ("history_date", "history_change_reason", "history_type", "history_user")


def create_values(
    model: type[Model],
    names: Sequence[str],
    rows: Sequence[tuple],
    *,
    reason: str | None = None,
    when: datetime | None = None,
) -> list[int]:
    """New rows of `model`, each given as the values of the fields `names` (by
    attname, the id left out): the other fields take their defaults, `auto_now` and
    `auto_now_add` ones `when` (now by default). With `reason`, a history row for each
    (see the module's docstring). Returns the new rows' ids, in order."""
    if not rows:
        return []
    when = when or timezone.now()
    fields = model._meta.concrete_fields
    given = {name: i for i, name in enumerate(names)}
    if set(given) - {f.attname for f in fields} or model._meta.pk.attname in given:
        raise ValueError(f"not fields of {model.__name__} to give: {sorted(given)}")
    # Each row is extended to (id, *given values, *the others' values), then ordered.
    others = [f for f in fields if not f.primary_key and f.attname not in given]
    constants = tuple(
        when
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        else f.get_default()
        for f in others
    )
    place = {f.attname: 1 + len(names) + i for i, f in enumerate(others)}
    place.update({name: 1 + i for name, i in given.items()})
    place[model._meta.pk.attname] = 0
    ordered = itemgetter(*(place[f.attname] for f in fields))
    ids = new_ids(model, len(rows))
    full = [ordered((pk, *row, *constants)) for pk, row in zip(ids, rows, strict=True)]
    insert(model._meta.db_table, fields, full)
    if reason is not None:
        history = model.history.model
        at = {f.attname: i for i, f in enumerate(fields)}
        tracked = itemgetter(*(at[f.attname] for f in history.tracked_fields))
        added = (when, reason, "+", None)
        insert(
            history._meta.db_table,
            [history._meta.get_field(f.name) for f in history.tracked_fields]
            + [history._meta.get_field(name) for name in HISTORY_FIELDS],
            [(*tracked(row), *added) for row in full],
        )
    return ids


def create_objects(
    model: type[Model],
    objs: Sequence[Model],
    *,
    reason: str | None = None,
    when: datetime | None = None,
) -> list[Model]:
    """`create_values` for unsaved instances of `model`, whose ids it sets. Returns
    `objs`."""
    names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    rows = [tuple(getattr(obj, name) for name in names) for obj in objs]
    ids = create_values(model, names, rows, reason=reason, when=when)
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias
    return list(objs)


def new_ids(model: type[Model], count: int) -> list[int]:
    """`count` new ids for `model`'s table, in order, as its own inserts would take
    them. On PostgreSQL from the table's sequence (safe beside other writers); on
    SQLite after the highest id the table has ever had (its AUTOINCREMENT sequence),
    the write lock held by this transaction."""
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [table, column, count],
            )
            return sorted(pk for (pk,) in cursor.fetchall())
        quote = connection.ops.quote_name
        cursor.execute(
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = %s), 0), "
            f"COALESCE((SELECT MAX({quote(column)}) FROM {quote(table)}), 0))",
            [table],
        )
        (last,) = cursor.fetchone()
    return list(range(last + 1, last + 1 + count))


def insert(table: str, fields: Sequence[Field], rows: list[tuple]) -> None:
    """Rows (the values of `fields`, in order) into `table`: COPY on PostgreSQL, an
    INSERT run for each row on SQLite."""
    rows = prepared(fields, rows)
    quote = connection.ops.quote_name
    names = ", ".join(quote(f.column) for f in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(fields))
        cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)


def prepared(fields: Sequence[Field], rows: list[tuple]) -> list[tuple]:
    """The rows' values as the database takes them: those of a field that is not plain
    prepared by the field (once per distinct value: the demo's times are few)."""
    steps = [
        (i, field_preparer(field))
        for i, field in enumerate(fields)
        if field.get_internal_type() not in PLAIN_FIELDS
    ]
    if not steps:
        return rows
    out = []
    for row in rows:
        values = list(row)
        for i, prepare in steps:
            values[i] = prepare(values[i])
        out.append(tuple(values))
    return out


def field_preparer(field: Field) -> Callable[[Any], Any]:
    seen: dict[Any, Any] = {}

    def prepare(value: Any) -> Any:
        try:
            return seen[value]
        except KeyError:
            made = seen[value] = field.get_db_prep_save(value, connection)
            return made
        except TypeError:  # not hashable
            return field.get_db_prep_save(value, connection)

    return prepare


# SQLite's page cache while a demo event is written: big enough to hold the tables and
# indexes being filled (about 100 MB for a 1,024-player event of 10 rounds), so that
# their pages are not written out and read back as the rows go in. It changes nothing
# of what is written or when it is safe on disk (memory only); the connection's own
# size comes back afterwards.
CACHE_KIB = 256 * 1024


@contextmanager
def bulk_load():
    """The connection set for writing many rows (SQLite: a bigger page cache)."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (size,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(size)}")
