"""Copies kept inside one process, for `core.caching` (which offers them): each bounded
in entries and in bytes, weighed as it is kept (`approximate_bytes`)."""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from decimal import Decimal
from functools import partial
from itertools import islice
from typing import Any

_ALL_COPIES: list[ProcessCopies] = []

# What one kind of copy may hold in one process unless it says otherwise: a few of a
# national championship's biggest documents (a round's 1,024 tables: about 2 MB as
# kept; the standings API document and its gzip 1.3 MB), or a smaller event's every
# page. Copies of a version the standings have left are never read again and go only
# when newer ones push them out, so this is also what they may waste.
DEFAULT_BYTES = 16 * 2**20
# Items of a collection weighed by `approximate_bytes`, by depth: the rest are taken to
# weigh as much as those (a copy's items are alike: rows of one kind). A record (a
# short tuple, an object's attributes) is weighed whole.
SAMPLED = (8, 4, 2)
RECORD = 16
PLAIN = (str, bytes, bytearray, int, float, bool, type(None), Decimal)


def approximate_bytes(value: Any, depth: int = 0) -> int:
    """Roughly the memory `value` holds, what it refers to included: exact for bytes and
    strings; a collection's own size plus a few of its items weighed and scaled to all
    of them; a record's own size plus all its fields'. Objects shared between items are
    counted once per item, so the figure errs on the large side. Costs a few hundred
    `sys.getsizeof` calls at most, whatever the value's size."""
    if isinstance(value, int) and -5 <= value <= 256:
        return 0  # one object, shared by the whole process
    size = sys.getsizeof(value)
    if isinstance(value, PLAIN) or depth > 8:
        return size
    deeper = partial(approximate_bytes, depth=depth + 1)
    if isinstance(value, tuple) and len(value) <= RECORD:
        return size + sum(map(deeper, value))
    taken = SAMPLED[min(depth, len(SAMPLED) - 1)]
    if isinstance(value, dict):
        sample = list(islice(value.items(), taken))
        weighed = sum(deeper(key) + deeper(item) for key, item in sample)
    elif isinstance(value, list | tuple | set | frozenset):
        sample = list(islice(value, taken))
        weighed = sum(map(deeper, sample))
    else:
        fields = getattr(value, "__dict__", None)
        if fields is not None:  # a reference per field; the names are shared
            return size + 8 * len(fields) + sum(map(deeper, fields.values()))
        slots = [getattr(kind, "__slots__", ()) for kind in type(value).__mro__]
        names = {n for kind in slots for n in ((kind,) if isinstance(kind, str) else kind)}
        return size + sum(deeper(getattr(value, n)) for n in names if hasattr(value, n))
    return size + (weighed * len(value) // len(sample) if sample else 0)


class ProcessCopies:
    """A bounded store of copies kept by this process: at most `size` entries and about
    `max_bytes` of memory (`approximate_bytes`), the least recently kept going first,
    each for at most `ttl` seconds when one is given. A copy bigger than `max_bytes` on
    its own is not kept at all (the caller builds it, or reads the shared cache, again).

    `why` names what pays for it (a figure in docs/benchmarks.md): a copy that nothing
    measured pays for should not exist. Every instance is dropped by `reset()`. Safe
    for a web process's threads: every change holds the store's lock."""

    def __init__(
        self,
        name: str,
        *,
        size: int,
        why: str,
        ttl: float | None = None,
        max_bytes: int = DEFAULT_BYTES,
    ):
        self.name, self.size, self.ttl, self.why = name, size, ttl, why
        self.max_bytes = max_bytes
        self.bytes = 0  # what the entries kept now weigh, by `approximate_bytes`
        self.refused = 0  # copies too big to keep, since the process started
        self._kept: OrderedDict[Any, tuple[float, Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        _ALL_COPIES.append(self)

    def get(self, key: Any) -> Any:
        """The copy under `key`, or None if there is none (or it is too old)."""
        found = self._kept.get(key)
        if found is None:
            return None
        if found[0] and found[0] < time.monotonic():  # 0.0: kept with no lifetime
            with self._lock:
                if self._kept.get(key) is found:
                    self._drop(key)
            return None
        return found[1]

    def put(self, key: Any, value: Any, ttl: float | None = None) -> None:
        lifetime = ttl if ttl is not None else self.ttl
        expires = time.monotonic() + lifetime if lifetime is not None else 0.0
        weight = approximate_bytes(value)
        with self._lock:
            if key in self._kept:
                self._drop(key)
            if weight > self.max_bytes:
                self.refused += 1
                return
            self._kept[key] = (expires, value, weight)
            self.bytes += weight
            while len(self._kept) > self.size or self.bytes > self.max_bytes:
                self._drop(next(iter(self._kept)))

    def _drop(self, key: Any) -> None:
        self.bytes -= self._kept.pop(key)[2]

    def forget(self, key: Any) -> None:
        """Drop the copy under `key`, if there is one."""
        with self._lock:
            if key in self._kept:
                self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._kept)


def process_copies() -> list[ProcessCopies]:
    """Every kind of copy this process keeps (to say what each holds)."""
    return list(_ALL_COPIES)


def forget_process_copies() -> None:
    """Drop every copy this process keeps, leaving the shared cache as it is."""
    for copies in _ALL_COPIES:
        copies.clear()
