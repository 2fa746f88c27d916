"""Scoring migration 0014, both ways: the round's own index and the (round, rank) index
go, the round's foreign key stays (dropped and added back, it would check every
standing again with both tables locked), and on PostgreSQL the table keeps room in its
pages; migrated back, the indexes return and the table's options are reset."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.migrating import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("scoring", "0013_proposal_change_reason_text")


def round_constraints() -> dict[str, set[tuple[str, ...]]]:
    """The standings table's indexes (not unique) and foreign keys on its round."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "scoring_standing")
    kinds: dict[str, set[tuple[str, ...]]] = {"index": set(), "foreign key": set()}
    for constraint in found.values():
        columns = tuple(constraint["columns"])
        if columns[0] != "round_id":
            continue
        if constraint["foreign_key"]:
            kinds["foreign key"].add(columns)
        elif constraint["index"] and not constraint["unique"]:
            kinds["index"].add(columns)
    return kinds


def options() -> list[str] | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'scoring_standing'")
        return cursor.fetchone()[0]


def round_key() -> int | None:
    """The round's foreign key constraint as PostgreSQL holds it (its oid: a key dropped
    and added back is another); None elsewhere."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.oid FROM pg_constraint c JOIN pg_attribute a"
            " ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)"
            " WHERE c.conrelid = 'scoring_standing'::regclass AND c.contype = 'f'"
            " AND a.attname = 'round_id'"
        )
        return cursor.fetchone()[0]


def test_the_round_keeps_its_foreign_key_and_loses_its_indexes_both_ways():
    try:
        migrate(BEFORE)
        before = round_constraints()
        assert before["index"] == {("round_id",), ("round_id", "rank")}
        assert before["foreign key"] == {("round_id",)}
        assert options() is None
        key = round_key()
    finally:
        migrate_to_latest()
    assert round_constraints() == {"index": set(), "foreign key": {("round_id",)}}
    if connection.vendor == "postgresql":
        assert options() == ["fillfactor=80"]
        assert round_key() == key  # the same key: not dropped and added back
