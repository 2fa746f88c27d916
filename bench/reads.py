"""Reads at the cache's speed: the public leaderboard and the standings API (the whole
list, one page, and a revalidation answered 304) against the trivial view, side by
side on one server, with the API's throttles on (only their limits lifted: every
request is still counted).

Not a test: it prints figures (docs/benchmarks.md). On PostgreSQL, an event of N
players x 10 rounds (made once by the demo generator and reused), gunicorn with 4
workers and production settings on a Redis cache, loaded with wrk (gzip accepted;
the pages with a browser's Accept-Language) in alternating rounds:

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/reads.py --players 1024 \\
        [--seconds 6] [--rounds 3] [--clients 8]

Printed: requests per second for each read, its ratio to the trivial view (goals: the
leaderboard >= 0.9x, each standings read >= 0.6x), and the Redis commands each read
sends (from Redis's own command statistics: an anonymous standings read's count and
freshness check go in one pipelined round trip).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys

from _setup import big_event, command_line, setup_django, site_env, start_web, stop, wait_for_port
from leaderboard import free_port

HOST = "127.0.0.1"
BROWSER = {"Accept-Encoding": "gzip", "Accept-Language": "en"}
PROGRAM = {"Accept-Encoding": "gzip"}


def wrk(port: int, path: str, seconds: float, clients: int, headers: dict) -> float:
    args = ["wrk", "-t2", f"-c{clients}", f"-d{max(1, round(seconds))}s"]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*args, f"http://{HOST}:{port}{path}"],
        capture_output=True, text=True, timeout=seconds + 30, check=True,
    ).stdout  # fmt: skip
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if bad and path.endswith("/") and "If-None-Match" not in headers:
        raise RuntimeError(f"{path}: {bad.group(1)} failed requests")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def get(port: int, path: str, headers: dict) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def private_redis() -> tuple[subprocess.Popen, str]:
    """A redis-server of the bench's own (nothing on disk), so that its command count
    is the site's alone."""
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for_port(port)
    return server, f"redis://{HOST}:{port}/0"


def redis_commands(cache: str) -> int:
    out = subprocess.run(
        ["redis-cli", "-u", cache, "INFO", "stats"], capture_output=True, text=True, check=True
    ).stdout
    return int(re.search(r"total_commands_processed:(\d+)", out).group(1))


def commands_per_read(cache: str, port: int, path: str, headers: dict, count: int = 200) -> float:
    before = redis_commands(cache)
    for _ in range(count):
        get(port, path, headers)
    return (redis_commands(cache) - before - 1) / count  # less the INFO itself


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    print(f"$ {command_line()}")
    url = setup_django()
    from core.services import refresh_standings

    event = big_event(args.players, 10)
    refresh_standings(event=event)
    redis, cache = private_redis()
    env = site_env(url, "", cache)
    env.pop("CELERY_BROKER_URL")
    env["LOG_LEVEL"] = "WARNING"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True)
    port = free_port()
    web = start_web(port, 4, env, "/tmp/kalooki-bench-reads.log")
    api = f"/api/v1/events/{event.slug}/standings/"
    reads = {
        "trivial": ("/healthz", PROGRAM),
        "leaderboard": (f"/events/{event.slug}/", BROWSER),
        "api whole list": (api, PROGRAM),
        "api one page": (api + "?limit=50&offset=100", PROGRAM),
    }
    try:
        wait_for_port(port)
        for path, headers in reads.values():
            for _ in range(16):  # every worker warm, every copy made
                response = get(port, path, headers)
                assert response.status == 200, (path, response.status)
            print(f"GET {path}: {response.status}, {len(response.body)} bytes gzip")
        etag = get(port, api, PROGRAM).getheader("ETag")
        reads["api 304"] = (api, {**PROGRAM, "If-None-Match": etag})
        assert get(port, api, reads["api 304"][1]).status == 304
        print("Redis commands per read (sent in one pipelined round trip where > 1):")
        for name, (path, headers) in reads.items():
            print(f"  {name:<16} {commands_per_read(cache, port, path, headers):.2f}")
        print(f"load: wrk -t2 -c{args.clients}, {args.seconds:g} s each, {args.rounds} rounds")
        print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        rates: dict[str, list[float]] = {name: [] for name in reads}
        for _ in range(args.rounds):
            for name, (path, headers) in reads.items():
                rates[name].append(wrk(port, path, args.seconds, args.clients, headers))
        print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    finally:
        stop(web)
        stop(redis)
    trivial = statistics.mean(rates["trivial"])
    goals = {"leaderboard": 0.9}
    for name, values in rates.items():
        mean = statistics.mean(values)
        goal = goals.get(name, 0.6 if name.startswith("api") else None)
        met = goal is not None and mean / trivial >= goal
        verdict = "" if goal is None else f"   goal >= {goal}x: {'met' if met else 'not met'}"
        rounds = ", ".join(f"{v:.0f}" for v in values)
        print(f"{name:<16} {mean:7.0f} req/s  {mean / trivial:5.2f}x  ({rounds}){verdict}")


if __name__ == "__main__":
    main()
