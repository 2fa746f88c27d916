"""The goals of the incremental standings, the lean hand save and the cached reads, each
next to its baseline, measured in one run on one event.

Not a test: it prints figures (docs/benchmarks.md has them). On PostgreSQL, for an
event of N players x 10 rounds whose last round is in play (made once, reused):

1. standings: the bare SQL `SUM ... GROUP BY` over the event's hand scores (the floor
   of any full recomputation), the full rebuild, and the incremental rebuild after one
   hand is saved (the set totals that save kept, re-ranked, changed rows written);
2. hand save from the sheet (the HTMX POST, standings task queued as in production):
   SQL queries and p50/p95 in ms, next to the trivial view's p50/p95 (same process,
   same client);
3. reads under gunicorn (4 workers, Redis cache, production settings), loaded with
   wrk: the trivial view, the leaderboard (gzip), the standings API (gzip, whole list),
   one page of it, and a client revalidating with If-None-Match (304);
4. (--latency) a saved hand's way into the standings API: gunicorn + a real Celery
   worker, readers and writers of the API load benchmark running, and a probe that
   saves a hand on a table of its own and polls the API until that player's points
   show it: p50/p95 over the probes.

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/faster.py --players 1024 \
        [--runs 7] [--saves 100] [--seconds 8] [--latency]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from unittest import mock

from _setup import (
    CELERY_WORKER,
    ROOT,
    big_event,
    command_line,
    setup_django,
    site_env,
    start,
    start_web,
    stop,
    wait_for_port,
)
from leaderboard import free_port, load_wrk
from standings import BARE_SQL

HOST = "127.0.0.1"


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f} ms (best {min(values):.1f})"


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


# --- 1. standings --------------------------------------------------------------------


def live_table(event, *, last: bool = False):
    from django.db.models import Count

    from tournaments.models import Table

    round_ = event.rounds.order_by("-number").first()
    tables = (
        Table.objects.filter(round=round_, locked=False, closed_after_hand__isnull=True)
        .annotate(n=Count("seats"))
        .filter(n=4)
        .order_by("-number" if last else "number")
    )
    return tables.first()


def hand_entry(i: int):
    from game.rules import HandEntry, SeatEntry

    points = (23, 41, 8) if i % 2 else (31, 15, 9)
    scores = (SeatEntry(1, points[0]), SeatEntry(2, 0), SeatEntry(3, points[1]))
    return HandEntry(went_out=2, scores=(*scores, SeatEntry(4, points[2])))


def standings(event, runs: int) -> dict[str, list[float]]:
    from django.db import connection

    from core import services

    table = live_table(event)
    services.refresh_standings(event=event, full=True)  # the totals kept from here on

    def bare():
        with connection.cursor() as cursor:
            cursor.execute(BARE_SQL, [event.pk])
            cursor.fetchall()

    out = {"bare": [], "full": [], "incremental": []}
    for i in range(runs):  # interleaved, so a busy moment hits all three alike
        out["bare"].append(timed(bare))
        out["full"].append(timed(lambda: services.refresh_standings(event=event, full=True)))
        with mock.patch("core.background.send"):
            services.record_hand(table=table, number=5, entry=hand_entry(i))
        event.refresh_from_db()
        out["incremental"].append(timed(lambda: services.refresh_standings(event=event)))
    return out


# --- 2. hand save ----------------------------------------------------------------------

SHEET_ROWS = (
    {"seat1": "23", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"},
    {"seat1": "31", "seat2": "0", "seat3": "15", "seat4": "8", "went_out": "2"},
)
API_HANDS = (
    {"went_out": 2, "scores": [{"seat": 1, "points": 23}, {"seat": 3, "cards": "JK AS 10H 7D"},
                               {"seat": 4, "points": 41}]},
    {"went_out": 2, "scores": [{"seat": 1, "points": 31}, {"seat": 3, "points": 15},
                               {"seat": 4, "points": 8}]},
)  # fmt: skip


def saves(event, count: int) -> dict[str, list[float]]:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from core.selectors import hand_version

    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    user.is_staff = user.is_superuser = True
    user.save()
    client = Client()
    client.force_login(user)
    table = live_table(event)
    round_number = table.round.number
    url = f"/director/{event.slug}/rounds/{round_number}/tables/{table.number}/hands/6/"
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    api_url = f"/api/v1/events/{event.slug}/rounds/{round_number}/tables/{table.number}/hands/7/"
    out = {"save": [], "queries": [], "trivial": [], "api_save": [], "api_queries": []}
    executed: list[str] = []

    def counted(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    def measured(send) -> tuple[float, int]:
        executed.clear()
        with connection.execute_wrapper(counted):
            started = time.perf_counter()
            response = send()
            took = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, response.content[:300]
        return took, len(executed)

    with mock.patch("core.background.send"):  # the worker's part, not the request's
        for i in range(count + 5):
            data = {**SHEET_ROWS[i % 2], "version": str(hand_version(table, 6))}
            took, queries = measured(lambda d=data: client.post(url, d, HTTP_HX_REQUEST="true"))
            version = f'"{hand_version(table, 7)}"'
            body = API_HANDS[i % 2]
            api_took, api_queries = measured(
                lambda b=body, v=version: api.put(api_url, b, format="json", HTTP_IF_MATCH=v)
            )
            trivial = timed(lambda: Client().get("/healthz"))
            if i >= 5:
                out["save"].append(took)
                out["queries"].append(queries)
                out["api_save"].append(api_took)
                out["api_queries"].append(api_queries)
                out["trivial"].append(trivial)
    return out


# --- 3. reads with wrk ---------------------------------------------------------------


def reads(url: str, event, seconds: float, clients: int) -> dict[str, float]:
    env = site_env(url, "redis://127.0.0.1:6379/14", "redis://127.0.0.1:6379/15")
    env["LOG_LEVEL"] = "WARNING"
    env.pop("CELERY_BROKER_URL")  # no writes here
    subprocess.run(["redis-cli", "-n", "15", "FLUSHDB"], check=False, capture_output=True)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    web = start_web(port, 4, env, "/tmp/kalooki20-bench-gunicorn.log")
    api = f"/api/v1/events/{event.slug}/standings/"
    paths = {
        "trivial": "/healthz",
        "leaderboard": f"/events/{event.slug}/",
        "api": api,
        "api-page": api + "?limit=50&offset=100",
    }
    try:
        wait_for_port(port)
        etag = ""
        for name, path in paths.items():
            for _ in range(12):  # every worker warm, every cache filled
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
                response = conn.getresponse()
                body = response.read()
                assert response.status == 200, (path, response.status)
                if name == "api":
                    etag = response.getheader("ETag")
            print(f"  GET {path}: {response.status}, {len(body)} bytes gzip")
        out: dict[str, list[float]] = {name: [] for name in [*paths, "api-304"]}
        for _ in range(2):  # alternating rounds
            for name, path in paths.items():
                out[name].append(load_wrk(port, path, seconds, clients)[0])
            out["api-304"].append(load_304(port, api, etag, seconds, clients))
        return {name: statistics.mean(values) for name, values in out.items()}
    finally:
        stop(web)


def load_304(port: int, path: str, etag: str, seconds: float, clients: int) -> float:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{clients}", f"-d{max(1, round(seconds))}s",
         "-H", "Accept-Encoding: gzip", "-H", f"If-None-Match: {etag}",
         f"http://{HOST}:{port}{path}"],
        capture_output=True, text=True, timeout=seconds + 30, check=True,
    ).stdout  # fmt: skip
    import re

    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


# --- 4. latency ----------------------------------------------------------------------


def latency(url: str, event, seconds: float) -> list[float]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.models import Seat

    user, _ = get_user_model().objects.get_or_create(username="bench", is_superuser=True)
    token = Token.objects.get_or_create(user=user)[0].key
    probe_table = live_table(event, last=True)
    round_number = probe_table.round.number
    probe_player = Seat.objects.get(table=probe_table, position=1).entry.player_id
    writer_tables = [
        t.number
        for t in probe_table.round.tables.exclude(pk=probe_table.pk).order_by("number")[:40]
    ]
    broker = "redis://127.0.0.1:6379/14"
    subprocess.run(["redis-cli", "-n", "14", "FLUSHDB"], check=False, capture_output=True)
    env = site_env(url, broker, "redis://127.0.0.1:6379/15")
    env["LOG_LEVEL"] = "WARNING"
    port = free_port()
    web = start_web(port, 4, env, "/tmp/kalooki20-bench-gunicorn.log")
    worker = start(CELERY_WORKER, env, "/tmp/kalooki20-bench-worker.log")
    base = f"/api/v1/events/{event.slug}"
    headers = {
        "Authorization": f"Token {token}",
        "Content-Type": "application/json",
        "Accept-Encoding": "gzip",
    }

    def call(conn, method, path, body=None):
        conn.request(method, path, body=json.dumps(body) if body else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        return response.status, data

    def points(conn) -> int:
        status, data = call(conn, "GET", f"{base}/standings/")
        rows = json.loads(data)["standings"]
        return next(r["points"] for r in rows if r["player"]["id"] == probe_player)

    stop_at = time.monotonic() + seconds
    errors = [0]

    def reader():
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        while time.monotonic() < stop_at:
            status, _ = call(conn, "GET", f"{base}/standings/")
            errors[0] += status != 200

    def writer(index: int):
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        n = 0
        while time.monotonic() < stop_at:
            table = writer_tables[(index * 7 + n) % len(writer_tables)]
            body = {"went_out": 1, "scores": [{"seat": s, "points": 5 + (n + s) % 40}
                                              for s in (2, 3, 4)]}  # fmt: skip
            path = f"{base}/rounds/{round_number}/tables/{table}/hands/{n % 9 + 1}/"
            status, _ = call(conn, "PUT", path, body)
            errors[0] += status != 200
            n += 1

    found: list[float] = []
    try:
        wait_for_port(port)
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        hand = f"{base}/rounds/{round_number}/tables/{probe_table.number}/hands/7/"
        values = (12, 37)

        def probe_body(value):
            scores = [{"seat": 1, "points": value}, {"seat": 3, "points": 5}]
            return {"went_out": 2, "scores": [*scores, {"seat": 4, "points": 6}]}

        call(conn, "PUT", hand, probe_body(values[0]))
        time.sleep(3)  # that first save's rebuild done: the probe's points known from here
        threads = [threading.Thread(target=reader) for _ in range(4)]
        threads += [threading.Thread(target=writer, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        i = 1
        while time.monotonic() < stop_at - 3:
            before = points(conn)
            old, new = values[(i + 1) % 2], values[i % 2]
            started = time.perf_counter()
            status, _ = call(conn, "PUT", hand, probe_body(new))
            assert status == 200
            while points(conn) != before - old + new:
                if time.perf_counter() - started > 20:
                    raise RuntimeError("a saved hand did not reach the standings in 20 s")
                time.sleep(0.02)
            found.append((time.perf_counter() - started) * 1000)
            i += 1
            time.sleep(0.5)
        for thread in threads:
            thread.join()
    finally:
        stop(web)
        stop(worker)
    if errors[0]:
        print(f"  errors under load: {errors[0]}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--saves", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--latency", action="store_true")
    parser.add_argument("--latency-seconds", type=float, default=30)
    parser.add_argument("--skip", default="", help="comma-separated: standings,save,reads")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    url = setup_django()
    from scoring.models import HandScore

    event = big_event(args.players, 10, live=True)
    scores = HandScore.objects.filter(hand__table__round__event=event).count()
    print(f"event {event.slug}: {event.entries.count()} players, {scores} hand scores")
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    skip = set(args.skip.split(","))
    if "standings" not in skip:
        s = standings(event, args.runs)
        bare, full, inc = (statistics.median(s[k]) for k in ("bare", "full", "incremental"))
        print("1. standings")
        print(f"  bare SQL SUM ... GROUP BY:        {ms(s['bare'])}")
        print(f"  full rebuild (every hand score):  {ms(s['full'])} = {full / bare:.2f}x bare")
        print(f"  incremental after one saved hand: {ms(s['incremental'])} = {inc / bare:.2f}x")
    if "save" not in skip:
        v = saves(event, args.saves)
        q = sorted(set(v["queries"]))
        print("2. hand save from the sheet (task queued)")
        print(
            f"  save: p50 {statistics.median(v['save']):.1f} ms, p95 {p95(v['save']):.1f} ms; "
            f"queries {q[0] if len(q) == 1 else q}"
        )
        aq = sorted(set(v["api_queries"]))
        print(
            f"  API PUT: p50 {statistics.median(v['api_save']):.1f} ms, "
            f"p95 {p95(v['api_save']):.1f} ms; queries {aq[0] if len(aq) == 1 else aq}"
        )
        print(
            f"  trivial view: p50 {statistics.median(v['trivial']):.1f} ms, "
            f"p95 {p95(v['trivial']):.1f} ms; save p95 / trivial p95 = "
            f"{p95(v['save']) / p95(v['trivial']):.1f}x (API PUT: "
            f"{p95(v['api_save']) / p95(v['trivial']):.1f}x)"
        )
    if "reads" not in skip:
        print(f"3. reads: gunicorn -w 4, wrk -c{args.clients}, {args.seconds:g} s x 2 rounds")
        r = reads(url, event, args.seconds, args.clients)
        for name in ("trivial", "leaderboard", "api", "api-page", "api-304"):
            print(f"  {name:<12} {r[name]:8.0f} req/s   {r[name] / r['trivial']:.2f}x trivial")
    if args.latency:
        print(f"4. latency under the mixed load ({args.latency_seconds:g} s)")
        found = latency(url, event, args.latency_seconds)
        print(
            f"  saved hand -> standings API: p50 {statistics.median(found):.0f} ms, "
            f"p95 {p95(found):.0f} ms, max {max(found):.0f} ms ({len(found)} probes)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
