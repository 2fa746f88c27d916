"""A national championship on one machine: 4,096 players (1,024 tables, 10 rounds, the
last in play), 256 tables entering their hands on phones at once, 1,000 open
leaderboards and 10 projectors polling, a director correcting on the sheet; does a
saved hand reach the standings API and every open page within a second?

Not a test: it prints figures (docs/benchmarks.md). Production's start on this machine:
PostgreSQL, Redis (broker and cache), `manage.py run_processes` (gunicorn with
`--web-workers` processes of `--threads` threads, a Celery worker of
`--worker-concurrency` processes, beat and the standby), production settings. The
clients, for `--seconds` once every phone has signed in:

- `--tables` tables of four phones, each phone with its own session (signed in with
  its player's code), polling its entry page every ENTRY_POLL_SECONDS; every 20-60 s a
  player enters the table's next hand and another confirms it (`_venue_clients`);
- a director correcting a confirmed hand on the sheet every few seconds;
- `--readers` open leaderboards: with `--push` (the default; LIVE_PUSH on, the push
  server started beside gunicorn) each an open stream of the push server
  (`push_readers.py`) noting when each version's region reaches it; with `--no-push`
  each a connection of wrk (`readers.lua`) polling its page's live region every
  PUBLIC_POLL_SECONDS and following the versions it is given;
- `--projectors` projectors, polling as the readers do without the push;
- a probe, every 100 ms: the leaderboard's poll and the standings API, noting when each
  save first shows in each (`_venue_clients.probe`).

Printed: each kind of request's p50/p95/p99/max, the polling readers' and projectors'
from wrk; a save's answer to the standings API and to the leaderboard's poll (the
moment an open page's next poll brings it; an open page asks every
PUBLIC_POLL_SECONDS, which adds up to that much again); with the push, a save's answer
to each open page's receiving it, over every (save, page) and for the last page of each
save; the requests over 2 s; the CPU each process took and what was left of the
machine's cores.

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/national.py [--seconds 120]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests
from _national_probes import (
    CACHE,
    SLUG,
    committed_probe,
    first_at,
    in_api_by_version,
    version_probe,
)
from _setup import ROOT, command_line, setup_django, site_env, stop
from _venue_clients import (
    PUBLIC_POLL,
    Day,
    Ledger,
    Stats,
    director,
    percentiles,
    play_table,
    poll_url,
    probe,
    table_totals,
)
from venue import cpu_seconds, free_port, make_event, serve

LOG = "/tmp/kalooki-bench-national.log"
READERS = ROOT / "bench" / "readers.lua"
PUSH_READERS = ROOT / "bench" / "push_readers.py"
PUSHED = "/tmp/kalooki-bench-national-pushed.json"
LIMIT = 2.0  # seconds: no request above it


def national_env(url: str, broker: str, cache: str) -> dict[str, str]:
    """Production's settings on this machine, over plain HTTP on 127.0.0.1 (the phones'
    and the director's cookies are sent back without TLS)."""
    env = site_env(url, broker, cache)
    env.update(
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL="WARNING",
    )
    return env


def machine_cpu() -> tuple[float, float]:
    """(busy, idle) CPU seconds of the whole machine so far, every core (/proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields[:8]) - idle) / tick, idle / tick


def open_pages(base: str, page: str, count: int, seconds: float) -> subprocess.Popen:
    """`count` open pages of `page` polling for `seconds`, as one wrk process."""
    first = requests.get(base + page, headers={"Accept-Language": "en"}, timeout=60)
    poll = poll_url(first.text, f"{page}live/")
    args = ["wrk", "-t1", f"-c{count}", f"-d{round(seconds)}s", "--timeout", "10s", "--latency"]
    args += ["-s", str(READERS), base + poll, "--", poll, str(int(PUBLIC_POLL * 1000))]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)


def process_cpu(pid: int) -> float:
    """CPU seconds one process has taken so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pushed_pages(base: str, port: int, page: str, count: int, seconds: float) -> subprocess.Popen:
    """`count` open pages of `page` on the push server at `port`, for `seconds`, as one
    process (`push_readers.py`)."""
    first = requests.get(base + page, headers={"Accept-Language": "en"}, timeout=60)
    found = re.search(r'data-push="([^"]*)"', first.text)
    if not found:
        raise RuntimeError("the leaderboard names no push address: is LIVE_PUSH on?")
    path = found.group(1).replace("&amp;", "&")
    args = [sys.executable, str(PUSH_READERS), "127.0.0.1", str(port), path, str(count)]
    return subprocess.Popen([*args, str(seconds), PUSHED])


def committed_to_sent(pages: list, committed_at: dict[int, float]) -> list[float]:
    """For each version the database probe saw committed: how long until the push
    server sent its region (the server's clock sent with it)."""
    sent: dict[int, float] = {}
    for opened in pages:
        for version, _, clock, _ in opened["shown"]:
            if clock is not None:
                sent.setdefault(version, clock / 1000)
    return [max(0.0, sent[version] - at) for version, at in committed_at.items() if version in sent]


def push_figures(
    process: subprocess.Popen,
    in_api: list,
    in_db: list,
    committed_at: dict[int, float],
    announced_at: dict[int, float],
) -> dict:
    """What the open pages were sent: how long after each save's answer each page open
    by then had a region showing it, over every (save, page) and for each save's last
    page, the save's version as the API's probe found it and as it was committed; and
    how long each region took from the push server's clock to the page."""
    process.wait(timeout=120)
    found = json.loads(Path(PUSHED).read_text())
    figures = {
        "pages": len(found["pages"]),
        "connected": found["connect"],
        "errors": found["errors"],
        "regions": sum(len(opened["shown"]) for opened in found["pages"]),
        "committed -> sent": committed_to_sent(found["pages"], committed_at),
        "committed -> announced": [
            max(0.0, announced_at[version] - at)
            for version, at in committed_at.items()
            if version in announced_at
        ],
        "announced -> sent": committed_to_sent(found["pages"], announced_at),
        "sent -> received": [
            received - sent / 1000
            for opened in found["pages"]
            for _, _, sent, received in opened["shown"]
            if sent is not None
        ],
    }
    for name, saves in (("api", in_api), ("committed", in_db)):
        every, last, missed = [], [], 0
        for version, answered, _ in saves:
            reached = []
            for opened in found["pages"]:
                if opened["connected"] is None or opened["connected"] > answered:
                    continue  # not open yet when the save was answered
                at = first_at(opened["shown"], version)
                if at is None:
                    missed += 1
                else:
                    reached.append(max(0.0, at - answered))
            every += reached
            if reached:
                last.append(max(reached))
        figures[name] = {"every": every, "last": last, "missed": missed}
    return figures


def wrk_figures(process: subprocess.Popen) -> dict[str, float]:
    out = process.communicate(timeout=120)[0]
    found = re.search(r"READERS (.*)", out)
    if not found:
        raise RuntimeError(f"wrk said: {out[-500:]}")
    return {k: float(v) for k, v in (pair.split("=") for pair in found.group(1).split())}


def vacuumed(url: str) -> None:
    """The database vacuumed and analysed, as autovacuum keeps production's: each run
    writes its standings again after every hand (dead rows an earlier run left behind
    slowed every later run's rebuilds where autovacuum is off)."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
    print(f"database vacuumed and analysed in {time.monotonic() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tables", type=int, default=256, help="tables entering on phones")
    parser.add_argument("--readers", type=int, default=1000, help="open leaderboards")
    parser.add_argument("--projectors", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument(
        "--web-workers", type=int, help="gunicorn's processes (default: run_processes' own)"
    )
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--worker-concurrency", type=int, default=2, help="the Celery worker's")
    parser.add_argument("--director-every", type=float, default=5, help="seconds, about")
    parser.add_argument("--warm-up", type=float, default=30, help="phones sign in over this")
    parser.add_argument(
        "--push",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the open leaderboards on the push server (LIVE_PUSH), not polling",
    )
    args = parser.parse_args()
    print(f"$ {command_line()}")
    # The site's own settings in this process too (the director's password hashed as
    # the server checks it).
    os.environ.update(DEBUG="1", DJANGO_SETTINGS_MODULE="kalooki_site.settings", LOG_LEVEL="ERROR")
    os.environ.pop("CELERY_BROKER_URL", None)
    url = setup_django()
    if args.web_workers is None:
        from core.management.commands.run_processes import default_web_workers

        args.web_workers = default_web_workers()
    # Made once and reused: each run plays a few of the round's hands (about 600 of
    # its 9,216 at the defaults), and refuses to run once the tables have too few left.
    event = make_event(args.rounds, args.players, SLUG, "National championship")
    vacuumed(url)
    # The tables with the most hands left to play (each run plays some).
    left = sorted(event["tables"].items(), key=lambda item: (-len(item[1]["next"]), item[0]))
    entering = dict(sorted(left[: args.tables]))
    fewest = min(len(table["next"]) for table in entering.values())
    if fewest < args.seconds / 40:  # a table plays a hand every 20-60 s
        sys.exit(
            f"the {args.tables} tables with most hands left have {fewest} at the fewest: "
            f"too few for a {args.seconds:g} s run (earlier runs played them). Drop the "
            "bench database so the event is generated afresh."
        )
    event = {**event, "tables": entering}
    subprocess.run(["redis-cli", "-u", CACHE, "FLUSHDB"], check=True, capture_output=True)
    env = national_env(url, "redis://127.0.0.1:6379/10", CACHE)
    args.push_port = free_port() if args.push else None
    env["LIVE_PUSH"] = "1" if args.push else "0"
    server, port = serve(
        env,
        LOG,
        web_workers=args.web_workers,
        threads=args.threads,
        only="web,worker,beat,standby" + (",push" if args.push else ""),
        extra=(
            *("--worker-concurrency", str(args.worker_concurrency)),
            *(("--push-bind", f"127.0.0.1:{args.push_port}") if args.push else ()),
        ),
    )
    try:
        run(args, f"http://127.0.0.1:{port}", event, server.pid)
    finally:
        stop(server)
    log = Path(LOG).read_text(errors="replace")
    print(f"server log: {log.count('Traceback')} tracebacks ({LOG})")


def run(args, base: str, event: dict, server: int) -> None:
    day = Day(args, base, event, Stats(), Ledger(event["tables"]), time.monotonic() + 3600)
    baseline = table_totals(base, event)
    tables = [threading.Thread(target=play_table, args=(day, n)) for n in event["tables"]]
    others = [threading.Thread(target=director, args=(day,))]
    watcher = threading.Thread(target=probe, args=(day, baseline))
    committed = threading.Thread(target=committed_probe, args=(day, baseline))
    api_versions: list[tuple[int, float]] = []
    versions = threading.Thread(target=version_probe, args=(day, api_versions))
    for thread in [*tables, *others, watcher, committed, versions]:
        thread.start()
    for _ in event["tables"]:  # every phone signed in, then the clock starts
        day.signed_in.acquire()
    time.sleep(5)
    day.stop_at = time.monotonic() + args.seconds
    day.stats.measuring = True
    if args.push:
        readers = pushed_pages(
            base, args.push_port, f"/events/{SLUG}/", args.readers, args.seconds + 15
        )
    else:
        readers = open_pages(base, f"/events/{SLUG}/", args.readers, args.seconds)
    projectors = open_pages(base, f"/events/{SLUG}/projector/", args.projectors, args.seconds)
    load_before = Path("/proc/loadavg").read_text().strip()
    versions_before = standings_version()
    server_before, machine_before = cpu_seconds(server), machine_cpu()
    own_before, began = os.times(), time.monotonic()
    for thread in [*tables, *others]:
        thread.join()
    day.saving_done.set()
    screens = {"projector (wrk)": wrk_figures(projectors)}
    if not args.push:
        screens["leaderboard (wrk)"] = wrk_figures(readers)
    played = time.monotonic() - began
    used_versions = standings_version() - versions_before
    own = os.times()
    used = {k: v - server_before.get(k, 0) for k, v in cpu_seconds(server).items()}
    busy, idle = (now - then for now, then in zip(machine_cpu(), machine_before, strict=True))
    used["machine, busy"], used["machine, idle"] = busy, idle
    used["bench's Python clients"] = (own.user + own.system) - (own_before.user + own_before.system)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    used["wrk"] = children.ru_utime + children.ru_stime
    if args.push:
        used["push readers"] = process_cpu(readers.pid)
    day.stats.measuring = False
    watcher.join()
    committed.join()
    versions.join()
    day.stats.delays["save -> standings API (its version, first row)"] = in_api_by_version(
        day.in_db, api_versions
    )
    pushed = None
    if args.push:
        pushed = push_figures(readers, day.in_api, day.in_db, day.committed_at, day.announced_at)
    report(args, day, played, load_before, used, screens, pushed, used_versions)


def standings_version() -> int:
    """The event's standings version now: how many rebuilds have ranked it."""
    from tournaments.models import Event

    return Event.objects.filter(slug=SLUG).values_list("standings_version", flat=True).get()


def report(
    args,
    day: Day,
    played: float,
    load: str,
    used: dict,
    screens: dict,
    pushed: dict | None,
    versions: int,
) -> None:
    stats = day.stats
    writes = sum(len(stats.times[k]) for k in ("propose", "confirm", "director save"))
    print(
        f"{SLUG}: {args.players} players, {args.rounds} rounds (the last in play), "
        f"{len(day.event['tables'])} tables entering on phones, {args.readers} open "
        f"leaderboards, {args.projectors} projectors; run_processes --web-workers "
        f"{args.web_workers} --threads {args.threads}; {os.cpu_count()} CPUs"
    )
    end = Path("/proc/loadavg").read_text().strip()
    print(f"load average: {load} at the start, {end} at the end")
    polls = stats.times["phone poll"]
    print(
        f"{played:.0f} s measured: {writes} saves ({writes / played:.1f}/s), {len(polls)} phone "
        f"polls ({len(polls) / played:.0f}/s), "
        + ", ".join(f"{s['requests']:.0f} {k} polls" for k, s in screens.items())
    )
    print(
        f"standings rebuilt {versions} times ({versions / played:.2f}/s, one every "
        f"{played / max(versions, 1):.2f} s)"
    )
    idle = used.pop("machine, idle")
    print(
        "CPU, in cores: "
        + ", ".join(f"{k} {v / played:.2f}" for k, v in sorted(used.items()))
        + f"; left idle: {idle / played:.2f} of {os.cpu_count()}"
        " (the machine's busy time includes PostgreSQL, Redis and any other work on it)"
    )
    print("requests (request to answer):")
    over = 0
    for kind in sorted(stats.times):
        values = stats.times[kind]
        over += sum(v > LIMIT for v in values)
        print(f"  {kind:<28} {percentiles(values)}")
    for kind, s in screens.items():
        over_wrk = "max over 2 s" if s["max_ms"] > LIMIT * 1000 else ""
        print(
            f"  {kind:<28} p50 {s['p50_ms']:.0f} ms, p95 {s['p95_ms']:.0f} ms, p99 "
            f"{s['p99_ms']:.0f} ms, max {s['max_ms']:.0f} ms (n={s['requests']:.0f}, "
            f"answers >= 400: {s['status_errors']:.0f}, connections closed or refused: "
            f"{s['socket_errors']:.0f}, timeouts {s['timeouts']:.0f}) {over_wrk}"
        )
    print(f"requests over {LIMIT:.0f} s (the bench's clients): {over}")
    print("a save's answer -> shown (probe every 100 ms; an open page polls every "
          f"{PUBLIC_POLL:g} s on top):")  # fmt: skip
    for kind in sorted(stats.delays):
        values = stats.delays[kind]
        print(f"  {kind:<28} {percentiles(values)}")
    if pushed:
        print(
            f"open leaderboards on the push server: {pushed['pages']} pages, "
            f"{len(pushed['connected'])} connected "
            f"(first byte {percentiles(pushed['connected'])}), "
            f"{pushed['regions']} regions received; errors: {pushed['errors'][:5] or 'none'}"
            f" ({len(pushed['errors'])})"
        )
        for name, said in (
            ("committed", "the version that committed it (database probe)"),
            ("api", "the version the API's probe first found it in"),
        ):
            figures = pushed[name]
            print(f"  by {said}:")
            print(f"    save -> every open page    {percentiles(figures['every'])}")
            print(f"    save -> its last open page {percentiles(figures['last'])}")
            print(f"    (save, page) never reached before the end: {figures['missed']}")
        for name in ("committed -> announced", "announced -> sent", "committed -> sent"):
            print(f"  a version {name:<22} {percentiles(pushed[name])}")
        print(f"  push server sent -> page     {percentiles(pushed['sent -> received'])}")
    left = sum(len(p) for p in day.ledger.pending.values())
    print(f"  saves never seen in the standings API: {left}")
    bad = {
        kind: {s: n for s, n in counts.items() if not (isinstance(s, int) and s < 400)}
        for kind, counts in stats.statuses.items()
    }
    print(f"answers other than 2xx/3xx: {({k: v for k, v in bad.items() if v}) or 'none'}")
    for kind, said in stats.failures.items():
        print(f"  {kind}: {said}")


if __name__ == "__main__":
    main()
