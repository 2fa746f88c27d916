"""Writing a generated event's many rows quickly, each with the history a save gives it.

Django's `bulk_create` (and `simple_history`'s `bulk_create_with_history`, which adds
a history row per row) passes every value of every row through its field and builds a
model instance for every history row: for a 1,024-player event of 10 rounds (23,000
hands, 92,000 hand scores, 10,000 seats, and a history row for each) that was most of
the time it took to generate. The demo's values are plain already (numbers, text,
booleans, one time for the whole write), so they go to the database as they are.

The rows' ids come first from the table's own sequence (so that the history rows can
name them and later rows can point at them; the same ids as `bulk_create` would have
given, in the same order), then the rows go in one statement, and their history rows
in another: COPY on PostgreSQL, one prepared INSERT run for every row on SQLite. The
history rows are those `bulk_create_with_history` writes: every tracked field as the
row has it, `history_type` "+", the change reason given, no user, and the time of the
write (one time for all of them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
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


def create_rows(model: type[Model], objs: Sequence[Model], *, when: datetime | None = None):
    """Write `objs` (unsaved, of `model`) as new rows, setting their ids; their
    `auto_now` and `auto_now_add` times are `when` (now by default). Returns the
    rows' values, in `model`'s column order, for their history."""
    if not objs:
        return []
    when = when or timezone.now()
    fields = model._meta.concrete_fields
    for field in fields:
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            for obj in objs:
                setattr(obj, field.attname, when)
    for obj, pk in zip(objs, new_ids(model, len(objs)), strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias
    columns = [field.attname for field in fields]
    rows = [tuple(getattr(obj, name) for name in columns) for obj in objs]
    insert(model._meta.db_table, [field.column for field in fields], prepared(fields, rows))
    return rows


def create_with_history(
    model: type[Model], objs: Sequence[Model], *, reason: str, when: datetime | None = None
) -> list[Model]:
    """`create_rows`, and a history row for each new row (see the module's docstring).
    Returns `objs`, their ids set."""
    when = when or timezone.now()
    rows = create_rows(model, objs, when=when)
    if not rows:
        return list(objs)
    history = model.history.model
    at = {field.attname: i for i, field in enumerate(model._meta.concrete_fields)}
    tracked = [at[field.attname] for field in history.tracked_fields]
    fields = [history._meta.get_field(field.name) for field in history.tracked_fields]
    fields += [history._meta.get_field(name) for name in HISTORY_FIELDS]
    added = (when, reason, "+", None)
    history_rows = [(*(row[i] for i in tracked), *added) for row in rows]
    insert(history._meta.db_table, [f.column for f in fields], prepared(fields, history_rows))
    return list(objs)


def prepared(fields: Sequence[Field], rows: list[tuple]) -> list[tuple]:
    """The rows' values as the database takes them: each field's that is not plain
    prepared by the field (once per distinct value: the demo's times are few)."""
    steps: list[tuple[int, Callable[[Any], Any]]] = [
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


def new_ids(model: type[Model], count: int) -> list[int]:
    """`count` new ids for `model`'s table, in order, as its own inserts would take
    them. On PostgreSQL from the table's sequence (safe beside other writers); on
    SQLite after the highest id the table has ever had (its AUTOINCREMENT sequence), the
    write lock held by this transaction."""
    table = model._meta.db_table
    column = model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [table, column, count],
            )
            return sorted(pk for (pk,) in cursor.fetchall())
        quoted = connection.ops.quote_name(table)
        cursor.execute(
            f"SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = %s), 0), "
            f"COALESCE((SELECT MAX({connection.ops.quote_name(column)}) FROM {quoted}), 0))",
            [table],
        )
        (last,) = cursor.fetchone()
    return list(range(last + 1, last + 1 + count))


def insert(table: str, columns: Sequence[str], rows: list[tuple]) -> None:
    """Rows into `table`: COPY on PostgreSQL, an INSERT run for each row on SQLite."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)
