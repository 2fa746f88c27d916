"""What ordering one row costs: a lookup by a unique key with `.first()` (ordered, by
the model's ordering or the key) beside `core.common.the_row` (the same query, no
ORDER BY), on a generated event.

Not a test: it prints figures. Each query is compiled and run N times in one process;
printed: the median and 95th percentile in ms, and the ratio of the medians. Django
5.2 compiles an ordered query by first making a lookup of every column it selects, so
the cost grows with the columns (an event's row with its annotations; a table's seats
with their table, round, event, entry and player).

    .venv/bin/python bench/one_row.py [--times 500]

Runs on the database BENCH_DATABASE_URL names (by default PostgreSQL, `kalooki_bench`); the
event `bench-32-3-live` is generated there once and reused.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _setup import big_event, command_line, setup_django


def timed(run, times: int) -> list[float]:
    for _ in range(10):
        run()
    took = []
    for _ in range(times):
        began = time.perf_counter()
        run()
        took.append((time.perf_counter() - began) * 1000)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--times", type=int, default=500)
    args = parser.parse_args()
    where = setup_django()
    from django.contrib.auth.models import AnonymousUser
    from django.db import transaction

    from core.common import the_row
    from core.events.access import published_here, visible_events
    from tournaments.models import Seat

    event = big_event(players=32, rounds=3, live=True)
    table = event.rounds.order_by("-number").first().tables.order_by("number").first()
    reader = AnonymousUser()

    def event_query():
        return (
            visible_events(reader).filter(slug=event.slug).annotate(published_here=published_here())
        )

    def seats_query():
        return (
            Seat.objects.select_for_update(of=("table",))
            .select_related("table__round__event", "entry__player")
            .filter(table=table)
        )

    def locked(read):
        def run():
            with transaction.atomic():
                read()

        return run

    cases = {
        "an event's row with its annotations": (
            lambda: event_query().first(),
            lambda: the_row(event_query()),
        ),
        "a table's seats with their event and players, locked": (
            locked(lambda: list(seats_query().order_by("position"))),
            locked(lambda: sorted(seats_query().order_by(), key=lambda s: s.position)),
        ),
    }
    print(f"$ {command_line()}")
    print(f"database: {where}; {args.times} times each\n")
    print("| query | ordered: median / p95 ms | unordered: median / p95 ms | unordered / ordered |")
    print("|---|---|---|---|")
    for name, (ordered, unordered) in cases.items():
        a, b = timed(ordered, args.times), timed(unordered, args.times)
        p95 = lambda xs: statistics.quantiles(xs, n=20)[-1]  # noqa: E731
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"| {name} | {ma:.2f} / {p95(a):.2f} | {mb:.2f} / {p95(b):.2f} | {mb / ma:.2f} |")


if __name__ == "__main__":
    main()
