"""Standings rebuild on a 1,024-player, 10-round event (92,160 hand scores) on PostgreSQL.

Prints: the time to rebuild the standings (service call, best and median of N), the
time of a bare SQL SUM ... GROUP BY over the same rows on the same database, their
ratio, and the peak memory of a real `celery worker` that runs the rebuild task.

    .venv/bin/python bench/standings.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from _setup import CELERY_WORKER, big_event, command_line, setup_django, start, stop

BARE_SQL = """
SELECT s.entry_id, r.number, t.number, SUM(hs.score), SUM(hs.penalty_points), COUNT(*)
FROM scoring_handscore hs
JOIN scoring_hand h ON h.id = hs.hand_id
JOIN tournaments_seat s ON s.id = hs.seat_id
JOIN tournaments_table t ON t.id = h.table_id
JOIN tournaments_round r ON r.id = t.round_id
WHERE r.event_id = %s AND h.outcome = 'scored'
GROUP BY s.entry_id, r.number, t.number
"""


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def vm_hwm_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM")


def worker_peak_memory(url: str, event_id: int) -> tuple[int, int, float]:
    """Start a real worker, run the task once through Redis, return (KiB before, KiB
    peak, seconds from send to finish)."""
    from django.db import connection
    from django.utils import timezone

    from core.background import STANDINGS
    from core.tasks import refresh_standings
    from scoring.models import DerivedState
    from tournaments.models import Event

    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": broker()}
    log = Path("/tmp/kalooki-bench-worker.log")
    worker = start(CELERY_WORKER, env, log)
    try:
        while "ready" not in log.read_text():
            time.sleep(0.2)
        before = vm_hwm_kib(worker.pid)
        version = Event.objects.get(pk=event_id).standings_version
        # Stale, as a change leaves them: a job for clean standings returns at once.
        DerivedState.objects.update_or_create(
            kind=STANDINGS, key=event_id, defaults={"dirty_since": timezone.now()}
        )
        started = time.perf_counter()
        refresh_standings.apply_async((event_id,))
        while Event.objects.get(pk=event_id).standings_version == version:
            time.sleep(0.05)
        took = time.perf_counter() - started
        connection.close()
        return before, vm_hwm_kib(worker.pid), took
    finally:
        stop(worker)


def broker() -> str:
    return os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/3"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"$ {command_line()}")
    # Tasks go to Redis (the worker measurement); the timed rebuilds call the service.
    os.environ.setdefault("CELERY_BROKER_URL", broker())
    url = setup_django()
    from django.db import connection

    from core.services import refresh_standings
    from core.standings.rebuild import set_records
    from scoring.models import HandScore

    event = big_event(1024, 10)
    rows = HandScore.objects.filter(hand__table__round__event=event).count()
    print(f"event {event.slug}: {event.entries.count()} players, {rows} hand scores")

    def bare():
        with connection.cursor() as cursor:
            cursor.execute(BARE_SQL, [event.pk])
            cursor.fetchall()

    def read_only():
        set_records(event, up_to=10)

    def rebuild():
        refresh_standings(event=event, full=True)  # every hand score (bench/faster.py: incremental)

    bare_times = timed(bare, args.runs)
    read_times = timed(read_only, args.runs)
    rebuild_times = timed(rebuild, args.runs)
    ms = lambda xs: f"best {min(xs) * 1000:.0f} ms, median {statistics.median(xs) * 1000:.0f} ms"  # noqa: E731
    print(f"bare SQL SUM ... GROUP BY:     {ms(bare_times)}")
    print(f"standings read query (ORM):    {ms(read_times)}")
    rows = event.entries.count()
    print(f"full rebuild (read, rank, write {rows} rows, bump version): {ms(rebuild_times)}")
    ratio = statistics.median(rebuild_times) / statistics.median(bare_times)
    print(f"rebuild / bare SQL (medians):  {ratio:.2f}x")
    before, peak, took = worker_peak_memory(url, event.pk)
    print(
        f"celery worker (solo pool): {before / 1024:.0f} MiB at rest, peak {peak / 1024:.0f} MiB "
        f"after the rebuild task; send-to-done {took * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
