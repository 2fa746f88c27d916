"""Run the whole site on one machine, each process restarted when it exits:
`manage.py run_processes`. The README's deploy section starts this (under systemd,
`deploy/kalooki.service`), and nothing else.

- web: gunicorn, `--web-workers` processes (one a core and one more, at most four,
  unless told) with `--threads` threads each, on `--bind`;
- worker: a Celery worker (`--worker-concurrency` processes);
- beat: Celery beat, sending the periodic catch-up (only one per site);
- standby: rebuilds here whatever no worker has rebuilt within
  REBUILD_HERE_AFTER_SECONDS (`manage.py rebuild_overdue`), so the standings come
  right even while no worker can take jobs;
- publisher: publishes each event set to publish to its site (`manage.py
  publish_event --all`, `core.publishing`);
- push: with LIVE_PUSH on, uvicorn on `--push-bind`, sending each new version to the
  open leaderboards (`public.push`; a proxy in front routes their streams to it).

Without CELERY_BROKER_URL (the embedded default) the jobs run in the web process and
there is no worker or beat to run.
"""

from __future__ import annotations

import os
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.processes.supervisor import Program, Supervisor

PROGRAMS = ("web", "worker", "beat", "standby", "publisher", "push")
# Seconds a web worker keeps an idle connection: a little longer than the live pages'
# polls are apart.
KEEP_ALIVE = max(settings.PUBLIC_POLL_SECONDS, settings.ENTRY_POLL_SECONDS) + 2
# With a worker beside it, the web server gives way to it when every core is busy: a
# saved hand's standings are rebuilt and announced first, and the polls that bring them
# wait their turn (a national championship's load leaves no core idle: bench/national.py,
# docs/benchmarks.md, "A national championship, third pass"). Without a worker the
# rebuilds run in the web process and it keeps the usual priority.
WEB_NICENESS = 5
# Each gunicorn thread that builds a big page leaves the C allocator's arena it used at
# that high-water mark; two arenas per process keep a web process's memory level over a
# day of pages (a national championship's: +1.2% / -3.0% after warm-up against +3.5% /
# +4.7%, peaks 358 / 346 MiB against 387 / 404, bench/memory.py, docs/benchmarks.md,
# "A national championship, fifth pass"), unless the environment says otherwise.
WEB_ARENAS = "2"


# The most web processes the default starts, whatever the machine: the four it started
# before, so that processes x threads (a PostgreSQL connection each) and their memory
# (about 350 MiB each on a national championship) stay where they were.
MOST_WEB_WORKERS = 4


def cores() -> int:
    """The cores this process may run on (its CPU affinity: the cores it is pinned to,
    not a container's CPU quota)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def default_web_workers() -> int:
    """One web process a core and one more, at most MOST_WEB_WORKERS: each runs one
    thread of Python at a time, and more of them only take CPU from the worker
    rebuilding the standings every screen waits for; one more than the cores so that a
    process held up (reading a big document back) leaves every core served. On a 2-core
    machine under a national championship's load a saved hand reached every open page
    at p95 1.41-1.70 s with three web processes against 1.73-1.91 s with four, with
    fewer requests over 2 s; with two, sooner still (1.17-1.40 s) but with more of the
    phones' requests held up (docs/benchmarks.md, "Every goal measured on one machine,
    fifteenth pass")."""
    return min(cores() + 1, MOST_WEB_WORKERS)


def programs(
    *,
    bind: str,
    web_workers: int,
    threads: int,
    worker_concurrency: int,
    push_bind: str = "127.0.0.1:8001",
) -> dict[str, list[str]]:
    python = sys.executable
    push_host, _, push_port = push_bind.rpartition(":")
    celery = [python, "-m", "celery", "-A", "kalooki_site"]
    return {
        "web": [
            *(python, "-m", "gunicorn", "kalooki_site.wsgi"),
            *("--bind", bind, "--workers", str(web_workers), "--threads", str(threads)),
            # Threads: a request held up (a save waiting for a busy table, at most
            # LOCK_WAIT_SECONDS) holds one thread, not a whole process.
            *("--worker-class", "gthread"),
            # An open page's connection is kept between its polls (gunicorn's default
            # closes it after 2 s), not opened again for each: bench/national.py,
            # docs/benchmarks.md ("Connections kept between polls").
            *("--keep-alive", str(KEEP_ALIVE)),
            # Without a broker, a save is answered before the standings rebuild it
            # queued (core.background): the rebuild holds no request's thread.
            *("--env", "JOBS_AFTER_RESPONSE=1"),
        ],
        "worker": [
            *celery,
            *("worker", "--loglevel", "INFO", "--concurrency", str(worker_concurrency)),
            *("--without-gossip", "--without-mingle"),
        ],
        "beat": [*celery, "beat", "--loglevel", "INFO"],
        "standby": [
            python,
            str(settings.BASE_DIR / "manage.py"),
            "rebuild_overdue",
            "--every",
            str(settings.CATCH_UP_SECONDS),
        ],
        # Sends the changes of every event set to publish to its site (a venue install;
        # with none set, it only looks now and then).
        "publisher": [python, str(settings.BASE_DIR / "manage.py"), "publish_event", "--all"],
        # One process, one event loop: every open leaderboard's stream is a coroutine,
        # not a thread.
        "push": [
            *(python, "-m", "uvicorn", "kalooki_site.asgi:application"),
            *("--host", push_host, "--port", push_port, "--lifespan", "off"),
            *("--no-access-log", "--timeout-keep-alive", str(KEEP_ALIVE)),
        ],
    }


class Command(BaseCommand):
    help = (
        "Run the web server, the Celery worker and beat and the standby, restarting whatever exits."
    )

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="127.0.0.1:8000", help="gunicorn's address")
        parser.add_argument(
            "--web-workers",
            type=int,
            default=default_web_workers(),
            help="gunicorn's processes (default: one a core and one more, at most four)",
        )
        parser.add_argument("--threads", type=int, default=8, help="threads per web worker")
        parser.add_argument("--worker-concurrency", type=int, default=2)
        parser.add_argument(
            "--push-bind", default="127.0.0.1:8001", help="the push server's address"
        )
        parser.add_argument(
            "--only",
            default=",".join(PROGRAMS),
            help=f"which to run, comma-separated (default: all of {', '.join(PROGRAMS)})",
        )

    def handle(
        self, *args, bind, web_workers, threads, worker_concurrency, push_bind, only, **options
    ):
        wanted = [name.strip() for name in only.split(",") if name.strip()]
        unknown = sorted(set(wanted) - set(PROGRAMS))
        if unknown or not wanted:
            raise CommandError(f"--only takes some of {', '.join(PROGRAMS)}.")
        if not settings.CELERY_BROKER_URL:
            wanted = [name for name in wanted if name not in ("worker", "beat")]
            self.stderr.write(
                "No CELERY_BROKER_URL: jobs run in the web process; no worker or beat."
            )
        if not settings.LIVE_PUSH and "push" in wanted:
            wanted.remove("push")
            if only != ",".join(PROGRAMS):
                self.stderr.write("LIVE_PUSH is off: the leaderboards poll; no push server.")
        commands = programs(
            bind=bind,
            web_workers=web_workers,
            threads=threads,
            worker_concurrency=worker_concurrency,
            push_bind=push_bind,
        )
        niceness = {"web": WEB_NICENESS} if "worker" in wanted else {}
        web_env = {"MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", WEB_ARENAS)}
        Supervisor(
            [
                Program(
                    name,
                    commands[name],
                    cwd=str(settings.BASE_DIR),
                    niceness=niceness.get(name, 0),
                    env=web_env if name == "web" else {},
                )
                for name in wanted
            ]
        ).run()
