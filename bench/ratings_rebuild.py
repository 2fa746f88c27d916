"""What the ratings job costs: a full recomputation and the usual incremental run (one
round just closed) over many events' closed rounds, on the database BENCH_DATABASE_URL
names (PostgreSQL by default; see _setup.py).

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/ratings_rebuild.py \
        [--events 10] [--players 64] [--rounds 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from _setup import command_line, setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    setup_django()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from core.demo import DemoOptions, generate_demo_event
    from core.ratings.services import refresh_ratings
    from scoring.models import HandScore, PlayerRating, RatedRound
    from tournaments.models import Event

    for n in range(args.events):
        slug = f"bench-ratings-{args.players}-{args.rounds}-{n}"
        if not Event.objects.filter(slug=slug).exists():
            generate_demo_event(
                DemoOptions(players=args.players, rounds=args.rounds, seed=n, slug=slug, name=slug)
            )
    full, incremental = [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        refresh_ratings(full=True)
        full.append(time.perf_counter() - started)
        RatedRound.objects.order_by("-sequence").first().delete()  # as if it just closed
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            refresh_ratings()
            incremental.append(time.perf_counter() - started)
    rounds = RatedRound.objects.count()
    scores = HandScore.objects.filter(hand__table__round__rated__isnull=False).count()
    print(f"$ {command_line()}")
    print(
        f"{rounds} closed rounds rated ({scores} hand scores), "
        f"{PlayerRating.objects.count()} players rated, on {connection.vendor}"
    )
    print(
        f"full recomputation: best {min(full) * 1000:.0f} ms, "
        f"median {statistics.median(full) * 1000:.0f} ms"
    )
    print(
        f"one new round (incremental): best {min(incremental) * 1000:.0f} ms, median "
        f"{statistics.median(incremental) * 1000:.0f} ms, {len(queries)} queries"
    )


if __name__ == "__main__":
    main()
