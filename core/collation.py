"""Names in A-to-Z order in the database as in Python (`game.collation`): PostgreSQL
through its ICU root collation ("und-x-icu", the Unicode Collation Algorithm with
CLDR's root order), SQLite through a collation of the same name each connection is
given on opening, backed by the same algorithm in Python. `by_name("player__name")`
goes into `order_by` wherever a list runs A to Z."""

from __future__ import annotations

from django.db import connection
from django.db.backends.signals import connection_created
from django.db.models import F
from django.db.models.functions import Collate

from game.collation import compare

POSTGRESQL_COLLATION = "und-x-icu"
SQLITE_COLLATION = "unicode"


def by_name(field: str) -> Collate:
    """`field` ordered as people sort names (use in `order_by`)."""
    name = POSTGRESQL_COLLATION if connection.vendor == "postgresql" else SQLITE_COLLATION
    return Collate(F(field), name)


def add_sqlite_collation(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_collation(SQLITE_COLLATION, compare)


connection_created.connect(add_sqlite_collation, dispatch_uid="kalooki-unicode-collation")
