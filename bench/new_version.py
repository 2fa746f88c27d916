"""What one new standings version costs the site, at national scale: every document a
live page or the API needs again after a saved hand, built in one process, step by
step.

Not a test: it prints figures (docs/benchmarks.md, "What a new version costs"). On a
generated event (N players x 10 rounds, the last in play: the demo generator, made once
and reused), with Redis as the cache and production's cached templates, each step is
timed `--times` times (median and fastest, wall time) with what it reads already kept:

- the standings document built from the database (what a web process builds when the
  cache has no copy), and as the standings job now makes it once a rebuild commits,
  before announcing the version: from the rows the rebuild wrote, with no document of
  its own before (a worker's first rebuild) and after one hand (four rows changed, the
  rest and their tie notes taken from the document it made last);
- the same document read back from the cache (each web process, once per version);
- the leaderboard (the standings with the round's progress), from the cached document;
- the leaderboard's own part (the round's progress: what it adds to the standings, kept
  apart from them), and the first page as the rebuild now makes it from the document in
  hand before announcing the version (`public.views.keep_first_page`);
- the leaderboard read back from the cache (each web process, once per version: its
  own part and the standings document; the regions built at that version then share its
  copy, `public.live.BOARDS`);
- the leaderboard's live region, page 1 (a poll's 200), from the leaderboard read;
- a projector's page of 20 and of 40 rows (what a projector asks for: the page its
  screen holds), likewise;

with the size of each as kept in the cache. The collector is tuned as a web process
tunes it (`kalooki_site.collector`), unless `--default-collector`.

    BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench \\
        .venv/bin/python bench/new_version.py [--players 4096] [--times 7]

PostgreSQL runs the planner on what ANALYZE last saw: analyse the bench database after
generating the event where autovacuum is off.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from _setup import big_event, command_line, setup_django

CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")


def timed(label: str, step: Callable[[], object], times: int) -> None:
    took = []
    for _ in range(times):
        began = time.perf_counter()
        step()
        took.append((time.perf_counter() - began) * 1000)
    print(f"  {label:<58} median {statistics.median(took):6.0f} ms, fastest {min(took):6.0f} ms")


def rebuilt_rows(event):
    """The latest round, its rows as the rebuild writes them and the entries' players,
    read from the database as a rebuild of the standings as they are would make them."""
    from core.standings import rebuild
    from core.standings.selectors import standings_round
    from core.standings.stored import WRITTEN, StoredRow
    from scoring.models import Standing

    round_ = standings_round(event)
    wanted = {
        entry: StoredRow(*values)
        for entry, *values in Standing.objects.filter(round=round_).values_list(
            "entry_id", *WRITTEN
        )
    }
    return round_, wanted, rebuild.entries(event)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--times", type=int, default=7)
    parser.add_argument(
        "--default-collector",
        action="store_true",
        help="Python's collector as it starts (not as the web processes tune it)",
    )
    args = parser.parse_args()
    print(f"$ {command_line()}")
    os.environ.update(CACHE_URL=CACHE, DEBUG="0")
    setup_django()
    from django.contrib.auth.models import AnonymousUser
    from django.core.cache import cache
    from django.utils import translation

    from core import caching, selectors
    from core.standings import document
    from core.standings.boards import board_frame
    from core.standings.selectors import build_standings, standings_after
    from kalooki_site import collector
    from public import live
    from public.projector import projector_region
    from public.views import board_region, keep_first_page, region_name

    event = big_event(players=args.players, rounds=10, live=True)
    caching.reset()
    if not args.default_collector:
        collector.tune()  # as a web process does once loaded (kalooki_site/wsgi.py)
    translation.activate("en")
    event = live.public_event(AnonymousUser(), event.slug)
    print(
        f"{event.slug}: {args.players} players, standings version {event.standings_version}; "
        f"collector {'as Python starts' if args.default_collector else 'tuned'} "
        f"(threshold {gc.get_threshold()[0]:,}); load average {os.getloadavg()[0]:.2f}"
    )
    standings = standings_after(event)  # kept, as the standings job keeps it
    board = selectors.board(event)
    kept = {
        "standings": len(pickle.dumps(standings, pickle.HIGHEST_PROTOCOL)),
        "leaderboard (its own part; the standings are the document)": len(
            pickle.dumps(replace(board, standings=None), pickle.HIGHEST_PROTOCOL)
        ),
    }

    def region(name: str, build: Callable[[], str]) -> Callable[[], str]:
        def again() -> str:
            live.PAGES.clear()
            cache.delete(live.page_key(name))
            return build()

        return again

    print("one new version, step by step:")
    timed("standings document, from the database", lambda: build_standings(event, None), args.times)
    round_, wanted, players = rebuilt_rows(event)

    def first_rebuild():
        document.MADE.clear()
        return document.rebuilt_standings(event, round_, wanted, players)

    timed("standings document, from a first rebuild's rows", first_rebuild, args.times)
    hands = iter(range(10**6))

    def after_one_hand():
        hand = next(hands)
        changed = dict(wanted)
        for entry in list(wanted)[(hand * 4) % len(wanted) :][:4]:  # a table's four
            changed[entry] = wanted[entry]._replace(points=wanted[entry].points + hand + 1)
        return document.rebuilt_standings(event, round_, changed, players)

    document.rebuilt_standings(event, round_, wanted, players)
    timed("standings document, from a rebuild's rows after one hand", after_one_hand, args.times)
    raw = pickle.dumps(standings, pickle.HIGHEST_PROTOCOL)
    timed("standings document, read back (unpickled)", lambda: pickle.loads(raw), args.times)
    timed("leaderboard, from the kept standings", lambda: selectors.board(event), args.times)
    timed("leaderboard's own part (the round's progress)", lambda: board_frame(event), args.times)

    def first_page_by_rebuild():
        live.BOARDS.clear()
        live.PAGES.clear()
        cache.delete(live.board_key(event))
        cache.delete(live.page_key(region_name(event, 1)))
        keep_first_page(event, standings)

    timed("first page, made by the rebuild from its document", first_page_by_rebuild, args.times)

    def board_read_back():
        live.BOARDS.clear()
        return live.board(event)

    live.board(event)  # kept in the shared cache, as the first process to need it keeps it
    timed("leaderboard, read back (each process, once per version)", board_read_back, args.times)
    leaderboard = region(region_name(event, 1), lambda: board_region(event, 1, ""))
    timed("leaderboard's live region, page 1, from the leaderboard read", leaderboard, args.times)
    for rows in (20, 40):
        name = f"projector:{event.slug}:1:{rows}"
        page = region(name, lambda r=rows: projector_region(event, 1, r))
        timed(f"a projector's page of {rows} rows, likewise", page, args.times)
    kept["leaderboard region"] = len(board_region(event, 1, "").encode())
    kept["projector page, 20 rows"] = len(projector_region(event, 1, 20).encode())
    print("as kept: " + ", ".join(f"{k} {v / 1024:,.0f} KB" for k, v in kept.items()))


if __name__ == "__main__":
    main()
