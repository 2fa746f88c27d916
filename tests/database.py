"""One migration per run for the parallel workers' test databases.

Each pytest-xdist worker has a test database of its own, made by running every
migration. They all end the same, so in a parallel run the first worker to get there
migrates as usual and leaves a copy of the result; the others take the copy instead of
migrating again. On SQLite the copy is a file in the run's temporary directory, loaded
into each worker's memory; on PostgreSQL it is a template database
(`<test database>_template`, made again by every run), which each worker's database is
created from. The copy lives for one run only (never from an earlier one), so every
run still migrates a fresh database. A run in one process migrates as before.

After a transactional test, Django empties every table; on PostgreSQL it does so with
one TRUNCATE, which makes every table and index a new file: about 1.7 s for the
suite's 59 tables, against 0.17 s for a DELETE of each (`deleting_flush`).
"""

from __future__ import annotations

import fcntl
import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path

from django.core.management.commands import migrate
from django.db import connections
from django.db.backends.postgresql.operations import DatabaseOperations


def in_memory_sqlite(alias: str) -> bool:
    connection = connections[alias]
    return connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.settings_dict["NAME"]
    )


@contextmanager
def migrated_once(shared: Path):
    """While the test databases are made, the first `migrate` of this worker runs once
    per run: the first worker migrates and saves the result at `shared`; the others load it."""
    original = migrate.Command.handle

    def handle(self, *args, **options):
        migrate.Command.handle = original  # only the test database's own migration
        alias = options["database"]
        if connections[alias].vendor == "postgresql":
            return from_template(
                connections[alias], shared, lambda: original(self, *args, **options)
            )
        if not in_memory_sqlite(alias):
            return original(self, *args, **options)
        connection = connections[alias]
        with open(shared.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if shared.exists():
                connection.ensure_connection()
                with closing(sqlite3.connect(shared)) as saved:
                    saved.backup(connection.connection)
                return None
            done = original(self, *args, **options)
            connection.ensure_connection()
            with closing(sqlite3.connect(shared.with_suffix(".partial"))) as copy:
                connection.connection.backup(copy)
            shared.with_suffix(".partial").rename(shared)
            return done

    migrate.Command.handle = handle
    try:
        yield
    finally:
        migrate.Command.handle = original


def from_template(connection, shared: Path, migrate_here):
    """PostgreSQL: the first worker migrates its database and copies it as the run's
    template; every other worker's database is made again from that template."""
    name = connection.settings_dict["NAME"]
    template = name.rsplit("_gw", 1)[0] + "_template"
    marker = shared.with_name("migrated-postgresql.txt")
    quote = connection.ops.quote_name
    with open(marker.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists():
            connection.close()
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")
                cursor.execute(
                    f"CREATE DATABASE {quote(name)} TEMPLATE {quote(marker.read_text())}"
                )
            return None
        done = migrate_here()
        connection.close()  # a template takes no connection while it is copied
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(template)}")
            cursor.execute(f"CREATE DATABASE {quote(template)} TEMPLATE {quote(name)}")
        marker.write_text(template)
        return done


@contextmanager
def deleting_flush():
    """While the tests run, PostgreSQL's flush (after each transactional test) deletes
    every table's rows instead of truncating the tables: the same empty tables, made
    ten times faster. Every foreign key Django makes on PostgreSQL is checked only at
    commit (DEFERRABLE INITIALLY DEFERRED), so the order of the deletes does not
    matter. A flush that must restart the sequences, or cascade to tables it was not
    given, is Django's own."""
    truncating = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncating(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        ]

    DatabaseOperations.sql_flush = sql_flush
    try:
        yield
    finally:
        DatabaseOperations.sql_flush = truncating
