"""Redis (broker and cache) killed with SIGKILL, again and again, while a rebuild is
running and more rebuilds wait in the queue, on the site as the README deploys it:
every process under `manage.py run_processes`, PostgreSQL, a private redis-server.

After each time Redis comes back, the standings equal a full rebuild within
RECOVERY_SECONDS, with no further save; and at the end a worker is running (the same
one, or one the supervisor restarted) and `manage.py check_worker` says it takes jobs.
A worker that exits all the same is started again by the supervisor.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest
import requests
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from core import background, derived
from core.services import refresh_standings
from scoring.models import Standing
from tests.fixtures import make_alice, make_event, make_round
from tests.integration.test_celery_worker import holding_event_lock
from tests.processes import Process, RedisServer, free_port, service_env, wait_until
from tournaments.models import Event

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

KILLS = 3
# After Redis returns: the worker reconnects (a few seconds), beat's next catch-up
# (every 10 s) queues what has been stale for over 10 s, the rebuild takes well under
# a second. Measured here: 9 to 15 s.
RECOVERY_SECONDS = 30
FIGURES = ("entry_id", "round_id", "rank", "points", "table_points", "hands_won", "status")


@pytest.fixture(autouse=True)
def _needs_postgres():
    assert connection.vendor == "postgresql", "fault tests need PostgreSQL"
    assert settings.CELERY_BROKER_URL, "fault tests run with the worker tests"


class Site(Process):
    """`manage.py run_processes`: gunicorn, a prefork worker, beat and the standby."""

    def __init__(self, env: dict[str, str]):
        self.name, self.port = "supervised", free_port()
        self.spawn(
            [
                *(sys.executable, "manage.py", "run_processes", "--bind", f"127.0.0.1:{self.port}"),
                *("--web-workers", "2", "--worker-concurrency", "2"),
            ],
            service_env(**env),
        )
        wait_until(self.answers, 30, "the supervised site starting")
        wait_until(lambda: "ready." in self.output(), 30, "the worker starting")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answers(self) -> bool:
        assert self.process.poll() is None, f"run_processes exited:\n{self.output()}"
        try:
            return requests.get(f"{self.url}/healthz", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    def worker_pids(self) -> list[int]:
        """The pid of each start of the worker, as the supervisor logged them."""
        return [
            int(line.rsplit("pid ", 1)[1].rstrip(").\n"))
            for line in self.output().splitlines()
            if line.startswith("Started worker (pid ")
        ]


def hand_body(points: int) -> dict:
    scores = [{"seat": 2, "points": points}, {"seat": 3, "points": 7}, {"seat": 4, "points": 9}]
    return {"went_out": 1, "scores": scores}


def standings(event: Event) -> list[tuple]:
    return list(
        Standing.objects.filter(event=event).order_by("round", "entry").values_list(*FIGURES)
    )


def full_rebuild(event: Event) -> list[tuple]:
    """What the standings are when every hand score is added up again."""
    refresh_standings(event=event, full=True)
    return standings(event)


def killed(redis: RedisServer) -> None:
    os.killpg(redis.process.pid, signal.SIGKILL)
    redis.process.wait(10)


def test_redis_killed_while_rebuilding_and_jobs_wait_the_standings_come_right_and_a_worker_runs():
    alice = make_alice()
    event = make_event(slug="faults", name="Fault Open")
    event.directors.add(alice)
    make_round(event, table_sizes=(4,))
    redis = RedisServer()
    env = {"CELERY_BROKER_URL": redis.url(0), "CACHE_URL": redis.url(1)}
    env |= {"SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0"}
    site = Site(env)
    director = requests.Session()
    director.headers["Authorization"] = f"Token {Token.objects.create(user=alice).key}"
    hands = f"{site.url}/api/v1/events/faults/rounds/1/tables/1/hands"
    took = []
    try:
        for kill in range(KILLS):
            taken = site.output().count("core.refresh_standings[")
            with holding_event_lock(event):  # the rebuild the worker takes waits on it
                for number in (1, 2, 3):  # ...and the jobs of the later saves queue up
                    saved = director.put(f"{hands}/{number}/", json=hand_body(10 * kill + number))
                    assert saved.status_code == 200, saved.text
                wait_until(
                    lambda taken=taken: site.output().count("core.refresh_standings[") > taken,
                    10,
                    "the worker taking a rebuild",
                )
                time.sleep(0.5)
                killed(redis)
            time.sleep(2)  # the rebuild finishes while Redis is down
            redis.start()
            back = time.monotonic()
            wait_until(
                lambda: not derived.is_dirty(background.STANDINGS, event.pk),
                RECOVERY_SECONDS,
                f"the standings after Redis came back ({kill + 1} of {KILLS})",
            )
            took.append(time.monotonic() - back)
            rebuilt = standings(event)
            assert rebuilt == full_rebuild(event)
            assert [row[3] for row in rebuilt] == [0, 30 * kill + 6, 21, 27]
        print("standings right after Redis came back: " + ", ".join(f"{t:.1f}s" for t in took))

        workers = site.worker_pids()
        assert workers, site.output()
        os.kill(workers[-1], 0)  # the worker running now: alive
        assert "Unrecoverable error" not in site.output() or len(workers) > 1
        call_command("check_worker")  # a worker ran the catch-up within the last minute

        # A worker that exits anyway (as with the transport's AttributeError) is started
        # again by the supervisor, and the next save's standings follow.
        os.kill(workers[-1], signal.SIGKILL)
        wait_until(lambda: len(site.worker_pids()) == len(workers) + 1, 10, "a new worker")
        saved = director.put(f"{hands}/4/", json=hand_body(1))
        assert saved.status_code == 200, saved.text
        back = time.monotonic()
        wait_until(
            lambda: [row[3] for row in standings(event)] == [0, 30 * (KILLS - 1) + 7, 28, 36],
            RECOVERY_SECONDS,
            "the standings after the worker was restarted",
        )
        print(f"standings right {time.monotonic() - back:.1f}s after the save")
        assert requests.get(f"{site.url}/events/faults/", timeout=10).status_code == 200
    finally:
        site.stop()
        redis.stop()
