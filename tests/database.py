"""A test database migrated once for as long as the migrations stay the same.

Each test process (each pytest-xdist worker, or the one process of a run without
them) has a test database of its own, made by running every migration. They all end
the same, so the first process to get there migrates as usual and leaves a copy of
the result; the others take the copy instead of migrating again (about 4 s each). On
SQLite the copy is a file, loaded into each process's memory; on PostgreSQL it is a
template database (`<test database>_<key>`), which each process's database is created
from. The copy is named by a digest of every installed app's migration files, the
Django version and the database's (`migrations_key`), and kept in pytest's cache
directory, so a later run takes it too until a migration changes; a fresh clone (or
`pytest --cache-clear`) migrates again. Without pytest's cache the copy lives for
one run.

After a transactional test, Django empties every table; on PostgreSQL it does so with
one TRUNCATE, which makes every table and index a new file: about 1.7 s for the
suite's 59 tables, against 0.17 s for a DELETE of each (`deleting_flush`). On every
database Django then makes the content types and permissions again, which its flush
had just deleted: the suite's flushes keep those two tables, which only `migrate`
writes, and skip the remaking (`flush_keeping_what_migrate_made`; about 3 s of CPU in
a run on SQLite).

A transactional module whose tests all start from the same committed world can build
it once on SQLite and have it copied back before each test (`committed_once`).
"""

from __future__ import annotations

import fcntl
import hashlib
import sqlite3
from contextlib import closing, contextmanager
from functools import partial
from pathlib import Path

import django
from django.apps import apps
from django.core.management import call_command
from django.core.management.commands import flush, migrate
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.postgresql.operations import DatabaseOperations
from django.db.models import Model


def in_memory_sqlite(alias: str) -> bool:
    connection = connections[alias]
    return connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.settings_dict["NAME"]
    )


def shared_name(name: str) -> str:
    """The test database's name without its parallel worker's suffix (`_gw0`, ...)."""
    return name.rsplit("_gw", 1)[0]


def migrations_key(connection) -> str:
    """What the migrated database depends on: every installed app's migration files,
    Django's version, and the database (its engine's version; on PostgreSQL, where)."""
    digest = hashlib.sha256(django.get_version().encode())
    for app in sorted(apps.get_app_configs(), key=lambda app: app.label):
        for path in sorted(Path(app.path, "migrations").glob("*.py")):
            digest.update(f"{app.label}/{path.name}".encode())
            digest.update(path.read_bytes())
    if connection.vendor == "postgresql":
        where = connection.settings_dict
        digest.update(f"{where['HOST']}:{where['PORT']}/{shared_name(where['NAME'])}".encode())
    else:
        digest.update(sqlite3.sqlite_version.encode())
    return digest.hexdigest()[:12]


@contextmanager
def migrated_once(folder: Path):
    """While the test databases are made, the first `migrate` of this process runs once
    for every process and run until the migrations change: the first process migrates
    and saves the result in `folder`; the others (and later runs) load it."""
    original = migrate.Command.handle

    def handle(self, *args, **options):
        migrate.Command.handle = original  # only the test database's own migration
        alias = options["database"]
        connection = connections[alias]
        key = migrations_key(connection)
        if connection.vendor == "postgresql":
            return from_template(connection, folder, key, partial(original, self, *args, **options))
        if not in_memory_sqlite(alias):
            return original(self, *args, **options)
        shared = folder / f"migrated-sqlite-{key}.sqlite3"
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
            for older in folder.glob("migrated-sqlite-*.sqlite3"):
                older.unlink()
            shared.with_suffix(".partial").rename(shared)
            return done

    migrate.Command.handle = handle
    try:
        yield
    finally:
        migrate.Command.handle = original


def from_template(connection, folder: Path, key: str, migrate_here):
    """PostgreSQL: the first process migrates its database and copies it as the
    template (`<test database>_<key>`, named in a file in `folder`); every other
    process's database is made again from that template."""
    name = connection.settings_dict["NAME"]
    template = f"{shared_name(name)}_{key}"
    marker = folder / f"migrated-postgresql-{key}.txt"
    quote = connection.ops.quote_name
    with open(marker.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists() and template_exists(connection, marker.read_text()):
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
            cursor.execute(
                "SELECT datname FROM pg_database WHERE datname ~ %s",
                [f"^{shared_name(name)}_([0-9a-f]{{12}}|template)$"],
            )
            for (older,) in cursor.fetchall():  # made for migrations since changed
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(older)}")
            cursor.execute(f"CREATE DATABASE {quote(template)} TEMPLATE {quote(name)}")
        for older in folder.glob("migrated-postgresql-*.txt"):
            older.unlink()
        marker.write_text(template)
        return done


def template_exists(connection, template: str) -> bool:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
        return cursor.fetchone() is not None


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


# What `migrate` writes (through its post_migrate signal) and no test changes.
MADE_BY_MIGRATE = frozenset({"django_content_type", "auth_permission"})


@contextmanager
def flush_keeping_what_migrate_made():
    """While the tests run, a flush (after each transactional test) empties every table
    but the content types and permissions, and does not send post_migrate, whose only
    receivers make exactly those rows again."""
    handle, sql_flush = flush.Command.handle, flush.sql_flush

    def keeping(style, connection, reset_sequences=True, allow_cascade=False):
        tables = connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        return connection.ops.sql_flush(
            style,
            [table for table in tables if table not in MADE_BY_MIGRATE],
            reset_sequences=reset_sequences,
            allow_cascade=allow_cascade,
        )

    def handle_without_remaking(self, **options):
        return handle(self, **{**options, "inhibit_post_migrate": True})

    flush.Command.handle, flush.sql_flush = handle_without_remaking, keeping
    try:
        yield
    finally:
        flush.Command.handle, flush.sql_flush = handle, sql_flush


def committed_once(django_db_blocker, build):
    """For a transactional module's module-scoped fixture: yields `world()`, which each
    test's own fixture calls to have what `build` writes, committed, and `build`'s
    result. On the suite's in-memory SQLite database it is built once, copied aside
    with SQLite's backup, and copied back for each test (a few milliseconds instead of
    building it again); the copy carries the tables' sequences, so every test sees the
    same ids. Elsewhere (PostgreSQL) each test builds it. The objects `build` returns
    are shared by the module's tests: `world()` reads each model instance among them
    again from the database."""
    if not in_memory_sqlite(DEFAULT_DB_ALIAS):
        yield build
        return
    connection = connections[DEFAULT_DB_ALIAS]
    with django_db_blocker.unblock():
        built = build()
        connection.ensure_connection()
        saved = sqlite3.connect(":memory:")
        connection.connection.backup(saved)
        call_command("flush", interactive=False, verbosity=0)  # as a test leaves it

    def world():
        saved.backup(connection.connection)
        return fresh(built)

    try:
        yield world
    finally:
        saved.close()


def fresh(value):
    """`value` with each model instance in it (in tuples and lists) read again."""
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(item) for item in value)
    if isinstance(value, Model):
        return type(value)._default_manager.get(pk=value.pk)
    return value
