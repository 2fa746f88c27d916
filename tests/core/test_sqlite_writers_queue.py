"""The embedded default's writers queue in the process (kalooki_site.sqlite): a
transaction started while another thread's is writing waits for it to end, then
starts, without going through SQLite's busy handler (which sleeps in steps)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import DatabaseWrapper as PlainSQLite
from django.db.utils import OperationalError

from kalooki_site.sqlite.base import DatabaseWrapper as QueuedSQLite

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the embedded default's backend (SQLite runs)"
)


@pytest.fixture(autouse=True)
def own_files(django_db_blocker):
    """These connections are to files of the test's own, not to the test database."""
    with django_db_blocker.unblock():
        yield


def wrapper(kind, path):
    """A connection to the file `path` as the embedded default makes them, except that
    SQLite itself never waits: a writer that finds another gets "database is locked"."""
    settings = {
        **connection.settings_dict,
        "NAME": str(path),
        "OPTIONS": {"timeout": 0, "transaction_mode": "IMMEDIATE"},
        "CONN_MAX_AGE": 0,
    }
    return kind(settings, alias=f"queue-test-{id(settings)}")


def begin(db) -> None:
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def end(db) -> None:
    db.commit()
    db.set_autocommit(True)


def two_writers(kind, path) -> tuple[list[str], list[int]]:
    """Thread A writes for a moment; thread B starts writing meanwhile. What each did,
    in order, and the rows written."""
    setup = wrapper(kind, path)
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS t (n INTEGER)")
        cursor.execute("DELETE FROM t")
    setup.close()
    done, a_writing = [], threading.Event()

    def a() -> None:
        db = wrapper(kind, path)
        begin(db)
        with db.cursor() as cursor:
            cursor.execute("INSERT INTO t VALUES (1)")
        a_writing.set()
        time.sleep(0.3)
        done.append("A committed")
        end(db)
        db.close()

    def b() -> None:
        db = wrapper(kind, path)
        a_writing.wait()
        try:
            begin(db)
            with db.cursor() as cursor:
                cursor.execute("INSERT INTO t VALUES (2)")
            end(db)
            done.append("B committed")
        except OperationalError as error:
            done.append(f"B refused: {error}")
        db.close()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    check = wrapper(kind, path)
    with check.cursor() as cursor:
        cursor.execute("SELECT n FROM t ORDER BY n")
        rows = [n for (n,) in cursor.fetchall()]
    check.close()
    return done, rows


def test_a_second_writer_waits_in_the_process_for_the_first(tmp_path):
    done, rows = two_writers(QueuedSQLite, tmp_path / "queued.sqlite3")
    assert done == ["A committed", "B committed"]
    assert rows == [1, 2]


def test_without_the_queue_the_second_writer_meets_sqlites_lock(tmp_path):
    done, rows = two_writers(PlainSQLite, tmp_path / "plain.sqlite3")
    assert done[0].startswith("B refused: database is locked")
    assert rows == [1]


def test_a_rolled_back_writer_lets_the_next_in(tmp_path):
    path = tmp_path / "rollback.sqlite3"
    first, second = wrapper(QueuedSQLite, path), wrapper(QueuedSQLite, path)
    begin(first)
    first.rollback()
    first.set_autocommit(True)
    begin(second)  # would wait QUEUE_WAIT, then meet SQLite's lock, were it still held
    end(second)
    for db in (first, second):
        db.close()
