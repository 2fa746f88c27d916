"""Saving one hand on a 1,024-player event, request to response.

Not a test: it prints figures. A director signs in, then one hand of a table in the
event's live round is saved N times through the sheet's own endpoint (the HTMX POST
the page makes), alternating between two valid entries so that every save really
changes the hand (a correction, sent with the version just read). Printed: the median
and 95th percentile of the request time in ms, and the SQL queries per save, with the
same count on a 32-player event to show that it does not grow with the event.

Two modes, because the standings rebuild follows every save:
  queued  the request queues the Celery task and answers (production: a worker
          rebuilds the standings after the response);
  eager   the embedded default (no broker): the rebuild runs in the request.

    .venv/bin/python bench/save_hand.py [--saves 200] [--players 1024] [--rounds 10]

Runs on the database DATABASE_URL names (the project's SQLite file when unset); the
events `bench-1024` and `bench-32` are generated there once and reused.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings_test")
    os.environ.setdefault("LOG_LEVEL", "ERROR")  # not a line per eager Celery task
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def database() -> str:
    from django.db import connection

    settings = connection.settings_dict
    where = (
        settings["NAME"]
        if connection.vendor == "sqlite"
        else (f"{settings['HOST']}:{settings['PORT']}/{settings['NAME']}")
    )
    return f"{connection.vendor} ({where})"


def bench_event(players: int, rounds: int):
    """The generated event (its last round in play), made once and reused."""
    from core.demo import DemoOptions, generate_demo_event
    from tournaments.models import Event

    slug = f"bench-{players}"
    event = Event.objects.filter(slug=slug).first()
    if event is not None:
        return event, "reused"
    started = time.perf_counter()
    event = generate_demo_event(
        DemoOptions(players=players, rounds=rounds, seed=7, slug=slug, name=slug, live=True)
    )
    return event, f"generated in {time.perf_counter() - started:.1f}s"


def director_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    user.is_staff = user.is_superuser = True
    user.set_password("bench")
    user.save()
    client = Client()
    # Through the sign-in page, as a director signs in (django-axes checks each try).
    signed_in = client.post("/accounts/login/", {"username": "bench-director", "password": "bench"})
    assert signed_in.status_code == 302, "login failed"
    return client


def target(event):
    """A four-seat table of the live round and a hand number to save there."""
    from django.db.models import Count

    from core.selectors import hand_version
    from tournaments.models import Table

    round_ = event.rounds.order_by("-number").first()
    table = (
        Table.objects.filter(round=round_, locked=False)
        .annotate(n=Count("seats"))
        .filter(n=4)
        .order_by("number")
        .first()
    )
    url = f"/director/{event.slug}/rounds/{round_.number}/tables/{table.number}/hands/5/"
    return table, url, hand_version(table, 5)


ENTRIES = (
    {"seat1": "23", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"},
    {"seat1": "31", "seat2": "0", "seat3": "15", "seat4": "8", "went_out": "2"},
)


def save_many(client, table, url: str, version: int, saves: int) -> tuple[list[float], list[int]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from core.selectors import hand_version

    times, queries = [], []
    for i in range(saves):
        data = {**ENTRIES[i % 2], "version": str(version)}
        connection.queries_log.clear()  # it keeps at most 9,000: count from empty
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            took = time.perf_counter() - started
        if response.status_code != 200:
            raise SystemExit(f"save {i} answered {response.status_code}: {response.content[:300]}")
        version = hand_version(table, 5)
        times.append(took * 1000)
        queries.append(len(captured))
    return times, queries


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def run(client, event, saves: int, mode: str) -> tuple[list[float], list[int]]:
    from core import background

    table, url, version = target(event)
    warm = 5
    if mode == "queued":
        with mock.patch.object(background, "send") as queued:
            times, queries = save_many(client, table, url, version, saves + warm)
        # Every save after the first changes the hand, and so queues a rebuild (the
        # first may repeat what a previous run left there: a resend changes nothing).
        assert queued.call_count >= saves + warm - 1, "every change queues a rebuild"
    else:
        times, queries = save_many(client, table, url, version, saves + warm)
    return times[warm:], queries[warm:]


def describe(times: list[float], queries: list[int]) -> str:
    counts = sorted(set(queries))
    count = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return (
        f"median {statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms "
        f"(min {min(times):.1f}, max {max(times):.1f}); SQL queries per save: {count}"
    )


def size_of(event) -> str:
    from scoring.models import Hand, HandScore
    from tournaments.models import Table

    tables = Table.objects.filter(round__event=event).count()
    hands = Hand.objects.filter(table__round__event=event).count()
    scores = HandScore.objects.filter(hand__table__round__event=event).count()
    return f"{event.entries.count()} players, {tables} tables, {hands} hands, {scores} hand scores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    env = f"DATABASE_URL={os.environ['DATABASE_URL']} " if os.environ.get("DATABASE_URL") else ""
    print(f"$ {env}{Path(sys.executable).name} {' '.join(sys.argv)}")
    setup()
    print(f"database: {database()}")
    client = director_client()
    big, how = bench_event(args.players, args.rounds)
    small, small_how = bench_event(32, 3)
    print(f"{big.slug}: {size_of(big)} ({how})")
    print(f"{small.slug}: {size_of(small)} ({small_how})")
    print(f"saving hand 5 of one table in the live round, {args.saves} saves after 5 warm-up")
    results = {}
    for mode in ("queued", "eager"):
        for event in (big, small):
            results[mode, event.slug] = run(client, event, args.saves, mode)
    for mode, what in (
        ("queued", "standings task queued, as in production"),
        ("eager", "standings rebuilt inside the request: embedded default, no broker"),
    ):
        print(f"\n{mode}: {what}")
        for event in (big, small):
            print(f"  {event.slug:>10}: {describe(*results[mode, event.slug])}")
    big_q = set(results["queued", big.slug][1])
    small_q = set(results["queued", small.slug][1])
    verdict = "the same" if big_q == small_q else "DIFFERENT"
    print(f"\nqueries per save (queued), {big.slug} vs {small.slug}: {verdict}")


if __name__ == "__main__":
    main()
