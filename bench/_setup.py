"""Shared set-up for the benchmark scripts: a PostgreSQL database with a big event.

Not a test. Each script prints the command that produced its figures.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres:postgres@127.0.0.1:5432/kalooki_bench"


def setup_django(database_url: str | None = None) -> str:
    """Point Django at the benchmark database (created and migrated if needed)."""
    url = database_url or os.environ.get("BENCH_DATABASE_URL") or DEFAULT_DB
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings_test")
    sys.path.insert(0, str(ROOT))
    if url.startswith("postgres"):
        create_database(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return url


def create_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def big_event(players: int = 1024, rounds: int = 10, slug: str | None = None, live: bool = False):
    """The generated event, made once and reused by later runs."""
    from core.demo import DemoOptions, generate_demo_event
    from tournaments.models import Event

    slug = slug or f"bench-{players}-{rounds}{'-live' if live else ''}"
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        started = time.perf_counter()
        event = generate_demo_event(
            DemoOptions(players=players, rounds=rounds, seed=7, slug=slug, name=slug, live=live)
        )
        print(f"generated {slug} in {time.perf_counter() - started:.1f}s")
    return event


def command_line() -> str:
    return " ".join([Path(sys.executable).name, *sys.argv])


# A real Celery worker, one process, as the benchmarks run it.
CELERY_WORKER = [
    sys.executable, "-m", "celery", "-A", "kalooki_site", "worker", "--pool", "solo",
    "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO",
]  # fmt: skip


def start(args: list[str], env: dict, log: str | Path) -> subprocess.Popen:
    """A background process in its own session, its output in `log`."""
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=Path(log).open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:  # a process that did not end on time: ended
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(20)


def start_web(port: int, workers: int, env: dict, log: str | Path) -> subprocess.Popen:
    """gunicorn serving the site on 127.0.0.1:`port` with `workers` processes."""
    args = [sys.executable, "-m", "gunicorn", "kalooki_site.wsgi", "-w", str(workers)]
    args += ["-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    return start(args, env, log)


def site_env(database_url: str, broker: str, cache: str) -> dict[str, str]:
    """The environment of the web and worker processes a benchmark starts: production
    settings on this database, broker and cache, reached on 127.0.0.1 only."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CACHE_URL": cache,
        "DJANGO_SETTINGS_MODULE": "kalooki_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        # The server's throughput, not the API's rate limits: one load generator on
        # 127.0.0.1 is every client at once. Only the limits are lifted: each request
        # is still counted, at the same cost as under production's per-minute rates
        # (two window counters, `core.counters.count`).
        "API_RATE_ANON": "100000000/minute",
        "API_RATE_USER": "100000000/minute",
    }


def wait_for_port(port: int, tries: int = 300) -> None:
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
