"""One migration per run for the parallel workers' SQLite test databases.

Each pytest-xdist worker has a test database of its own: on SQLite, one in its own
memory, made by running every migration. They all end the same, so in a parallel run
the first worker to get there migrates as usual and leaves a copy of the result in the
run's temporary directory; the others copy it into their memory instead of migrating
again. The copy lives for one run only (never from an earlier one), so every run still
migrates a fresh database. PostgreSQL, and a run in one process, migrate as before.
"""

from __future__ import annotations

import fcntl
import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path

from django.core.management.commands import migrate
from django.db import connections


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
