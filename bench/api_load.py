"""API under load: gunicorn on PostgreSQL, a real Celery worker on Redis, concurrent
clients reading the standings and writing hands of a 1,024-player event.

Prints requests per second and the 50th/95th-percentile latency for the reads and
for the writes, measured in the same run. Traffic goes to 127.0.0.1 only; the run is
bounded in time.

    .venv/bin/python bench/api_load.py [--seconds 20] [--readers 6] [--writers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import threading
import time

from _setup import (
    CELERY_WORKER,
    big_event,
    command_line,
    setup_django,
    site_env,
    start,
    start_web,
    stop,
    wait_for_port,
)
from leaderboard import free_port

BROKER = "redis://127.0.0.1:6379/4"


class Client:
    def __init__(self, port: int, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        return response.status, response.read()


def summary(name: str, latencies: list[float], seconds: float, errors: int) -> str:
    if not latencies:
        return f"{name}: no requests"
    ordered = sorted(latencies)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    median = statistics.median(ordered)
    return (
        f"{name}: {len(latencies) / seconds:.1f} req/s, median {median * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms ({len(latencies)} requests, {errors} errors)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--readers", type=int, default=6)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--web-workers", type=int, default=4)
    args = parser.parse_args()
    print(f"$ {command_line()}")
    os.environ["CELERY_BROKER_URL"] = BROKER
    url = setup_django()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from core.services import refresh_standings
    from tournaments.models import Round

    event = big_event(1024, 10, live=True)
    refresh_standings(event=event)
    user, _ = get_user_model().objects.get_or_create(
        username="bench", defaults={"is_superuser": True}
    )
    token = Token.objects.get_or_create(user=user)[0].key
    live = Round.objects.get(event=event, number=10)
    tables = list(live.tables.order_by("number").values_list("number", flat=True))

    port = free_port()
    env = site_env(url, BROKER, "redis://127.0.0.1:6379/5")
    web = start_web(port, args.web_workers, env, "/tmp/kalooki-bench-gunicorn.log")
    worker = start(CELERY_WORKER, env, "/tmp/kalooki-bench-worker.log")
    try:
        wait_for_port(port)
        base = f"/api/v1/events/{event.slug}"
        seats_of = {}
        probe = Client(port, token)
        for t in tables:
            status, body = probe.call("GET", f"{base}/rounds/10/tables/{t}/")
            assert status == 200, (status, body[:200])
            seats_of[t] = [s["seat"] for s in json.loads(body)["seats"]]

        stop_at = time.monotonic() + args.seconds
        results = {"read": ([], [0]), "write": ([], [0])}
        lock = threading.Lock()

        def reader() -> None:
            client = Client(port, token)
            while time.monotonic() < stop_at:
                started = time.perf_counter()
                status, _ = client.call("GET", f"{base}/standings/")
                record("read", started, status == 200)

        def writer(index: int) -> None:
            client = Client(port, token)
            n = 0
            while time.monotonic() < stop_at:
                table = tables[(index * 37 + n) % len(tables)]
                seats = seats_of[table]
                number = n % 9 + 1
                body = {
                    "went_out": seats[0],
                    "scores": [{"seat": s, "points": 5 + (n + s) % 40} for s in seats[1:]],
                }
                started = time.perf_counter()
                status, _ = client.call(
                    "PUT", f"{base}/rounds/10/tables/{table}/hands/{number}/", body
                )
                record("write", started, status == 200)
                n += 1

        def record(kind: str, started: float, ok: bool) -> None:
            took = time.perf_counter() - started
            with lock:
                results[kind][0].append(took)
                if not ok:
                    results[kind][1][0] += 1

        threads = [threading.Thread(target=reader) for _ in range(args.readers)]
        threads += [threading.Thread(target=writer, args=(i,)) for i in range(args.writers)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - began
        print(
            f"{event.slug}: 1,024 players; gunicorn -w {args.web_workers} + 1 celery worker, "
            f"PostgreSQL, Redis; {args.readers} readers and {args.writers} writers "
            f"for {seconds:.0f}s"
        )
        print(
            summary(
                "GET standings (1,024 rows)", results["read"][0], seconds, results["read"][1][0]
            )
        )
        print(summary("PUT hand", results["write"][0], seconds, results["write"][1][0]))
    finally:
        stop(web)
        stop(worker)


if __name__ == "__main__":
    main()
