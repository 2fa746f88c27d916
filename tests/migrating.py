"""Moving the test database between migrations, for the tests of a data migration: to
the state before it, then back to the latest, as every other test needs it."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: tuple[str, str]):
    """The database at `target`; the apps (historical models) of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def migrate_to_latest() -> None:
    """Every app at its latest migration again, as the other tests need the database."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
