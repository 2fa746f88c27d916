"""Entry at the table under load: 64 tables (256 players) enter and confirm their hands
concurrently through the API, on gunicorn, PostgreSQL, a real Celery worker and Redis.

Each table is a thread: for every hand, one player sends it (PUT .../proposal/ with
their code), the next player confirms it (POST .../proposal/confirm/), then the table
pauses (`--pause`) before the next hand; the tables start at random moments within one
pause. A monitor reads the standings' version in the database every 50 ms and, for
each confirmed hand, notes when a version first includes it (the table's players'
points add up to the hands confirmed so far): the time from the confirmation's answer
to that version is how long the leaderboard lags a confirmed hand.

Prints the entry and confirmation latencies and that delay (median, p95, max). Traffic
goes to 127.0.0.1 only; the run is bounded (`--hands` per table, `--seconds` at most).

    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/table_entry.py [--tables 64]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time
from pathlib import Path

from _setup import (
    CELERY_WORKER,
    command_line,
    setup_django,
    site_env,
    start,
    start_web,
    stop,
    wait_for_port,
)
from api_load import Client, free_port

BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/4")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/5")
POLL = 0.05
WORKER_LOG = "/tmp/kalooki-bench-entry-worker.log"


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return (
        f"median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms"
    )


def make_event(tables: int):
    """A fresh event where players enter: `tables` tables of four, round 1 published
    (seated and given its codes through the services, in this process)."""
    from core import services
    from tournaments.models import Entry, Event, Player, PlayerCode

    Event.objects.filter(slug__startswith="bench-entry").delete()
    event = services.create_event(
        data={
            "slug": f"bench-entry-{tables}",
            "name": f"Table entry bench ({tables} tables)",
            "rounds_planned": 1,
            "table_entry": "players",
        }
    )
    players = Player.objects.bulk_create(
        [Player(name=f"Bench Player {i:04d}") for i in range(1, 4 * tables + 1)]
    )
    Entry.objects.bulk_create(
        [Entry(event=event, player=p, seed_number=i) for i, p in enumerate(players, 1)]
    )
    round_ = services.start_round(event=event, seed=7)  # seated once it commits (eager)
    round_.refresh_from_db()
    services.publish_round(round=round_)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    seating = {}
    for table in round_.tables.prefetch_related("seats"):
        seating[table.number] = {
            seat.position: (seat.entry.player_id, codes[seat.entry_id])
            for seat in table.seats.all()
        }
    event.refresh_from_db()
    return event, seating


def hand_body(number: int, went_out: int, seats: list[int]) -> dict:
    return {
        "went_out": went_out,
        "scores": [
            {"seat": s, "points": 3 + (number * 7 + s * 5) % 30} for s in seats if s != went_out
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--hands", type=int, default=9)
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between a table's hands")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long")
    args = parser.parse_args()
    print(f"$ {command_line()}")
    # This process seats and publishes the round itself (tasks run here, eagerly); the
    # web and worker processes it starts use the broker.
    os.environ.pop("CELERY_BROKER_URL", None)
    url = setup_django()
    import redis

    for target in (BROKER, CACHE):  # a clean broker and cache for this run
        redis.Redis.from_url(target).flushdb()
    event, seating = make_event(args.tables)

    port = free_port()
    env = site_env(url, BROKER, CACHE)
    web = start_web(port, args.web_workers, env, "/tmp/kalooki-bench-entry-gunicorn.log")
    worker = start(CELERY_WORKER, env, WORKER_LOG)
    try:
        warm_up(port, args.web_workers, event)
        run(args, port, event, seating)
    finally:
        stop(web)
        stop(worker)


def warm_up(port: int, workers: int, event) -> None:
    """Wait until gunicorn answers from every worker and the Celery worker is ready, so
    the figures measure the entry, not the start-up."""
    wait_for_port(port)
    clients = [Client(port, "") for _ in range(workers * 2)]
    threads = [
        threading.Thread(target=c.call, args=("GET", f"/api/v1/events/{event.slug}/standings/"))
        for c in clients
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for _ in range(300):
        if "ready." in Path(WORKER_LOG).read_text():
            return
        time.sleep(0.2)


def run(args, port: int, event, seating: dict) -> None:
    base = f"/api/v1/events/{event.slug}"
    lock = threading.Lock()
    latencies: dict[str, list[float]] = {"propose": [], "confirm": []}
    errors: dict[str, int] = {"propose": 0, "confirm": 0}
    # Per table: the hands confirmed, each with when its confirmation was answered and
    # the table's points once it is in.
    waiting: dict[int, list[tuple[int, float, int]]] = {t: [] for t in seating}
    delays: list[float] = []
    deadline = time.monotonic() + args.seconds
    done = threading.Event()

    def table_play(number: int) -> None:
        client = Client(port, "")
        client.headers = {"Content-Type": "application/json"}
        seats = sorted(seating[number])
        total = 0
        time.sleep(random.uniform(0, args.pause))  # tables do not all start at once
        for hand in range(1, args.hands + 1):
            if time.monotonic() > deadline:
                return
            proposer = seats[(hand - 1) % len(seats)]
            confirmer = seats[hand % len(seats)]
            body = hand_body(hand, proposer, seats)
            path = f"{base}/rounds/1/tables/{number}/hands/{hand}/proposal/"
            client.headers["X-Player-Code"] = seating[number][proposer][1]
            started = time.perf_counter()
            status, _ = client.call("PUT", path, body)
            took = time.perf_counter() - started
            client.headers["X-Player-Code"] = seating[number][confirmer][1]
            started = time.perf_counter()
            confirmed, _ = client.call("POST", path + "confirm/")
            answered = time.perf_counter()
            total += sum(score["points"] for score in body["scores"])
            with lock:
                latencies["propose"].append(took)
                latencies["confirm"].append(answered - started)
                errors["propose"] += status != 200
                errors["confirm"] += confirmed != 200
                if confirmed == 200:
                    waiting[number].append((hand, answered, total))
            time.sleep(args.pause)

    def monitor() -> None:
        """Watch the standings in the database itself (not through the web server,
        whose queue would delay the watcher too): each new version, and whether it
        includes each hand confirmed."""
        from django.db import connection

        from scoring.models import Standing
        from tournaments.models import Event

        seen = None
        players = {t: [player for player, _ in seats.values()] for t, seats in seating.items()}
        try:
            while not (done.is_set() and not any(waiting.values())) and time.monotonic() < deadline:
                version = Event.objects.values_list("standings_version", flat=True).get(pk=event.pk)
                now = time.perf_counter()
                if version != seen:
                    seen = version
                    points = dict(
                        Standing.objects.filter(round__event=event).values_list(
                            "entry__player_id", "points"
                        )
                    )
                    with lock:
                        for table, pending in waiting.items():
                            total = sum(points.get(p, 0) for p in players[table])
                            reached = [item for item in pending if item[2] <= total]
                            delays.extend(now - answered for _, answered, _ in reached)
                            waiting[table] = [item for item in pending if item[2] > total]
                time.sleep(POLL)
        finally:
            connection.close()

    watcher = threading.Thread(target=monitor)
    watcher.start()
    tables = [threading.Thread(target=table_play, args=(t,)) for t in seating]
    began = time.monotonic()
    for thread in tables:
        thread.start()
    for thread in tables:
        thread.join()
    played = time.monotonic() - began
    done.set()
    watcher.join()

    from tournaments.models import Event

    event.refresh_from_db()
    hands = len(latencies["confirm"])
    print(
        f"{event.slug}: {4 * len(seating)} players at {len(seating)} tables; gunicorn "
        f"-w {args.web_workers} + 1 celery worker (solo), PostgreSQL, Redis; all on this machine "
        f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end)"
    )
    print(
        f"{len(seating)} tables x {args.hands} hands, {args.pause} s between a table's hands: "
        f"{hands} entries and {hands} confirmations in {played:.0f} s "
        f"({2 * hands / played:.1f} writes/s)"
    )
    print(f"PUT proposal:  {percentiles(latencies['propose'])} ({errors['propose']} errors)")
    print(f"POST confirm:  {percentiles(latencies['confirm'])} ({errors['confirm']} errors)")
    missing = sum(len(pending) for pending in waiting.values())
    print(
        f"confirmation answered -> a standings version includes the hand: {percentiles(delays)} "
        f"({len(delays)} hands, {missing} never seen; version read every {POLL * 1000:.0f} ms; "
        f"{Event.objects.get(pk=event.pk).standings_version} standings versions in all)"
    )


if __name__ == "__main__":
    main()
