"""Publishing a day from the venue to the site over a thin line.

Not a test: it prints figures. Two installs on this machine, as an organiser runs the
day: a venue on the embedded default (an SQLite file, Celery eager, gunicorn, the
publisher) and a site on PostgreSQL (gunicorn, a Celery worker on Redis). Between the
venue's publisher and the site runs the simulated line of `bench/line.py` (1 Mbit/s
each way, 150 ms each way, 2% of connections dropped).

The venue holds a 64-table event (256 players, 4 rounds: 3 played, the 4th just
seated, about 2,300 hands by the end). With the line cut, the venue's directors save
every hand of round 4 through the venue's API while the publisher keeps its outbox;
then the line comes back and the publisher catches the site up: the whole event, then
each change in order. Printed: the bytes one hand's change takes (gzipped), the
venue's save times with the line up and down, and the catch-up's time and bytes.

    .venv/bin/python bench/publishing.py [--players 256] [--rounds 4] [--drop 0.02]

Needs PostgreSQL (BENCH_SITE_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/
kalooki_bench_site, dropped and made again) and Redis (BENCH_REDIS_URL, default
redis://127.0.0.1:6379/9).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.line import Line  # noqa: E402

SITE_DB = os.environ.get(
    "BENCH_SITE_DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench_site"
)
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
SLUG = "day"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kalooki_site.settings_test",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def manage(environment: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=environment,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def spawn(environment: dict[str, str], *args: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        list(args),
        env=environment,
        cwd=ROOT,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def gunicorn(environment: dict[str, str], port: int, log: Path, workers: int = 2):
    process = spawn(
        environment,
        *(sys.executable, "-m", "gunicorn", "kalooki_site.wsgi", "--bind", f"127.0.0.1:{port}"),
        *("--workers", str(workers), "--worker-class", "gthread", "--threads", "4"),
        log=log,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not start:\n{log.read_text()}")


def site_row(sql: str):
    import psycopg

    with psycopg.connect(SITE_DB.replace("postgres://", "postgresql://")) as db:
        return db.execute(sql).fetchone()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--drop", type=float, default=0.02)
    parser.add_argument("--rate-kbit", type=int, default=1000)
    parser.add_argument("--delay-ms", type=int, default=150)
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kalooki-bench-publishing-"))
    venue_db = work / "venue.sqlite3"
    venue_env = env(DATABASE_URL=f"sqlite:///{venue_db}", CELERY_BROKER_URL="", CACHE_URL="")
    site_env = env(DATABASE_URL=SITE_DB, CELERY_BROKER_URL=REDIS, CACHE_URL="")
    processes: list[subprocess.Popen] = []
    line = None
    try:
        # The site: a fresh database, the event empty with its link.
        name = SITE_DB.rsplit("/", 1)[1]
        base = SITE_DB.rsplit("/", 1)[0] + "/postgres"
        import psycopg

        with psycopg.connect(base.replace("postgres://", "postgresql://"), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            db.execute(f'CREATE DATABASE "{name}"')
        manage(site_env, "migrate", "--noinput")
        secret = manage(
            site_env,
            "shell",
            "-c",
            "from tournaments.models import Event; from core.publishing.links import "
            f"create_link; print(create_link(event=Event.objects.create(name='Day', "
            f"slug='{SLUG}')))",
        ).split()[-1]
        site_port = free_port()
        processes.append(
            spawn(
                site_env,
                *(sys.executable, "-m", "celery", "-A", "kalooki_site", "worker"),
                *("--pool", "solo", "--without-gossip", "--without-mingle", "-l", "WARNING"),
                log=work / "site-worker.log",
            )
        )
        processes.append(gunicorn(site_env, site_port, work / "site-web.log"))
        # The venue: the event, its rounds played but the last.
        started = time.monotonic()
        manage(venue_env, "migrate", "--noinput")
        manage(venue_env, "demo_director")
        token = re.search(
            r"Generated token (\w+)", manage(venue_env, "drf_create_token", "director")
        )[1]
        manage(
            venue_env,
            *("demo_event", "--players", str(options.players), "--rounds", str(options.rounds)),
            *("--seed", "3", "--live", "--seated", "--slug", SLUG, "--name", "Day"),
        )
        print(f"venue ready in {time.monotonic() - started:.0f} s ({work})", flush=True)
        venue_port = free_port()
        processes.append(gunicorn(venue_env, venue_port, work / "venue-web.log", workers=1))
        line = Line(
            to=f"127.0.0.1:{site_port}",
            rate_kbit=options.rate_kbit,
            delay_ms=options.delay_ms,
            drop=options.drop,
            seed=1,
        ).start()
        tables = options.players // 4
        venue = sqlite3.connect(venue_db, timeout=30)

        def save(table: int, hand: int) -> float:
            started = time.monotonic()
            request = urllib.request.Request(
                f"http://127.0.0.1:{venue_port}/api/v1/events/{SLUG}/rounds/"
                f"{options.rounds}/tables/{table}/hands/{hand}/",
                data=(
                    b'{"went_out": 1, "scores": [{"seat": 2, "points": %d}, '
                    b'{"seat": 3, "points": 7}, {"seat": 4, "points": 9}]}' % (10 + hand)
                ),
                method="PUT",
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
            return time.monotonic() - started

        def publication() -> tuple[int, int, str]:
            return venue.execute(
                "SELECT captured, acknowledged, refused FROM tournaments_publication"
            ).fetchone()

        def site_acknowledged() -> int:
            return site_row("SELECT acknowledged FROM tournaments_publishinglink")[0]

        # Hand 1 at every table with no publisher at all: the venue's own pace.
        alone = [save(table, 1) for table in range(1, tables + 1)]
        line.down()  # the venue's line is out for the day
        processes.append(
            spawn(
                venue_env,
                *(sys.executable, str(ROOT / "manage.py"), "publish_event", SLUG),
                *("--site", line.url, "--link", secret, "--every", "1"),
                log=work / "venue-publisher.log",
            )
        )
        down = [save(table, hand) for hand in range(2, 9) for table in range(1, tables + 1)]
        time.sleep(3)  # the publisher captures the last saves
        captured = publication()[0]
        whole = venue.execute(
            "SELECT body FROM tournaments_outgoingchange WHERE seq = 1"
        ).fetchone()[0]
        before = line.stats()
        line.up()
        started = time.monotonic()
        while site_acknowledged() < captured:
            if publication()[2]:
                raise SystemExit(f"refused: {publication()[2]}")
            if time.monotonic() - started > 900:
                raise SystemExit(f"not caught up: {site_acknowledged()} of {captured}")
            time.sleep(0.2)
        catch_up = time.monotonic() - started
        after = line.stats()
        # Then, the line up: hand 9 at one table at a time, each followed to the site.
        up, sizes, reached = [], [], []
        for table in range(1, min(tables, 24) + 1):
            seq = publication()[0]
            up.append(save(table, 9))
            saved = time.monotonic()
            while publication()[0] <= seq or site_acknowledged() < publication()[0]:
                if time.monotonic() - saved > 120:
                    raise SystemExit("a hand did not reach the site within two minutes")
                time.sleep(0.05)
            reached.append(time.monotonic() - saved)
            sizes += [
                len(bytes(body))
                for (body,) in venue.execute(
                    "SELECT body FROM tournaments_outgoingchange WHERE seq > ?", (seq,)
                )
            ]
        hands = venue.execute("SELECT COUNT(*) FROM scoring_hand").fetchone()[0]
        compared = subprocess.run(
            [
                *(sys.executable, str(ROOT / "manage.py"), "compare_event", SLUG),
                *("--site", f"http://127.0.0.1:{site_port}", "--link", secret),
            ],
            env=venue_env,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )

        def ms(values: list[float]) -> str:
            ordered = sorted(values)
            return (
                f"median {statistics.median(ordered) * 1000:.0f} ms, "
                f"p95 {ordered[int(len(ordered) * 0.95)] * 1000:.0f} ms, "
                f"max {ordered[-1] * 1000:.0f} ms over {len(ordered)}"
            )

        print(f"event: {options.players} players, {tables} tables, {hands} hands at the end")
        print(
            f"line: {options.rate_kbit} kbit/s each way, {options.delay_ms} ms each way, "
            f"{options.drop:.0%} of connections dropped"
        )
        print(
            f"one hand's change, gzipped: median {statistics.median(sizes) / 1024:.1f} KB, "
            f"max {max(sizes) / 1024:.1f} KB over {len(sizes)} changes"
        )
        print(
            f"the whole event as change 1 (rounds 1-{options.rounds - 1}): "
            f"{len(bytes(whole)) / 1024:.0f} KB gzipped "
            f"({len(gzip.decompress(bytes(whole))) / 1024 / 1024:.1f} MB of JSON)"
        )
        print(f"venue saves, no publisher:           {ms(alone)}")
        print(f"venue saves, publisher, line cut:    {ms(down)}")
        print(f"venue saves, publisher, line up:     {ms(up)}")
        print(f"a saved hand on the site, line up:   {ms(reached)}")
        print(
            f"catch-up of {captured} changes (the whole event, then round {options.rounds}'s "
            f"hands 2-8) once the line is back: {catch_up:.1f} s; "
            f"{(after['bytes_up'] - before['bytes_up']) / 1024:.0f} KB sent, "
            f"{after['dropped'] - before['dropped']} of "
            f"{after['accepted'] - before['accepted']} connections dropped"
        )
        print(f"compare_event: exit {compared.returncode}: {compared.stdout.strip()[:300]}")
    finally:
        for process in reversed(processes):
            stop(process)
        if line is not None:
            line.stop()
        if os.environ.get("BENCH_KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
