"""Series standings rebuild: 20 legs of 256 players each (5,120 results) on PostgreSQL.

Builds (once, reused by later runs) a series of 20 finished legs whose fields are
drawn from a pool of 1,024 players, each leg with its final standings; then times the
series rebuild (read the legs' final places, rank with best-of-8, write the rows, bump
the version): best and median of N, with its query count.

    BENCH_DATABASE_URL=postgres://…/db .venv/bin/python bench/series.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _setup import command_line, setup_django

LEGS, FIELD, POOL = 20, 256, 1024
SLUG = f"bench-series-{LEGS}x{FIELD}"


def build():
    from datetime import date, timedelta

    from django.db import transaction

    from scoring.models import Standing
    from tournaments.models import Entry, Event, Player, Round, Series

    series = Series.objects.filter(slug=SLUG).first()
    if series is not None:
        return series
    started = time.perf_counter()
    rng = random.Random(18)
    with transaction.atomic():
        series = Series.objects.create(slug=SLUG, name=SLUG, best_of=8, qualifiers=64)
        pool = Player.objects.bulk_create([Player(name=f"S{i}") for i in range(POOL)])
        for leg in range(LEGS):
            event = Event.objects.create(
                slug=f"{SLUG}-leg-{leg + 1}",
                name=f"Leg {leg + 1}",
                starts_on=date(2027, 1, 1) + timedelta(days=14 * leg),
                rounds_planned=1,
                status=Event.Status.FINISHED,
                series=series,
            )
            round_ = Round.objects.create(event=event, number=1, status=Round.Status.CLOSED)
            field = rng.sample(pool, FIELD)
            entries = Entry.objects.bulk_create(
                [Entry(event=event, player=p, seed_number=i) for i, p in enumerate(field, 1)]
            )
            Standing.objects.bulk_create(
                [
                    Standing(event=event, round=round_, entry=e, rank=rank, points=rank * 10)
                    for rank, e in enumerate(entries, start=1)
                ]
            )
    print(f"built {SLUG} in {time.perf_counter() - started:.1f}s")
    return series


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    setup_django()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from core.series.standings import refresh_series_standings
    from scoring.models import SeriesStanding, Standing

    series = build()
    results = Standing.objects.filter(event__series=series).count()
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            refresh_series_standings(series=series)
        times.append(time.perf_counter() - started)
    players = SeriesStanding.objects.filter(series=series).count()
    print(f"$ {command_line()}")
    print(f"series {SLUG}: {LEGS} legs, {results} results, {players} players ranked")
    print(
        f"series standings rebuild: best {min(times) * 1000:.0f} ms, "
        f"median {statistics.median(times) * 1000:.0f} ms, {len(queries)} queries"
    )


if __name__ == "__main__":
    main()
