"""Public leaderboard throughput on a 1,024-player, 10-round event, under gunicorn.

Not a test. Makes (or reuses) the event on PostgreSQL, builds its standings once,
starts gunicorn on 127.0.0.1 (4 sync workers, Redis cache, production settings), then
loads, each for the same bounded time and count and with the same client:

- the trivial view (/healthz, "ok"), the server's ceiling;
- the leaderboard page as a phone asks for it (/events/<slug>/, gzip accepted);
- the leaderboard's live poll when nothing changed (204 from one cache hit);

in alternating rounds, and prints requests per second for each and the ratio of the
leaderboard to the trivial view. The load comes from a thread pool of `http.client`
connections on loopback (or `wrk`, with --wrk, when it is installed).

    .venv/bin/python bench/leaderboard.py [--seconds 8] [--rounds 2] [--clients 8]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _setup import ROOT, big_event, command_line, setup_django

HOST = "127.0.0.1"
MAX_REQUESTS = 200_000  # per measurement, whatever the duration
HEADERS = {"Accept-Encoding": "gzip", "User-Agent": "kalooki-bench"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def server_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="kalooki_site.settings",
        DEBUG="0",
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url,
        CACHE_URL=os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/2"),
        LOG_LEVEL="WARNING",
    )
    env.pop("CELERY_BROKER_URL", None)
    return env


def get(port: int, path: str) -> tuple[int, int]:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path, headers=HEADERS)
        response = conn.getresponse()
        body = response.read()
        return response.status, len(body)
    finally:
        conn.close()


def load(port: int, path: str, seconds: float, clients: int) -> tuple[float, int, int]:
    """Requests per second for `path`: `clients` threads, each a request after another,
    for `seconds` or MAX_REQUESTS in all. Returns (rps, requests, failures)."""
    stop = time.perf_counter() + seconds
    lock = threading.Lock()
    counts = {"done": 0, "failed": 0}

    def client() -> None:
        while time.perf_counter() < stop:
            with lock:
                if counts["done"] >= MAX_REQUESTS:
                    return
            try:
                status, _ = get(port, path)
                ok = status in (200, 204)
            except OSError:
                ok = False
            with lock:
                counts["done" if ok else "failed"] += 1

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        for _ in range(clients):
            pool.submit(client)
    took = time.perf_counter() - started
    return counts["done"] / took, counts["done"], counts["failed"]


def load_wrk(port: int, path: str, seconds: float, clients: int) -> tuple[float, int, int]:
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{clients}",
            f"-d{max(1, round(seconds))}s",
            "-H",
            "Accept-Encoding: gzip",
            f"http://{HOST}:{port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    done = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, done, int(bad.group(1)) if bad else 0


def wait_until_up(port: int, server: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited; see /tmp/kalooki-bench-gunicorn.log")
        try:
            if get(port, "/healthz")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds")
    parser.add_argument("--clients", type=int, default=8, help="concurrent connections")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--wrk", action="store_true", help="load with wrk (must be installed)")
    args = parser.parse_args()
    if args.wrk and not shutil.which("wrk"):
        sys.exit("--wrk: wrk is not installed (apt-get install wrk)")
    print(f"$ {command_line()}")

    url = setup_django()
    from django.db.models import Count

    from core.services import refresh_standings
    from tournaments.models import Event

    event = big_event(1024, 10)
    version = refresh_standings(event=event)
    event = Event.objects.annotate(players=Count("entries")).get(pk=event.pk)
    print(
        f"event {event.slug}: {event.players} players, {event.rounds_planned} rounds, "
        f"standings version {version}"
    )

    env = server_env(url)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        ["redis-cli", "-u", env["CACHE_URL"], "FLUSHDB"], check=False, capture_output=True
    )
    port = free_port()
    gunicorn = [
        str(Path(sys.executable).parent / "gunicorn"),
        "kalooki_site.wsgi",
        "-w",
        str(args.workers),
        "-b",
        f"{HOST}:{port}",
        "--access-logfile",
        "/dev/null",
    ]
    print(
        f"$ {' '.join(gunicorn)}  (DEBUG=0, CACHE_URL={env['CACHE_URL']}, "
        f"DATABASE_URL={url.rsplit('@', 1)[-1]})"
    )
    with open("/tmp/kalooki-bench-gunicorn.log", "w") as log:
        server = subprocess.Popen(
            gunicorn,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_until_up(port, server)
            measure(port, args, event.slug, f"v={version}&s={event.screen_version}")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(20)


def measure(port: int, args: argparse.Namespace, slug: str, versions: str) -> None:
    board = f"/events/{slug}/"
    poll = f"/events/{slug}/live/?{versions}"
    for path, expected in ((board, 200), (poll, 204), ("/healthz", 200)):
        for _ in range(args.workers * 2):  # warm every worker and the cache
            status, size = get(port, path)
            assert status == expected, (path, status)
        print(f"GET {path}: {status}, {size} bytes (gzip accepted)")
    runner = load_wrk if args.wrk else load
    client = (
        f"wrk, {args.clients} connections"
        if args.wrk
        else f"{args.clients} Python threads, http.client, a new connection per request"
    )
    print(
        f"load: {client}; {args.seconds:g} s (at most {MAX_REQUESTS} requests) per "
        f"measurement, {args.rounds} alternating rounds"
    )
    print(f"machine load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    results: dict[str, list[float]] = {"trivial": [], "leaderboard": [], "poll": []}
    failures = 0
    for _ in range(args.rounds):
        for name, path in (("trivial", "/healthz"), ("leaderboard", board), ("poll", poll)):
            rps, _done, failed = runner(port, path, args.seconds, args.clients)
            results[name].append(rps)
            failures += failed
    print(f"machine load average after:  {os.getloadavg()[0]:.2f}")
    mean = {name: statistics.mean(values) for name, values in results.items()}
    for name, label in (
        ("trivial", "trivial view /healthz"),
        ("leaderboard", f"leaderboard {board}"),
        ("poll", "live poll, unchanged (204)"),
    ):
        each = ", ".join(f"{v:.0f}" for v in results[name])
        print(f"{label:<42} {mean[name]:8.0f} req/s   (rounds: {each})")
    print(f"leaderboard / trivial: {mean['leaderboard'] / mean['trivial']:.2f}")
    print(f"poll / trivial:        {mean['poll'] / mean['trivial']:.2f}")
    if failures:
        print(f"failed requests: {failures}")


if __name__ == "__main__":
    main()
