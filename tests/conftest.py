from __future__ import annotations

import gc
import os

import pytest
from django.conf import settings
from django.utils import translation

from core import caching
from kalooki_site import collector
from tests.database import deleting_flush, flush_keeping_what_migrate_made, migrated_once
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


def shares_a_fixture(item) -> bool:
    """Does the test use a fixture kept for its module or class (built once for all of
    them, so worth keeping the module's tests in one process)?"""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name) or ()
        if defs and defs[-1].scope in ("package", "module", "class"):
            return True
    return False


def slow_first(item) -> int:
    """The order tests are handed to the parallel workers in (pytest-xdist, `--dist
    loadgroup`, one test or group at a time to whichever worker is free): the browser
    tests, which take longest and mostly wait, first, so none of them is left for the end."""
    return 0 if item.get_closest_marker("browser") else 1


# The browser tests mostly wait (for Chromium, for a page's next poll), so they are not
# spread over every worker: BROWSER_LANES workers take them all, one group each, while
# the others run the rest of the suite from the start and keep both cores busy. The
# groups are balanced on each module's seconds (one run, alone, in one process; a
# module not listed counts 5 s a test).
BROWSER_LANES = 3
BROWSER_SECONDS = {
    "test_season_from_pages": 35,
    "test_whole_event": 31,
    "test_venue_screens": 30,
    "test_accessibility": 35,
    "test_dispute_on_phone": 15,
    "test_public_live": 13,
    "test_director_sheet": 12,
    "test_table_entry": 11,
    "test_event_day": 6,
    "test_smoke": 6,
    "test_incomplete_sets": 5,
    "test_director_access": 5,
    "test_series_flow": 4,
    "test_ratings_pages": 2,
}


# Modules whose tests each build a world of their own (no module-wide fixture): their
# tests are shared out over the lanes one by one, each counting its share of the
# module's seconds.
BROWSER_ONE_BY_ONE = frozenset({"test_accessibility"})


def lane_unit(item) -> str:
    """What goes to one lane whole: the test's module, or the test itself."""
    module = item.module.__name__
    return item.nodeid if module.rsplit(".", 1)[-1] in BROWSER_ONE_BY_ONE else module


def browser_lanes(items) -> dict[str, int]:
    """Each browser test module's (or test's: `lane_unit`) lane (0 to BROWSER_LANES - 1):
    the longest first, each to the lane with the fewest seconds so far."""
    counts: dict[str, int] = {}
    units: dict[str, str] = {}
    for item in items:
        if item.get_closest_marker("browser"):
            name = item.module.__name__
            counts[name] = counts.get(name, 0) + 1
            units[lane_unit(item)] = name
    seconds = {}
    for unit, name in units.items():
        whole = BROWSER_SECONDS.get(name.rsplit(".", 1)[-1], 5 * counts[name])
        seconds[unit] = whole / counts[name] if unit != name else whole
    load = [0] * BROWSER_LANES
    lanes = {}
    for name in sorted(seconds, key=lambda n: (-seconds[n], n)):
        lane = load.index(min(load))
        lanes[name] = lane
        load[lane] += seconds[name]
    return lanes


# A parallel worker that runs the rest of the suite lets the browser lanes go first:
# theirs is the longest chain of the run (a page, its server and Chromium taking turns
# with each test's wait), and each of their steps waits on the two cores, while the
# rest is CPU work that fills whatever time the lanes leave. A worker lowers its
# priority (raises its niceness) once, at its first test that is not a browser test;
# the browser tests are handed out first, so a lane's worker has run them all by then.
BACKGROUND_NICENESS = 10
NICED = pytest.StashKey[bool]()


def pytest_runtest_setup(item):
    if (
        os.environ.get("PYTEST_XDIST_WORKER")
        and not item.get_closest_marker("browser")
        and not item.config.stash.get(NICED, False)
    ):
        item.config.stash[NICED] = True
        os.nice(BACKGROUND_NICENESS)


def in_parallel(config) -> bool:
    return bool(
        getattr(config.option, "numprocesses", None) or os.environ.get("PYTEST_XDIST_WORKER")
    )


# First: pytest-xdist's own hook, in each parallel worker, reads the groups marked here
# (it names each test with its group), and a hook of a conftest loaded before xdist's
# plugin would otherwise run after it.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        (dropped if left_out(item) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    if in_parallel(config):
        lanes = browser_lanes(items)
        for item in items:
            if item.get_closest_marker("browser"):
                lane = lanes[lane_unit(item)]
                item.add_marker(pytest.mark.xdist_group(f"browser-{lane + 1}"))
            elif shares_a_fixture(item):
                item.add_marker(pytest.mark.xdist_group(item.module.__name__))


class SlowFirst:
    """Last: the browser tests first (`slow_first`), after pytest-django's own order
    (its hook, which runs first, sorts the tests by the kind of database they need)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if in_parallel(config):
            items.sort(key=slow_first)


def pytest_configure(config):
    config.pluginmanager.register(SlowFirst(), "kalooki-slow-first")


# Python's cyclic garbage collector looks at every object that lives long enough, and a
# test process keeps tens of thousands of them for its whole run (modules, Django's
# models and URL patterns, the collected tests): once they are collected, they are
# frozen out of its reach, and it runs after every 50,000 new objects rather than
# 700 (from the start: collecting the tests makes many). CPU of the suite without its
# browser tests: 132 s -> 125 s (docs/benchmarks.md). The site's own processes do the
# same (`kalooki_site.collector`).
gc.set_threshold(collector.FIRST_GENERATION, *gc.get_threshold()[1:])


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    lost_groups(session.config, session.items)


def lost_groups(config, items) -> None:
    """In a parallel worker, each grouped test must carry its group in its name, which is
    how pytest-xdist sends a group to one worker: without it, module fixtures are built
    once per worker and the browser lanes are lost, and nothing fails but the time (as
    with pytest 9.2, pytest-dev/pytest-xdist#1386)."""
    if not (os.environ.get("PYTEST_XDIST_WORKER") and getattr(config.option, "loadgroup", False)):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid:
            raise pytest.UsageError(
                f"pytest-xdist lost the test's group ({item.nodeid}): "
                "check the pytest and pytest-xdist versions (pyproject.toml)"
            )


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    where = db["NAME"] if db["ENGINE"].endswith("sqlite3") else f"{db['HOST']}:{db['PORT']}"
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where}); CI={os.environ.get('CI', '')}"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings, request, tmp_path_factory):
    """Just before the test databases are made: migrate once for every process, and
    for later runs while the migrations stay the same (tests/database.py), keeping the
    result in pytest's cache directory (or the run's temporary one without it)."""
    cache = getattr(request.config, "cache", None)
    if cache is not None:
        folder = cache.mkdir("test-databases")
    else:
        folder = tmp_path_factory.getbasetemp()
        folder = folder.parent if hasattr(request.config, "workerinput") else folder
    with migrated_once(folder):
        yield


@pytest.fixture(scope="session", autouse=True)
def _flush_by_deleting():
    """After a transactional test, PostgreSQL's tables are emptied by deleting their
    rows, not truncating them, and on every database the content types and permissions
    are kept rather than made again (tests/database.py)."""
    with deleting_flush(), flush_keeping_what_migrate_made():
        yield


@pytest.fixture
def client():
    """Django's test client asking as a browser does, with an Accept-Language (English):
    a client that names no language is served its event's default language, which
    costs a lookup no browser's request makes (tests/test_languages.py)."""
    from django.test import Client

    return Client(headers={"Accept-Language": "en"})


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


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """Every test ends in English: a request leaves its reader's language active in its
    thread (as Django's own middleware does), and a later test that words something
    outside a request would otherwise speak it."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session", autouse=True)
def _require_postgres_in_ci(request):
    """Under CI=true the PostgreSQL run must really reach PostgreSQL: fail, never skip."""
    if os.environ.get("CI") == "true" and "postgres" in os.environ.get("DATABASE_URL", ""):
        assert on_postgres(), "DATABASE_URL names PostgreSQL but the settings do not use it"
