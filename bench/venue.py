"""The venue laptop on a big day: 64 tables (256 players) enter their hands on phones,
a director corrects hands on the sheet and the screens follow, all on the embedded
default (an SQLite file, no broker, no shared cache) served as `make venue` serves it.

Not a test: it prints figures. A fresh SQLite file gets a 256-player event (the demo
generator, `--rounds` rounds, the last in play, entered by the players); then the
venue's own start runs on it (`manage.py run_processes --web-workers 1 --threads 8
--only web,standby`: `make venue`'s command without the publisher) and, for
`--seconds` once every phone has signed in (over `--warm-up` seconds):

- 64 tables, each with its four phones (a session each, signed in with the player's
  code from the slip's QR code). Every phone polls its entry page's live region every
  ENTRY_POLL_SECONDS, as the page does. Every 20-60 s (jittered) one player enters the
  table's next hand (POST, then the page it redirects to); another player's phone sees
  it in its next poll and, a few seconds later, confirms it.
- a director, signed in, every few seconds opens a table's sheet and corrects one of
  the hands confirmed meanwhile (the sheet's HTMX POST): one more point for a seat.
- 8 leaderboard readers and 2 projectors: the page, then its poll every
  PUBLIC_POLL_SECONDS, following the versions it is given.
- a probe, every PROBE seconds: the leaderboard's poll and the standings API. For each
  confirmed hand and each correction it notes when the standings API first includes it
  (the table's players' points add up to what the bench has recorded there) and when
  the leaderboard's poll first answers with that standings version or a later one.

Printed: writes per second, each save's time (the POST; proposal, confirmation and the
director's save apart), every screen's time, the delay from a save's answer to the
leaderboard and the API showing it, the answers that were neither 2xx, 3xx nor 204,
and "database is locked" counted in the answers and in the server's log; with the load
average and the CPU time the server's processes took (the web server is one process:
beyond one core's worth, requests queue whatever else the machine runs). Traffic goes
to 127.0.0.1 only.

    .venv/bin/python bench/venue.py [--seconds 120] [--rounds 6]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

from _setup import ROOT, command_line, setup_django, start, stop, wait_for_port
from _venue_clients import (
    PASSWORD,
    PUBLIC_POLL,
    SLUG,
    Day,
    Ledger,
    Stats,
    director,
    percentiles,
    play_table,
    probe,
    reader,
    table_totals,
)

LOG = "/tmp/kalooki-bench-venue.log"


def make_event(rounds: int, players: int = 256, slug: str = SLUG, name: str = "Venue day") -> dict:
    """The event (made by the demo generator unless it exists), its round in play
    entered by the players, and a director; what the phones need: per table, each
    seat's code, the seats playing each hand, the hands still to play."""
    from axes.models import AccessAttempt
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Hand
    from tournaments.models import Event, PlayerCode, Round, Seat

    started = time.perf_counter()
    call_command(
        *("demo_event", "--players", str(players), "--rounds", str(rounds), "--seed", "7"),
        *("--live", "--table-entry", "players", "--slug", slug, "--name", name, "--if-missing"),
    )
    print(f"demo event ready in {time.perf_counter() - started:.0f} s")
    user = get_user_model().objects.filter(username="bench-director").first()
    if user is None:
        get_user_model().objects.create_superuser("bench-director", password=PASSWORD)
    elif not user.check_password(PASSWORD):  # hashed under other settings
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    AccessAttempt.objects.filter(username="bench-director").delete()  # an earlier run's
    event = Event.objects.get(slug=slug)
    round_ = event.rounds.get(status=Round.Status.PUBLISHED)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    recorded = set(
        Hand.objects.filter(table__round=round_, outcome="scored").values_list(
            "table__number", "number"
        )
    )
    count = event.rules.hand_count
    tables: dict[int, dict] = {}
    for seat in Seat.objects.filter(table__round=round_).select_related("table", "entry"):
        table = tables.setdefault(
            seat.table.number, {"codes": {}, "players": [], "plays": defaultdict(list)}
        )
        table["players"].append(seat.entry.player_id)
        if seat.entry_id in codes:
            table["codes"][seat.position] = codes[seat.entry_id]
        for number in range(1, count + 1):
            if seat.plays_hand(number):
                table["plays"][number].append(seat.position)
    for number, table in tables.items():
        table["next"] = [n for n in range(1, count + 1) if (number, n) not in recorded]
    connection.close()
    return {"slug": slug, "round": round_.number, "tables": tables}


# --- the run -----------------------------------------------------------------------------


def venue_env(url: str) -> dict[str, str]:
    """`make venue`'s environment (VENUE_ENV) on this file. One difference: every
    client here comes from 127.0.0.1, where a hall's phones each have an address of
    their own, so the API's per-address limit is lifted for the probe."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env.pop("DEBUG", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(
        DATABASE_URL=url,
        SECRET_KEY="bench-only-venue-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="*",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        API_RATE_ANON="100000/minute",
    )
    return env


def serve(
    env: dict, log: str, *, web_workers: int, threads: int, only: str, extra: tuple = ()
) -> tuple[subprocess.Popen, int]:
    """The static files collected, then `manage.py run_processes` (`only` those
    programs) on a free port of 127.0.0.1: the process and its port, once it listens."""
    manage = [sys.executable, str(ROOT / "manage.py")]
    static = [*manage, "collectstatic", "--noinput", "-v0"]
    start(static, env, "/tmp/kalooki-bench-static.log").wait()
    port = free_port()
    server = start(
        [
            *(*manage, "run_processes", "--bind", f"127.0.0.1:{port}"),
            *("--web-workers", str(web_workers), "--threads", str(threads), "--only", only),
            *extra,
        ],
        env,
        log,
    )
    wait_for_port(port)
    return server, port


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--rounds", type=int, default=6, help="rounds, the last in play")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn's (make venue: 8)")
    parser.add_argument("--director-every", type=float, default=5, help="seconds, about")
    parser.add_argument("--warm-up", type=float, default=20, help="phones sign in over this")
    parser.add_argument("--db", default="/tmp/kalooki-bench-venue.sqlite3")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    for suffix in ("", "-wal", "-shm"):
        Path(args.db + suffix).unlink(missing_ok=True)
    url = f"sqlite:///{args.db}"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("CACHE_URL", None)
    os.environ.update(DEBUG="1", DJANGO_SETTINGS_MODULE="kalooki_site.settings", LOG_LEVEL="ERROR")
    setup_django(url)
    event = make_event(args.rounds)
    env = venue_env(url)
    server, port = serve(env, LOG, web_workers=1, threads=args.threads, only="web,standby")
    try:
        run(args, f"http://127.0.0.1:{port}", event, server.pid)
    finally:
        stop(server)
    log = Path(LOG).read_text(errors="replace")
    print(
        f'server log: {log.count("database is locked")} "database is locked", '
        f'{log.count("database table is locked")} "database table is locked", '
        f"{log.count('Traceback')} tracebacks ({LOG})"
    )


def cpu_seconds(root: int) -> dict[str, float]:
    """CPU time (user + system) of `root`'s descendants, by command: the web server's
    worker, its master, the standby."""
    children: dict[int, list[int]] = defaultdict(list)
    names: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[1].split()
        children[int(fields[1])].append(int(entry.name))
        ticks = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        names[int(entry.name)] = (b" ".join(command[1:4]).decode(errors="replace"), ticks)
    found: dict[str, float] = defaultdict(float)
    todo = list(children[root])
    while todo:
        pid = todo.pop()
        todo += children[pid]
        name, ticks = names[pid]
        kind = "web" if "gunicorn" in name else "standby" if "rebuild" in name else name
        found[kind] += ticks
    return found


def run(args, base: str, event: dict, server: int) -> None:
    day = Day(args, base, event, Stats(), Ledger(event["tables"]), time.monotonic() + 3600)
    baseline = table_totals(base, event)
    threads = [threading.Thread(target=play_table, args=(day, n)) for n in event["tables"]]
    threads.append(threading.Thread(target=director, args=(day,)))
    for i in range(10):
        page, kind = (
            (f"/events/{SLUG}/projector/", "projector")
            if i < 2
            else (f"/events/{SLUG}/", "leaderboard")
        )
        threads.append(
            threading.Thread(target=reader, args=(day, page, kind, i * PUBLIC_POLL / 10))
        )
    watcher = threading.Thread(target=probe, args=(day, baseline))
    for thread in [*threads, watcher]:
        thread.start()
    for _ in event["tables"]:  # every phone signed in, then the clock starts
        day.signed_in.acquire()
    time.sleep(5)
    day.stop_at = time.monotonic() + args.seconds
    day.stats.measuring = True
    load_before = Path("/proc/loadavg").read_text().strip()
    cpu_before, began = cpu_seconds(server), time.monotonic()
    for thread in threads:
        thread.join()
    day.saving_done.set()
    played = time.monotonic() - began
    cpu = {k: v - cpu_before.get(k, 0) for k, v in cpu_seconds(server).items()}
    day.stats.measuring = False
    watcher.join()
    report(args, day, played, load_before, cpu)


def report(args, day: Day, played: float, load: str, cpu: dict[str, float]) -> None:
    stats, ledger, tables = day.stats, day.ledger, len(day.event["tables"])
    writes = sum(len(stats.times[k]) for k in ("propose", "confirm", "director save"))
    polls = stats.times["phone poll"]
    print(
        f"{SLUG}: 256 players at {tables} tables, {args.rounds} rounds (the last in play); "
        f"SQLite file, no broker, run_processes --web-workers 1 --threads {args.threads} "
        f"--only web,standby; {os.cpu_count()} CPUs"
    )
    print(
        f"load average: {load} at the start, {Path('/proc/loadavg').read_text().strip()} at the end"
    )
    print(
        f"{played:.0f} s measured: {writes} saves ({writes / played:.1f}/s), "
        f"{len(polls)} phone polls ({len(polls) / played:.0f}/s)"
    )
    used = ", ".join(f"{k} {v:.0f} s ({v / played:.2f} of a core)" for k, v in sorted(cpu.items()))
    print(f"server CPU: {used}")
    print("saves (the POST, request to answer):")
    for kind in ("propose", "confirm", "director save"):
        print(f"  {kind:<28} {percentiles(stats.times[kind])}")
    print("screens (request to answer):")
    for kind in sorted(stats.times):
        if kind not in ("propose", "confirm", "director save"):
            print(f"  {kind:<28} {percentiles(stats.times[kind])}")
    print("a save's answer -> shown (probe every 100 ms):")
    for kind in sorted(stats.delays):
        print(f"  {kind:<28} {percentiles(stats.delays[kind])}")
    left = sum(len(p) for p in ledger.pending.values())
    late = [(t, kind) for t, pending in ledger.pending.items() for _, _, kind in pending]
    print(f"  saves never seen in the standings API: {left} (table, save: {late})")
    answered = stats.statuses["phone poll"]
    print(f"phone polls: {answered[204]} unchanged (204), {answered[200]} the region again (200)")
    bad = {
        kind: {s: n for s, n in counts.items() if not (isinstance(s, int) and s < 400)}
        for kind, counts in stats.statuses.items()
    }
    bad = {k: v for k, v in bad.items() if v}
    print(f'answers: {stats.locked} 5xx saying "locked"; other than 2xx/3xx: {bad or "none"}')
    for kind, said in stats.failures.items():
        print(f"  {kind}: {said}")


if __name__ == "__main__":
    main()
