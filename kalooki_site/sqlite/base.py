"""Django's SQLite backend, with this process's writers queued in the process.

SQLite lets one transaction write at a time; the embedded default starts every
transaction as a writer (`BEGIN IMMEDIATE`), and one that finds another writing waits
in SQLite's busy handler, which sleeps in growing steps (up to a tenth of a second) and
looks again: a save queued behind two or three others at the venue's busiest moment
could wait half a second longer than their work took. Here a thread of this process
that starts a transaction first waits on a lock in the process, handed to the next
writer the moment the last one commits or rolls back; SQLite's own wait remains for a
writer in another process (the standby, a command run beside the server). A thread
that waits longer than QUEUE_WAIT for the lock goes on to SQLite's wait as before, so
a writer that holds it too long (or waits on something another thread holds while
that thread waits here) slows the queue but never stops it.

Pays for: the venue laptop's save p95 (docs/benchmarks.md, "A national championship,
third pass", the venue).
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

QUEUE_WAIT = 5.0  # seconds

_WRITER = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer = False

    def _start_transaction_under_autocommit(self):
        queued = _WRITER.acquire(timeout=QUEUE_WAIT)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            if queued:
                _WRITER.release()
            raise
        self._holds_writer = queued

    def _let_next_writer_in(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            _WRITER.release()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._let_next_writer_in()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._let_next_writer_in()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._let_next_writer_in()
