"""Logging that stays readable through an outage."""

from __future__ import annotations

import logging
import threading
import time


class OncePerInterval(logging.Filter):
    """Lets one record of a kind through per `seconds` (a kind: the logger, the message
    before its arguments, the exception's type), and says with the next one let through
    how many were left out meanwhile. While Redis or the broker is down, every request
    fails the same way: one traceback a minute says so as well as thousands would,
    without filling the disk."""

    def __init__(self, seconds: float = 60):
        super().__init__()
        self.seconds = seconds
        self.lock = threading.Lock()
        self.seen: dict[tuple, tuple[float, int]] = {}  # kind: (when let through, left out)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        kind = (record.name, str(record.msg), error)
        now = time.monotonic()
        with self.lock:
            last, left_out = self.seen.get(kind, (None, 0))
            if last is not None and now - last < self.seconds:
                self.seen[kind] = (last, left_out + 1)
                return False
            self.seen[kind] = (now, 0)
            if len(self.seen) > 1000:  # kinds are few; never let them grow unbounded
                self.seen = {kind: (now, 0)}
        if left_out:
            record.msg = f"{record.msg} [{left_out} more like this in the last {self.seconds:g} s]"
        return True

    def forget(self) -> None:
        with self.lock:
            self.seen.clear()
