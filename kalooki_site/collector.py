"""Python's cyclic garbage collector in the site's long-running processes (the web
workers, the Celery worker).

By default it runs after every 700 new objects and, now and then, walks every object
the process holds. A web process holds a national championship's documents (a
4,096-player standings list: about 100,000 objects) besides what it loaded at start
(modules, settings, URL patterns, compiled templates), so those walks were a large
part of building a new version's pages: in one process, reading the standings back
98 -> 26 ms, the leaderboard 104 -> 38 ms, its live region 158 -> 48 ms at the median
(`bench/new_version.py`; docs/benchmarks.md, "What a new version costs"). What the
process loaded at start is frozen out of its reach, and it runs after every
FIRST_GENERATION new objects. The test suite does the same (tests/conftest.py).
"""

from __future__ import annotations

import gc

FIRST_GENERATION = 50_000


def tune() -> None:
    """Freeze what this process holds now, and collect less often from here on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(FIRST_GENERATION, *gc.get_threshold()[1:])
