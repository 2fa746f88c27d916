"""Running calls at the same moment, each in its own thread and database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable

import psycopg
from django.db import connection


def together(*calls: Callable[[], object]) -> list[object]:
    """Run each call in its own thread and connection, all released at once; return
    what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as error:  # noqa: BLE001 - the test inspects what each got
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def another_connection():
    """A second connection to the test database, outside Django's: what another web
    process or a stuck transaction would hold (PostgreSQL)."""
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"],
        port=db["PORT"],
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"],
    )
