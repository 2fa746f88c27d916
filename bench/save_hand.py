"""Saving one hand on a 1,024-player event, request to response, beside a trivial view.

Not a test: it prints figures. A director signs in, then one hand of a table in the
event's live round is saved N times through the sheet's own endpoint (the HTMX POST
the page makes), alternating between two valid entries so that every save really
changes the hand (a correction, sent with the version just read); after each, another
hand of the same table is saved through the API (PUT with If-Match), and the trivial
view (`/healthz`) is asked once with the same client, in the same process, so that the
three see the same machine at the same moment. Printed: the SQL queries per save, the
median and 95th percentile of each request's time in ms, and p95(save) / p95(trivial)
(the goal: at most 10x), with the same on a 32-player event to show that the save's
cost does not grow with the event.

With `--server`, the same three requests are also sent as a browser and an integrator
send them, through production's server (`manage.py run_processes --only web`: gunicorn,
production settings, the API's rate limits lifted but counted, as `bench/reads.py`
measures the reads), one after another on kept-alive connections from one client: the
director signed in through the sign-in page, the sheet's save with its CSRF token and
the HTMX header, the API's with a token; the standings jobs the saves queue go to a
broker no worker reads (flushed at the end). Printed as above, measured at the client.

Two modes, because the standings rebuild follows every save:
  queued  the request queues the Celery task and answers (production: a worker
          rebuilds the standings after the response);
  eager   the embedded default (no broker): the rebuild runs in the request (the
          sheet's save only).

    .venv/bin/python bench/save_hand.py [--saves 200] [--players 1024] [--rounds 10] [--server]

Runs on the database DATABASE_URL names (the project's SQLite file when unset; a
PostgreSQL database is created if missing); the events `bench-1024` and `bench-32` are
generated there once and reused.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

from _setup import big_event, create_database, site_env, stop

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings_test")
    os.environ.setdefault("LOG_LEVEL", "ERROR")  # not a line per eager Celery task
    sys.path.insert(0, str(ROOT))
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        create_database(url)
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
    return big_event(players, rounds, slug=f"bench-{players}", live=True)


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
    """A four-seat table of the live round, and the URLs of two of its hands: one saved
    from the sheet, the other through the API."""
    from django.db.models import Count

    from tournaments.models import Table

    round_ = event.rounds.order_by("-number").first()
    table = (
        Table.objects.filter(round=round_, locked=False)
        .annotate(n=Count("seats"))
        .filter(n=4)
        .order_by("number")
        .first()
    )
    sheet = f"/director/{event.slug}/rounds/{round_.number}/tables/{table.number}/hands/5/"
    api = f"/api/v1/events/{event.slug}/rounds/{round_.number}/tables/{table.number}/hands/6/"
    return table, sheet, api


ENTRIES = (
    {"seat1": "23", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"},
    {"seat1": "31", "seat2": "0", "seat3": "15", "seat4": "8", "went_out": "2"},
)
API_HANDS = (
    {"went_out": 2, "scores": [{"seat": 1, "points": 23}, {"seat": 3, "points": 9},
                               {"seat": 4, "points": 41}]},
    {"went_out": 3, "scores": [{"seat": 1, "points": 5}, {"seat": 2, "points": 18},
                               {"seat": 4, "points": 7}]},
)  # fmt: skip


def api_client():
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    user = get_user_model().objects.get(username="bench-director")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


WARM = 5  # rounds of saves sent before the measured ones


def answered(send) -> tuple[float, Any]:
    """`send()`'s answer and its time in ms (anything but a 200 ends the bench)."""
    started = time.perf_counter()
    response = send()
    took = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{response.status_code}: {response.content[:300]}")
    return took, response


def measured(send) -> tuple[float, int, float]:
    """One request in this process: its time in ms, its SQL statements (counted as they
    run: no debug cursor, which would slow the request it measures) and the ms spent in
    them (from the driver's call to its answer: the database's work and the round
    trip)."""
    from django.db import connection

    executed, waited = [0], [0.0]

    def counted(execute, sql, params, many, context):
        # As the query-count tests count: SQLite's BEGIN IMMEDIATE (no round trip; on
        # PostgreSQL the driver's BEGIN does not come through here) is left out.
        executed[0] += not sql.startswith("BEGIN")
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            waited[0] += time.perf_counter() - started

    with connection.execute_wrapper(counted):
        took = answered(send)[0]
    return took, executed[0], waited[0] * 1000


def timed(send) -> tuple[float, None, None]:
    """One request through the server: its time in ms at the client (its queries are
    another process's)."""
    return answered(send)[0], None, None


def save_many(table, saves: int, measure, sheet, api, trivial) -> dict[str, list]:
    """`saves` rounds, after WARM more, of: the sheet's save (`sheet(data)`), the API's
    (`api(body, if_match)`, when given), the trivial view (`trivial()`), each timed by
    `measure` ((ms, queries, ms in them), the last two None where not counted)."""
    from core.selectors import hand_version

    out: dict[str, list] = {
        name: [] for name in ("sheet", "sheet_q", "sheet_db", "api", "api_q", "api_db", "trivial")
    }

    def note(name: str, took: float, queries: int | None, in_database: float | None) -> None:
        out[name].append(took)
        if queries is not None:
            out[name + "_q"].append(queries)
            out[name + "_db"].append(in_database)

    for i in range(saves + WARM):
        data = {**ENTRIES[i % 2], "version": str(hand_version(table, 5))}
        note("sheet", *measure(lambda d=data: sheet(d)))
        if api is not None:
            version = f'"{hand_version(table, 6)}"'
            note("api", *measure(lambda b=API_HANDS[i % 2], v=version: api(b, v)))
        out["trivial"].append(measure(trivial)[0])
    return {name: values[WARM:] for name, values in out.items()}


def over_server(event, saves: int) -> dict[str, list]:
    """`run`'s queued mode through production's server, timed at the client (see the
    module's docstring)."""
    import redis
    import requests
    from _venue_clients import browser, signed_in
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from rest_framework.authtoken.models import Token
    from venue import serve

    url = os.environ["DATABASE_URL"]  # checked by main()
    broker = "redis://127.0.0.1:6379/14"  # no worker reads it: the queued jobs stay there
    env = site_env(url, broker, "redis://127.0.0.1:6379/15")
    env.update(SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0")
    env.update(LOG_LEVEL="WARNING")
    # The password as production's hasher keeps it (the test settings' is not among its).
    user = get_user_model().objects.get(username="bench-director")
    user.password = PBKDF2PasswordHasher().encode("bench", PBKDF2PasswordHasher().salt())
    user.save(update_fields=["password"])
    server, port = serve(env, "/tmp/kalooki-bench-save.log", web_workers=2, threads=8, only="web")
    base = f"http://127.0.0.1:{port}"
    try:
        director = browser()
        signed = signed_in(director, base, "bench-director", "bench")
        if signed.status_code != 302:
            raise SystemExit(f"login failed: {signed.status_code}")
        csrf = {"X-CSRFToken": director.cookies["csrftoken"], "HX-Request": "true"}
        integrator = requests.Session()
        key = Token.objects.get(user__username="bench-director").key
        integrator.headers["Authorization"] = f"Token {key}"
        table, sheet_url, api_url = target(event)
        return save_many(
            table,
            saves,
            timed,
            sheet=lambda data: director.post(base + sheet_url, data, headers=csrf, timeout=30),
            api=lambda body, version: integrator.put(
                base + api_url, json=body, headers={"If-Match": version}, timeout=30
            ),
            trivial=lambda: director.get(f"{base}/healthz", timeout=30),
        )
    finally:
        stop(server)
        redis.Redis.from_url(broker).flushdb()


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def run(client, api, event, saves: int, mode: str) -> dict[str, list]:
    from core import background

    table, sheet_url, api_url = target(event)
    sends = {
        "sheet": lambda data: client.post(sheet_url, data, HTTP_HX_REQUEST="true"),
        "api": lambda body, version: api.put(api_url, body, format="json", HTTP_IF_MATCH=version),
        "trivial": lambda: client.get("/healthz"),
    }
    if mode == "queued":
        with mock.patch.object(background, "send") as queued:
            out = save_many(table, saves, measured, **sends)
        # Every save after the first changes the hand, and so queues a rebuild (the
        # first may repeat what a previous run left there: a resend changes nothing).
        assert queued.call_count >= saves + WARM - 1, "every change queues a rebuild"
        return out
    return save_many(table, saves, measured, **{**sends, "api": None})


def counts(queries: list[int]) -> str:
    found = sorted(set(queries))
    return str(found[0]) if len(found) == 1 else f"{found[0]}-{found[-1]}"


def timing(times: list[float]) -> str:
    return f"p50 {statistics.median(times):6.1f} ms, p95 {p95(times):6.1f} ms"


def describe(out: dict[str, list]) -> list[str]:
    trivial = p95(out["trivial"])
    lines = [f"trivial view /healthz:      {timing(out['trivial'])}"]
    for name, what in (("sheet", "sheet's save (HTMX POST)"), ("api", "API's save (PUT)")):
        if out[name]:
            queries = (
                f"{counts(out[name + '_q']):>5} queries (in them: p50 "
                f"{statistics.median(out[name + '_db']):.1f} ms); "
                if out[name + "_q"]
                else ""
            )
            lines.append(
                f"{what + ':':<27} {timing(out[name])}, {queries}"
                f"p95 / trivial p95 = {p95(out[name]) / trivial:.1f}x"
            )
    return lines


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
    parser.add_argument("--server", action="store_true", help="through production's server too")
    args = parser.parse_args()
    if args.server and not os.environ.get("DATABASE_URL"):
        parser.error("--server: name the database in DATABASE_URL (the server reads it)")
    env = f"DATABASE_URL={os.environ['DATABASE_URL']} " if os.environ.get("DATABASE_URL") else ""
    print(f"$ {env}{Path(sys.executable).name} {' '.join(sys.argv)}")
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")
    setup()
    print(f"database: {database()}")
    client = director_client()
    api = api_client()
    big, small = bench_event(args.players, args.rounds), bench_event(32, 3)
    print(f"{big.slug}: {size_of(big)}")
    print(f"{small.slug}: {size_of(small)}")
    print(
        f"one table of the live round: hand 5 from the sheet, hand 6 through the API, then "
        f"/healthz; {args.saves} times after 5 warm-up"
    )
    results = {}
    for mode in ("queued", "eager"):
        for event in (big, small):
            results[mode, event.slug] = run(client, api, event, args.saves, mode)
    for mode, what in (
        ("queued", "standings task queued, as in production"),
        ("eager", "standings rebuilt inside the request: embedded default, no broker"),
    ):
        print(f"\n{mode}: {what}")
        for event in (big, small):
            print(f"  {event.slug}:")
            for line in describe(results[mode, event.slug]):
                print(f"    {line}")
    if args.server:
        print("\nthrough production's server (run_processes --only web: 2 processes of 8 threads):")
        print(f"  {big.slug}:")
        for line in describe(over_server(big, args.saves)):
            print(f"    {line}")
    for name in ("sheet_q", "api_q"):
        big_q = set(results["queued", big.slug][name])
        small_q = set(results["queued", small.slug][name])
        verdict = "the same" if big_q == small_q else "DIFFERENT"
        print(f"\nqueries per save ({name[:-2]}, queued), {big.slug} vs {small.slug}: {verdict}")
    print(f"load average after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
