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

Printed: requests per second for each read, its ratio to the trivial view (the median of
the rounds' ratios, each to the trivial view's rate in the same round; goals: the
leaderboard >= 0.9x, each standings read >= 0.6x), and the Redis commands each read
sends (from Redis's own command statistics: an anonymous standings read's count and
freshness check go in one pipelined round trip); then the web server's own CPU for
each request and its ratio to the trivial view's, which the machine's drift from round
to round (other tenants, its clock) moves far less than the rates.
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
from venue import cpu_seconds

HOST = "127.0.0.1"
BROWSER = {"Accept-Encoding": "gzip", "Accept-Language": "en"}
PROGRAM = {"Accept-Encoding": "gzip"}


def web_cpu(web: subprocess.Popen) -> float:
    """CPU seconds the web server (its master and workers) has taken so far."""
    return sum(cpu_seconds(web.pid).values())


def wrk(port: int, path: str, seconds: float, clients: int, headers: dict) -> tuple[float, int]:
    """Requests a second, and how many requests were answered."""
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
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return rate, int(re.search(r"(\d+) requests in", out).group(1))


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
        costs: dict[str, list[float]] = {name: [] for name in reads}  # web CPU ms a request
        for _ in range(args.rounds):
            for name, (path, headers) in reads.items():
                before = web_cpu(web)
                rate, answered = wrk(port, path, args.seconds, args.clients, headers)
                rates[name].append(rate)
                costs[name].append((web_cpu(web) - before) * 1000 / answered)
        print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    finally:
        stop(web)
        stop(redis)
    # Each read's ratio is taken to the trivial view's rate in the same round, and the
    # median of the rounds' ratios is the figure: the machine's speed drifts over a run
    # (other tenants, its clock), which a ratio of whole-run means would count.
    goals = {"leaderboard": 0.9}
    print("ratio: each round's rate over the trivial view's in that round; the median of them")
    for name, values in rates.items():
        ratios = [v / t for v, t in zip(values, rates["trivial"], strict=True)]
        ratio = statistics.median(ratios)
        goal = goals.get(name, 0.6 if name.startswith("api") else None)
        met = goal is not None and ratio >= goal
        verdict = "" if goal is None else f"   goal >= {goal}x: {'met' if met else 'not met'}"
        rounds = ", ".join(f"{v:.0f} ({r:.2f}x)" for v, r in zip(values, ratios, strict=True))
        mean = statistics.mean(values)
        print(f"{name:<16} {mean:7.0f} req/s  {ratio:5.2f}x  [{rounds}]{verdict}")
    # What the machine's drift moves least: the web server's own CPU for each request
    # (wrk and the kernel's share of the loopback aside), as the ratio of the trivial
    # view's to the read's, i.e. the rate each would have were the web's CPU the bound.
    print("web CPU a request (ms; the median of the rounds) and its ratio to the trivial view's")
    trivial_cost = statistics.median(costs["trivial"])
    for name, values in costs.items():
        cost = statistics.median(values)
        each = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:<16} {cost:6.3f} ms  {trivial_cost / cost:5.2f}x  [{each}]")


if __name__ == "__main__":
    main()
