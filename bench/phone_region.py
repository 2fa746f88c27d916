"""What one phone poll costs when it brings the players' entry region again, at
national scale: the live region of one table's entry page, built again on every
request, beside the public leaderboard and `/healthz`, in one process.

Not a test: it prints figures (docs/benchmarks.md). On a generated event (N players x
10 rounds, the last in play: the demo generator, made once and reused), a player of a
table halfway through its set in the last round signs in with their code, as the QR code on
their slip does, with Django's test Client against the real views and a Redis cache.
Before each of the region's requests the table's entry stamp changes (as a hand
entered there changes it, `core.stamps.touch_table`), and the phone polls with the
signature its last answer gave: each poll is answered 200 with the region built
again, never 204. "The same, another phone first" times it when another phone at the
table (the next seat's) asked after the change first, untimed, as three of a table's
four phones do: the table's hands and entries it read are kept for them
(`core.stamps.table_rows`). The requests take turns (`--rounds`), so a machine shared
with other work weighs on each alike. Printed: median and 95th percentile in ms of each request's
wall time and the median of this process's CPU time (the database's is not in it), the SQL
queries of one region request (with their time), and with `--profile` where the region's
time goes (cProfile over the loop, sorted by cumulative and by own time), for the first
phone asking after a change (`first`, the default) or another (`other`).

    BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench \\
        .venv/bin/python bench/phone_region.py [--players 4096] [--times 200] [--rounds 3] \\
        [--profile [first|other]]

The cache is Redis (BENCH_CACHE_URL, by default redis://127.0.0.1:6379/13, emptied at
the start), as in production; PostgreSQL runs the planner on what ANALYZE last saw, so
analyse the bench database after generating the event where autovacuum is off.
"""

from __future__ import annotations

import argparse
import cProfile
import html
import io
import os
import pstats
import re
import statistics
import time

from _setup import big_event, command_line, setup_django

CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")
POLL_URL = re.compile(r'hx-get="([^"]*/enter/live/[^"]*)"')


def figures(took: list[tuple[float, float]]) -> str:
    """Wall time's median and 95th percentile, and this process's CPU time's median."""
    ordered = sorted(wall for wall, _ in took)
    p95 = ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]
    cpu = statistics.median(used for _, used in took)
    return (
        f"median {statistics.median(ordered):6.2f} ms, p95 {p95:6.2f} ms, "
        f"CPU median {cpu:6.2f} ms (n={len(ordered)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--times", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="each request's turns, interleaved")
    parser.add_argument(
        "--profile",
        nargs="?",
        const="first",
        choices=("first", "other", "page"),
        help="cProfile the region's loop (the first phone asking after a change, or another) "
        "or the whole page's (as a phone loads it after its proposal or confirmation)",
    )
    parser.add_argument("--top", type=int, default=30, help="lines of each profile table")
    parser.add_argument("--only", default="", help="profile lines whose file matches this")
    args = parser.parse_args()
    os.environ["CACHE_URL"] = CACHE
    where = setup_django()
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from core import caching
    from core.caching import stamps
    from tournaments.models import PlayerCode, Round, Seat

    event = big_event(players=args.players, rounds=10, live=True)
    caching.reset()
    round_ = event.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    half = event.rules.hand_count // 2  # a table halfway through its set
    tables = round_.tables.annotate(recorded=Count("hands")).order_by("number")
    table = tables.filter(recorded=half).first() or tables[len(tables) // 2]
    seat = Seat.objects.filter(table=table).order_by("position").first()
    code = PlayerCode.objects.get(round=round_, entry_id=seat.entry_id).code
    entry = f"/events/{event.slug}/rounds/{round_.number}/tables/{table.number}/enter/"
    stamp = stamps.table_key(event.slug, round_.number, table.number)

    phone = Client()
    signed_in = phone.get(f"{entry}?code={code}")
    assert signed_in.status_code == 302, signed_in.status_code
    page = phone.get(entry)
    assert page.status_code == 200, page.status_code
    poll = [html.unescape(POLL_URL.search(page.content.decode()).group(1))]
    touches = iter(range(1, 10**9))

    # Another phone at the table (the next seat's player), asking first after each
    # change: what it read is kept for the others (`core.stamps.table_rows`).
    neighbour = Client()
    second = Seat.objects.filter(table=table, position__gt=seat.position).order_by("position")
    other = PlayerCode.objects.get(round=round_, entry_id=second.first().entry_id).code
    assert neighbour.get(f"{entry}?code={other}").status_code == 302
    assert neighbour.get(entry).status_code == 200

    def ask(client, url: str) -> str:
        answer = client.get(url)
        assert answer.status_code == 200, answer.status_code
        found = POLL_URL.search(answer.content.decode())
        return html.unescape(found.group(1)) if found else url

    def touch() -> None:
        caching.cache.set(stamp, f"bench{next(touches)}", caching.ANNOUNCED_TTL)

    def region_again() -> None:
        poll[0] = ask(phone, poll[0])

    def region() -> None:
        touch()
        region_again()

    def after_neighbour() -> None:  # untimed: the change, and the first phone's poll
        touch()
        ask(neighbour, f"{entry}live/")

    def whole_page() -> None:  # as the phone that proposed or confirmed loads it
        touch()
        assert phone.get(entry).status_code == 200

    reader = Client()

    def leaderboard() -> None:
        assert reader.get(f"/events/{event.slug}/").status_code == 200

    def leaderboard_poll() -> None:  # v=0: the leaderboard's region again
        assert reader.get(f"/events/{event.slug}/live/?v=0").status_code == 200

    def healthz() -> None:
        assert reader.get("/healthz").status_code == 200

    def timed(run, times: int, before=None) -> list[tuple[float, float]]:
        for _ in range(10):
            if before is not None:
                before()
            run()
        took = []
        for _ in range(times):
            if before is not None:
                before()
            began, used = time.perf_counter(), time.process_time()
            run()
            wall, cpu = time.perf_counter() - began, time.process_time() - used
            took.append((wall * 1000, cpu * 1000))
        return took

    print(f"$ {command_line()}")
    print(
        f"database {where.rsplit('/', 1)[-1]}, cache {CACHE}; event {event.slug}: "
        f"{event.entries.count()} players, round {round_.number} in play, "
        f"table {table.number} of {round_.tables.count()} ({table.recorded} hands recorded), "
        "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    cases = {
        "players' entry region (200)": (region, None),
        "the same, another phone first": (region_again, after_neighbour),
        "the whole page, after a change": (whole_page, None),
        "leaderboard page": (leaderboard, None),
        "leaderboard poll, v=0 (200)": (leaderboard_poll, None),
        "/healthz": (healthz, None),
    }
    for turn in range(1, args.rounds + 1):
        for name, (run, before) in cases.items():
            print(f"{turn}. {name:30} {figures(timed(run, args.times, before))}")

    queries: list[tuple[float, str]] = []

    def clocked(execute, sql, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append(((time.perf_counter() - began) * 1000, sql))

    with connection.execute_wrapper(clocked):
        region()
    total = sum(took for took, _ in queries)
    print(f"\nSQL queries of one region request: {len(queries)} ({total:.1f} ms in the database)")
    for took, sql in queries:
        print(f"  {took:6.2f} ms  {sql[:150]}")

    if args.profile:
        run, before = cases[
            {
                "first": "players' entry region (200)",
                "other": "the same, another phone first",
                "page": "the whole page, after a change",
            }[args.profile]
        ]
        profile = cProfile.Profile()
        for _ in range(args.times):
            if before is not None:
                before()
            profile.enable()
            run()
            profile.disable()
        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out).sort_stats(order)
            stats.print_stats(*([args.only] if args.only else []), args.top)
            print(f"\nprofile of {args.times} requests ({args.profile}), by {order}:")
            print(out.getvalue().split("\n\n", 2)[-1])


if __name__ == "__main__":
    main()
