from __future__ import annotations

import os

import pytest
from django.conf import settings

from core import caching
from tests.fixtures import codes_of, make_alice, make_bob, make_root, make_world
from tournaments.models import Event


def on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def left_out(item) -> bool:
    """Tests marked `postgres` test what only PostgreSQL has (row locks under real
    concurrency): the SQLite run leaves them out. Tests marked `worker` talk to real
    Celery workers: only a run with CELERY_BROKER_URL set (and PostgreSQL) has them."""
    if item.get_closest_marker("worker"):
        return not (settings.CELERY_BROKER_URL and on_postgres())
    return bool(item.get_closest_marker("postgres")) and not on_postgres()


def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        (dropped if left_out(item) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    where = db["NAME"] if db["ENGINE"].endswith("sqlite3") else f"{db['HOST']}:{db['PORT']}"
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where}); CI={os.environ.get('CI', '')}"


@pytest.fixture
def alice(db):
    """Directs the event under test (the fixture that makes it adds her)."""
    return make_alice()


@pytest.fixture
def bob(db):
    """Directs another event only."""
    return make_bob()


@pytest.fixture
def root(db):
    """A superuser."""
    return make_root()


@pytest.fixture
def entry_world(db):
    """Round 1 of alice's event, where the players enter their own hands: published,
    two tables of four (`make_world`)."""
    return make_world(table_entry=Event.TableEntry.PLAYERS)


@pytest.fixture
def codes(entry_world):
    """Each seated player's code in round 1 of `entry_world`, by (table, seat)."""
    return codes_of(entry_world.round)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts and ends with an empty cache, so no test sees another's pages
    (nor the copies a web process keeps of them)."""
    caching.reset()
    yield
    caching.reset()


@pytest.fixture(scope="session", autouse=True)
def _require_postgres_in_ci(request):
    """Under CI=true the PostgreSQL run must really reach PostgreSQL: fail, never skip."""
    if os.environ.get("CI") == "true" and "postgres" in os.environ.get("DATABASE_URL", ""):
        assert on_postgres(), "DATABASE_URL names PostgreSQL but the settings do not use it"
