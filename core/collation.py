"""Names in A-to-Z order in the database as in Python (`game.collation`): PostgreSQL
through its ICU root collation ("und-x-icu", the Unicode Collation Algorithm with
CLDR's root order). `by_name("player__name")` goes into `order_by` wherever a list
runs A to Z. On SQLite (the embedded default) the database orders by code point: a
collation registered on each connection (`add_sqlite_collation`) left the live
server's shared in-memory connection failing after a test's flush, so it is not
registered until that is understood; lists sorted in Python follow the Unicode order
on both."""

from __future__ import annotations

from django.db import connection
from django.db.models import Expression, F
from django.db.models.functions import Collate

POSTGRESQL_COLLATION = "und-x-icu"


def by_name(field: str) -> Expression:
    """`field` ordered as people sort names (use in `order_by`)."""
    if connection.vendor == "postgresql":
        return Collate(F(field), POSTGRESQL_COLLATION)
    return F(field)
