"""Memory of a web process and of a worker, on a national championship's event.

Not a test. Makes (or reuses) a 4,096-player, 10-round event whose last round is in
play, on PostgreSQL, and starts the site as production runs it: gunicorn (`--threads`
per worker, as `manage.py run_processes` starts it), a real Celery worker, Redis for
the cache and the broker.

1. Web: `--clients` threads read the event's pages in a loop for `--minutes` (the
   leaderboard and its pages, its live poll, the rounds, tables, player pages, the
   projector, the standings API whole and paged, the players' entry pages, in the
   three languages), while a writer saves a hand every `--save-every` seconds through
   the API, so the standings version (and every versioned copy) keeps changing. Each
   read comes on a new connection, so the web workers share them (`--keep-alive`: one
   connection per reader, which may leave one worker serving them all). Each
   gunicorn worker's resident memory (VmRSS in /proc/<pid>/status) is sampled every
   10 s; printed: after warm-up (`--warm-up` minutes), at the end, and the growth.
2. Worker: a fresh Celery worker runs `--rebuilds` standings rebuilds of the event
   (save a hand, wait for the rebuild to commit, repeat); its VmRSS after each. Printed:
   after warm-up (`--warm-up-rebuilds`), at the end, and the growth.

The bound held: growth after warm-up under `--bound` percent (default 5).

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/memory.py [--minutes 10]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import statistics
import threading
import time
from collections import Counter
from pathlib import Path

from _setup import (
    CELERY_WORKER,
    big_event,
    command_line,
    setup_django,
    site_env,
    start,
    stop,
    wait_for_port,
)
from leaderboard import free_port

BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/10")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/11")
SAMPLE_SECONDS = 10
LANGUAGES = ("en", "en", "en", "ru", "fa")  # most readers read English
WEB_LOG = "/tmp/kalooki-bench-memory-gunicorn.log"
WORKER_LOG = "/tmp/kalooki-bench-memory-worker.log"


def rss_kib(pid: int) -> int | None:
    """The process's resident memory in KiB, or None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return sorted(found)


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


class Client:
    """One keep-alive connection, or with `fresh` a new one for each request (so each
    is accepted by whichever web worker takes it first, as many readers' would be);
    answers read to the end."""

    def __init__(self, port: int, token: str | None = None, fresh: bool = False):
        self.port, self.token, self.fresh = port, token, fresh
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body=None, language: str = "en") -> tuple[int, int]:
        headers = {"Accept-Encoding": "gzip", "Accept-Language": language}
        if self.fresh:
            self.conn.close()
            headers["Connection"] = "close"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        for _attempt in range(2):  # a connection the server closed while idle: once more
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                return response.status, len(response.read())
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        return 0, 0


class Site:
    """What the readers ask for, and the writer saves: the event's pages and tables."""

    def __init__(self, event, token: str):
        from tournaments.models import Entry, Round

        self.slug, self.token = event.slug, token
        self.rounds = list(Round.objects.filter(event=event).values_list("number", flat=True))
        live = Round.objects.get(event=event, number=max(self.rounds))
        self.live = live.number
        self.tables = list(live.tables.order_by("number").values_list("number", flat=True))
        self.players = list(Entry.objects.filter(event=event).values_list("player_id", flat=True))
        self.version = (event.standings_version, event.screen_version)
        self.rng = random.Random()

    def paths(self, rng: random.Random) -> list[tuple[str, str]]:
        """One reader's round of requests: (kind, path)."""
        e, api = f"/events/{self.slug}/", f"/api/v1/events/{self.slug}/"
        table = rng.choice(self.tables)
        number = rng.choice(self.rounds)
        v, s = self.version
        return [
            ("leaderboard", e),
            ("leaderboard page", f"{e}?page={rng.randint(2, 40)}"),
            ("leaderboard poll", f"{e}live/?v={v}&s={s}"),
            ("projector", f"{e}projector/"),
            ("round", f"{e}rounds/{number}/"),
            ("table", f"{e}rounds/{number}/tables/{rng.randint(1, 1024)}/"),
            ("table poll", f"{e}rounds/{self.live}/tables/{table}/live/?v={v}&s={s}"),
            ("player", f"/players/{rng.choice(self.players)}/"),
            ("entry page", f"{e}rounds/{self.live}/tables/{table}/enter/"),
            ("api whole", f"{api}standings/"),
            ("api paged", f"{api}standings/?limit=100&offset={100 * rng.randint(0, 40)}"),
            ("api round", f"{api}standings/?round={self.live}&limit=50&offset={50 * v % 4096}"),
        ]

    def save(self, client: Client, n: int) -> int:
        """Hand 1 of a table of the round in play, saved (again) with other figures: who
        went out and the others' points drawn at random, so that a later run's save is
        not the hand already there (which changes nothing and rebuilds nothing)."""
        table = self.tables[(n * 37) % len(self.tables)]
        out = self.rng.randint(1, 4)
        scores = [{"seat": s, "points": self.rng.randint(2, 44)} for s in (1, 2, 3, 4)]
        body = {"went_out": out, "scores": [score for score in scores if score["seat"] != out]}
        path = f"/api/v1/events/{self.slug}/rounds/{self.live}/tables/{table}/hands/1/"
        return client.call("PUT", path, body)[0]


def versions(slug: str) -> tuple[int, int]:
    from tournaments.models import Event

    return Event.objects.filter(slug=slug).values_list("standings_version", "screen_version")[0]


def web_phase(args, site: Site, port: int, master: int) -> dict[int, list[tuple[float, int]]]:
    """Readers and a writer for `args.minutes`; each gunicorn worker's RSS every 10 s."""
    stop_at = time.monotonic() + args.minutes * 60
    counts: Counter = Counter()
    lock = threading.Lock()

    def reader(index: int) -> None:
        rng = random.Random(index)
        client = Client(port, fresh=not args.keep_alive)
        while time.monotonic() < stop_at:
            for kind, path in site.paths(rng):
                started = time.monotonic()
                status, _ = client.call("GET", path, language=rng.choice(LANGUAGES))
                with lock:
                    counts[kind, status] += 1
                # A moderate rate: the machine's two cores are shared.
                time.sleep(max(0.0, args.pause - (time.monotonic() - started)))
                if time.monotonic() >= stop_at:
                    return

    def writer() -> None:
        client = Client(port, site.token)
        for n in itertools.count():
            if time.monotonic() >= stop_at:
                return
            status = site.save(client, n)
            with lock:
                counts["hand saved", status] += 1
            time.sleep(args.save_every)
            site.version = versions(site.slug)

    samples: dict[int, list[tuple[float, int]]] = {}
    threads = [threading.Thread(target=reader, args=(i,)) for i in range(args.clients)]
    threads.append(threading.Thread(target=writer))
    began = time.monotonic()
    for thread in threads:
        thread.start()
    while time.monotonic() < stop_at:
        now = time.monotonic() - began
        for pid in children(master):
            kib = rss_kib(pid)
            if kib is not None:
                samples.setdefault(pid, []).append((now, kib))
        done = sum(counts.values())
        print(
            f"  {now:5.0f} s  {done:6d} requests  load {os.getloadavg()[0]:.2f}  "
            + "  ".join(f"{pid}: {mib(s[-1][1])}" for pid, s in sorted(samples.items())),
            flush=True,
        )
        time.sleep(min(SAMPLE_SECONDS, max(0.0, stop_at - time.monotonic())))
    for thread in threads:
        thread.join()
    for pid in children(master):
        kib = rss_kib(pid)
        if kib is not None:
            samples.setdefault(pid, []).append((time.monotonic() - began, kib))
    print(f"requests ({args.clients} readers, one save every {args.save_every:g} s):")
    for (kind, status), count in sorted(counts.items()):
        print(f"  {kind:<18} {status}: {count}")
    return samples


def growth_line(name: str, warm: float, end: float, peak: int, bound: float) -> tuple[str, bool]:
    grown = (end - warm) / warm * 100
    held = grown < bound
    return (
        f"  {name}: after warm-up {mib(warm)}, at the end {mib(end)}, peak {mib(peak)}; "
        f"growth {grown:+.1f}% ({'within' if held else 'OVER'} the {bound:g}% bound)",
        held,
    )


def rss_at(series: list[tuple[float, int]], seconds: float) -> int:
    """The first sample at or after `seconds`."""
    return next(kib for at, kib in series if at >= seconds)


def report_web(samples: dict[int, list[tuple[float, int]]], warm_up: float, bound: float) -> bool:
    """Each worker's RSS just after warm-up and at the end, each the median of a
    minute's samples (one sample rises and falls by a few percent with the requests in
    hand), and the peak after warm-up."""
    print(
        f"web workers' RSS (VmRSS every {SAMPLE_SECONDS} s; after warm-up: the median of "
        f"minute {warm_up:g}-{warm_up + 1:g}; at the end: the median of the last minute):"
    )
    held = True
    for pid, series in sorted(samples.items()):
        end = series[-1][0]
        first = [kib for at, kib in series if warm_up * 60 <= at < (warm_up + 1) * 60]
        last = [kib for at, kib in series if at >= end - 60]
        if end < (warm_up + 2) * 60 or not first:
            print(f"  worker {pid}: too few samples after warm-up ({len(series)} in all)")
            continue
        peak = max(kib for at, kib in series if at >= warm_up * 60)
        warm, final = statistics.median(first), statistics.median(last)
        line, ok = growth_line(f"worker {pid}", warm, final, peak, bound)
        print(f"{line}; at start {mib(series[0][1])}")
        minutes = [m for m in (1, 2, 3, 5, 7, 9) if m * 60 < end]
        print(
            "    one sample at minute "
            + ", ".join(f"{m}: {mib(rss_at(series, m * 60))}" for m in minutes)
            + f", end: {mib(series[-1][1])}"
        )
        held &= ok
    return held


def worker_phase(args, site: Site, port: int, env: dict) -> list[int]:
    """A fresh Celery worker; `args.rebuilds` times: save a hand, wait for its rebuild.
    Returns the worker's RSS after each rebuild."""
    worker = start(CELERY_WORKER, env, WORKER_LOG)
    found = []
    try:
        client = Client(port, site.token)
        time.sleep(3)
        print(f"worker {worker.pid} before any rebuild: {mib(rss_kib(worker.pid) or 0)}")
        for n in range(args.rebuilds):
            before = versions(site.slug)[0]
            started = time.monotonic()
            status = site.save(client, n)
            if status != 200:
                raise RuntimeError(f"saving a hand answered {status}")
            while versions(site.slug)[0] == before:
                if time.monotonic() - started > 120:
                    raise RuntimeError("a saved hand's rebuild did not commit in 120 s")
                time.sleep(0.05)
            took = time.monotonic() - started
            time.sleep(0.2)  # the task's last steps after its commit
            found.append(rss_kib(worker.pid) or 0)
            if n < 3 or (n + 1) % 10 == 0:
                print(f"  rebuild {n + 1:3d}: {took:.2f} s, worker {mib(found[-1])}", flush=True)
    finally:
        stop(worker)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--warm-up", type=float, default=3, help="minutes")
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument(
        "--keep-alive",
        action="store_true",
        help="each reader keeps one connection (one web worker may then serve them all)",
    )
    parser.add_argument("--pause", type=float, default=0.1, help="s between a reader's requests")
    parser.add_argument("--save-every", type=float, default=10.0)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--rebuilds", type=int, default=100)
    parser.add_argument("--warm-up-rebuilds", type=int, default=10)
    parser.add_argument("--bound", type=float, default=5.0, help="percent")
    parser.add_argument("--skip", default="", help="web or worker")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    os.environ["CELERY_BROKER_URL"] = BROKER
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    url = setup_django()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from core.management.commands.run_processes import WEB_ARENAS
    from core.services import refresh_standings

    event = big_event(4096, 10, live=True)
    refresh_standings(event=event)
    event.refresh_from_db()
    user, _ = get_user_model().objects.get_or_create(
        username="bench", defaults={"is_superuser": True}
    )
    site = Site(event, Token.objects.get_or_create(user=user)[0].key)
    print(f"event {event.slug}: {len(site.players)} players, round {site.live} in play")
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")

    port = free_port()
    env = {**site_env(url, BROKER, CACHE), "LOG_LEVEL": "WARNING"}
    # The allocator's arenas as `manage.py run_processes` starts gunicorn.
    env.setdefault("MALLOC_ARENA_MAX", WEB_ARENAS)
    gunicorn = [
        *("python", "-m", "gunicorn", "kalooki_site.wsgi", "-w", str(args.web_workers)),
        *("--threads", str(args.threads), "-b", f"127.0.0.1:{port}", "--log-level", "warning"),
    ]
    gunicorn[0] = CELERY_WORKER[0]  # this interpreter
    web = start(gunicorn, env, WEB_LOG)
    held = True
    try:
        wait_for_port(port)
        if "web" not in args.skip:
            worker = start(CELERY_WORKER, env, WORKER_LOG)
            try:
                print(
                    f"1. web: gunicorn -w {args.web_workers} --threads {args.threads}, "
                    f"{args.minutes:g} min"
                )
                samples = web_phase(args, site, port, web.pid)
            finally:
                stop(worker)
            held &= report_web(samples, args.warm_up, args.bound)
            print(f"load average: {Path('/proc/loadavg').read_text().strip()}")
        if "worker" not in args.skip:
            print(f"2. worker: {args.rebuilds} standings rebuilds (a hand saved before each)")
            found = worker_phase(args, site, port, env)
            warm = found[args.warm_up_rebuilds - 1]
            line, ok = growth_line(
                f"after rebuild {args.warm_up_rebuilds} -> {len(found)}",
                warm,
                found[-1],
                max(found[args.warm_up_rebuilds - 1 :]),
                args.bound,
            )
            print(f"worker's RSS after rebuild 1: {mib(found[0])}")
            print(line)
            held &= ok
    finally:
        stop(web)
    print(f"load average after: {Path('/proc/loadavg').read_text().strip()}")
    print("no growth after warm-up beyond the bound" if held else "GROWTH beyond the bound")


if __name__ == "__main__":
    main()
