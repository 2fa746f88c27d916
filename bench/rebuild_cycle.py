"""One standings rebuild at national scale after a busy moment: what the standings job
does at each version while 256 tables enter hands on phones, timed whole.

Not a test: it prints figures (docs/benchmarks.md, "A national championship, eleventh
pass"). On a generated event of its own (N players x 10 rounds, the last in play: the
demo generator, made once and reused), with Redis as the cache (so the rebuild makes what it
makes in production: the standings document, the leaderboard's first page, the API's
whole list) and the collector tuned as the worker tunes it, `--times` times:

- `--tables` tables of the round in play each take one more hand (their four sets'
  totals move by a hand's scores, as the saves' own transactions move them), marked
  as a change of the standings;
- the standings job runs (`refresh_standings_job`, in this process): the rebuild, its
  commit, what it makes from the document, the announcement.

Printed: the job's wall time (median and fastest), the rows it wrote (the players
whose figures changed, and the players they passed, moved), and the time from the
rebuild's commit to its announcement (the part of the job a live page waits for);
with `--profile`, where the job's time goes (cProfile over the timed jobs, the
project's own functions, by cumulative time); with `--queries`, the SQL statements'
time (each as the database driver sends and answers it, grouped by its first words,
the costliest first, per job). Under the national championship's load
(`bench/national.py`) each step takes several times this.

    BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench \\
        .venv/bin/python bench/rebuild_cycle.py [--tables 20] [--times 9] [--profile] [--queries]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import re
import statistics
import time
from contextlib import nullcontext
from unittest import mock

from _setup import ROOT, big_event, command_line, setup_django

CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")
SCORES = (0, 0, 0, 5, 10, 15, 20, 25, 40, 60)  # a hand's, most players' small


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--tables", type=int, default=20, help="tables taking a hand each time")
    parser.add_argument("--times", type=int, default=9)
    parser.add_argument("--profile", action="store_true", help="where the timed jobs' time goes")
    parser.add_argument("--queries", action="store_true", help="the SQL statements' time")
    parser.add_argument("--top", type=int, default=40, help="lines of the profile")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    os.environ.update(CACHE_URL=CACHE, DEBUG="0")
    setup_django()
    from django.db import connection, transaction
    from django.db.models import F
    from django.db.models.functions import Least

    from core import background, caching, derived
    from core.standings import services
    from kalooki_site import collector
    from scoring.models import SetTotal
    from tournaments.models import Seat

    # Its own event: the totals moved here are not the hands' (no other bench reads them).
    event = big_event(args.players, 10, slug=f"bench-{args.players}-10-cycle", live=True)
    caching.reset()
    collector.tune()  # as the worker does once loaded (kalooki_site/celery.py)
    in_play = event.rounds.order_by("-number").first()
    tables: dict[int, list[int]] = {}
    for seat, table in Seat.objects.filter(round=in_play).values_list("pk", "table_id"):
        tables.setdefault(table, []).append(seat)
    chosen = random.Random(1)
    hands = event.rules.hand_count

    def a_busy_moment() -> None:
        with transaction.atomic():
            for table in chosen.sample(sorted(tables), args.tables):
                for seat in tables[table]:
                    SetTotal.objects.filter(seat_id=seat).update(
                        total=F("total") + chosen.choice(SCORES),
                        hands_played=Least(F("hands_played") + 1, hands),
                    )
            derived.changed(background.STANDINGS, event.pk)

    written: list[int] = []
    real_write = services.write_changed

    def counted(*a, **k):
        written.append(real_write(*a, **k))
        return written[-1]

    announced: list[float] = []  # ms from the rebuild's commit to its announcement
    real_keep = services.keep_rebuilt

    def keep_timed(event, round_, wanted, players, announce):
        committed = time.perf_counter()  # the job's commit hook runs as the rebuild commits

        def timed_announce() -> None:
            announced.append((time.perf_counter() - committed) * 1000)
            announce()

        real_keep(event, round_, wanted, players, timed_announce)

    statements: dict[str, list[float]] = {}

    def timed(execute, sql, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.setdefault(" ".join(sql.split()[:6])[:70], []).append(
                time.perf_counter() - began
            )

    took, profile = [], cProfile.Profile()
    with (
        mock.patch("core.background.after_commit"),  # the job runs here, not queued
        mock.patch.object(services, "write_changed", counted),
        mock.patch.object(services, "keep_rebuilt", keep_timed),
    ):
        a_busy_moment()
        services.refresh_standings_job(event.pk)  # this process's copies made once
        written.clear()
        announced.clear()
        for _ in range(args.times):
            a_busy_moment()
            began = time.perf_counter()
            if args.profile:
                profile.enable()
            with connection.execute_wrapper(timed) if args.queries else nullcontext():
                services.refresh_standings_job(event.pk)
            profile.disable()
            took.append((time.perf_counter() - began) * 1000)
    print(
        f"{event.slug}: {args.players} players; {args.tables} tables take a hand before each "
        f"rebuild; load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"  the standings job, end to end: median {statistics.median(took):.0f} ms, "
        f"fastest {min(took):.0f} ms ({args.times} rebuilds)"
    )
    print(f"  rows written per rebuild: median {statistics.median(written):.0f}")
    print(
        f"  its commit to its announcement (what the pages wait for): median "
        f"{statistics.median(announced):.0f} ms, fastest {min(announced):.0f} ms"
    )
    if args.queries:
        total = sum(sum(times) for times in statements.values()) / args.times
        print(f"  SQL statements: {total * 1000:.1f} ms a job; the costliest:")
        for said, times in sorted(statements.items(), key=lambda item: -sum(item[1]))[:8]:
            print(
                f"    {sum(times) / args.times * 1000:6.1f} ms a job, "
                f"{len(times) / args.times:4.1f} a job: {said}"
            )
    if args.profile:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
        ours = re.escape(str(ROOT)) + "/(api|core|kalooki_site|public|scoring|tournaments)/"
        stats.print_stats(ours, args.top)
        print(f"\nprofile of {args.times} jobs, the project's functions, by cumulative time:")
        print(out.getvalue().split("\n\n", 2)[-1])


if __name__ == "__main__":
    main()
