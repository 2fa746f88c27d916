"""Generating a 1,024-player, 10-round demo event, as a newcomer's large try does it.

Each run is `manage.py demo_event --players 1024 --rounds 10 --seed 7` in a process of
its own (DEBUG=1, no broker: the embedded default's eager background work) on a fresh
database: a copy of one migrated once (an SQLite file copied, a PostgreSQL database
made from a template), so no run pays for migrating or for deleting an earlier event.
Prints, per database, each run's seconds as the command reports them (the event, the
standings after each round and the ratings) and the whole process's (Python and
Django starting too), their median and best, the process's CPU seconds (less moved by
other work on the machine than the clock), and the load average around the runs.

    .venv/bin/python bench/demo_event.py                      # SQLite and PostgreSQL
    .venv/bin/python bench/demo_event.py --database-url sqlite --runs 5
    .venv/bin/python bench/demo_event.py --database-url postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench_demo
    .venv/bin/python bench/demo_event.py --against /tmp/old   # an earlier commit, in turns:
        # git archive COMMIT | tar -x -C /tmp/old
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from _setup import ROOT, command_line, create_database

POSTGRES = "postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench_demo"
REPORTED = re.compile(r"rounds in ([0-9.]+)s\.")


def environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env.update(DATABASE_URL=url, DEBUG="1", DJANGO_SETTINGS_MODULE="kalooki_site.settings")
    return env


def manage(url: str, *args: str, code: Path = ROOT) -> tuple[float, float, str]:
    """Run `manage.py args` of the project at `code` on `url`: (wall seconds, its CPU
    seconds, its output)."""
    started, used = time.perf_counter(), cpu_of_children()
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=code,
        env=environment(url),
        capture_output=True,
        text=True,
    )
    took, cpu = time.perf_counter() - started, cpu_of_children() - used
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return took, cpu, done.stdout


def cpu_of_children() -> float:
    """CPU seconds (user and system) of the finished child processes so far: what a run
    costs this side of the database, whatever else the machine runs meanwhile."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class SQLiteCopies:
    """A migrated SQLite file, copied afresh for every run."""

    def __init__(self, folder: Path) -> None:
        self.template = folder / "template.sqlite3"
        self.file = folder / "demo.sqlite3"
        manage(f"sqlite:///{self.template}", "migrate", "--noinput", "-v0")

    def fresh(self) -> str:
        for leftover in self.file.parent.glob(f"{self.file.name}*"):
            leftover.unlink()
        shutil.copyfile(self.template, self.file)
        return f"sqlite:///{self.file}"


class PostgresCopies:
    """A migrated PostgreSQL database, the template of a fresh one for every run."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.base, self.name = url.rsplit("/", 1)
        self.template = f"{self.name}_template"
        self.connect = lambda: psycopg.connect(f"{self.base}/postgres", autocommit=True)
        with self.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.template}"')
        create_database(f"{self.base}/{self.template}")
        manage(f"{self.base}/{self.template}", "migrate", "--noinput", "-v0")

    def fresh(self) -> str:
        with self.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
            conn.execute(f'CREATE DATABASE "{self.name}" TEMPLATE "{self.template}"')
        return self.url


def bench(label: str, copies, runs: int, players: int, rounds: int, codes: dict) -> None:
    """`runs` runs of each of `codes` (name -> the project's folder), taking turns."""
    args = ["demo_event", f"--players={players}", f"--rounds={rounds}", "--seed=7"]
    reported = {name: [] for name in codes}
    wall = {name: [] for name in codes}
    cpu = {name: [] for name in codes}
    before = Path("/proc/loadavg").read_text().split()[:3]
    for run in range(1, runs + 1):
        for name, code in codes.items():
            url = copies.fresh()
            load = os.getloadavg()[0]
            took, used, output = manage(url, *args, code=code)
            found = REPORTED.search(output)
            reported[name].append(float(found.group(1)) if found else float("nan"))
            wall[name].append(took)
            cpu[name].append(used)
            print(
                f"  {label}{name} run {run}: {reported[name][-1]:5.1f} s (process "
                f"{took:5.1f} s, its CPU {used:5.1f} s), load {load:.2f}"
            )
    after = Path("/proc/loadavg").read_text().split()[:3]
    for name in codes:
        print(
            f"{label}{name}: {players} x {rounds}, {runs} runs: median "
            f"{statistics.median(reported[name]):.1f} s, best {min(reported[name]):.1f} s "
            f"(whole process: median {statistics.median(wall[name]):.1f} s, best "
            f"{min(wall[name]):.1f} s; its CPU: median {statistics.median(cpu[name]):.1f} s)"
        )
    if len(codes) == 2:
        (first, a), (second, b) = ((n, statistics.median(reported[n])) for n in codes)
        print(f"{label}: {second.strip()} / {first.strip()} (medians): {b / a:.2f}x")
    print(f"{label}: load average {' '.join(before)} before, {' '.join(after)} after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        action="append",
        help="sqlite (a file of its own) or a PostgreSQL URL; again for more (default: both)",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--against",
        type=Path,
        help="another copy of the project (an earlier commit) to time in turns with this one",
    )
    options = parser.parse_args()
    codes = {"": ROOT}
    if options.against:
        codes = {" (against)": options.against.resolve(), " (this)": ROOT}
    print(f"$ {command_line()}")
    print(f"{os.cpu_count()} CPUs; load average {Path('/proc/loadavg').read_text().strip()}")
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as folder:
        for url in options.database_url or ["sqlite", POSTGRES]:
            if url.startswith("sqlite"):
                copies, label = SQLiteCopies(Path(folder)), "SQLite"
            else:
                copies, label = PostgresCopies(url), "PostgreSQL"
            bench(label, copies, options.runs, options.players, options.rounds, codes)


if __name__ == "__main__":
    main()
