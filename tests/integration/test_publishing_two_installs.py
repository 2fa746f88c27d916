"""Two installs, as an organiser runs the day (README, "Running the day at the venue"):
a venue on the embedded default (an SQLite file, Celery eager, its own web server and
publisher) publishes an event live to a site on PostgreSQL with a real Celery worker,
through a simulated thin, lossy line (`bench/line.py`: 1 Mbit/s, 150 ms each way,
dropped connections). The line is cut in the middle of a round and restored; the
site's archive must equal the venue's, every change applied once, and no save at the
venue slower with the line down than with it up.
"""

from __future__ import annotations

import re
import sqlite3
import statistics
import subprocess
import sys
import time

import pytest
import requests
from django.conf import settings
from django.db import connection

from core.publishing.links import create_link
from scoring.models import Hand
from tests.processes import (
    ROOT,
    Gunicorn,
    Process,
    Worker,
    bench_module,
    service_env,
    wait_until,
)
from tournaments.models import Event, PublishingLink

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

Line = bench_module("line").Line
SLUG = "venue-open"
HANDS_PER_PART = 8


@pytest.fixture(autouse=True)
def _needs_broker_and_postgres():
    assert settings.CELERY_BROKER_URL, "the site needs CELERY_BROKER_URL"
    assert connection.vendor == "postgresql", "the site needs PostgreSQL"


class Venue:
    """The venue's install: its own SQLite file, no broker, no shared cache."""

    def __init__(self, path):
        self.path = path
        self.env = service_env(DATABASE_URL=f"sqlite:///{path}", CELERY_BROKER_URL="", CACHE_URL="")

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}")
        return done

    def row(self, sql: str, *params):
        with sqlite3.connect(self.path, timeout=30) as db:
            return db.execute(sql, params).fetchone()

    def publication(self) -> tuple[int, int, str | None, str]:
        """(captured, acknowledged, unreachable_since, refused)."""
        found = self.row(
            "SELECT captured, acknowledged, unreachable_since, refused FROM tournaments_publication"
        )
        return found or (0, 0, None, "")


class Publisher(Process):
    def __init__(self, venue: Venue, site: str, link: str):
        self.name = "venue-publisher"
        self.spawn(
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "publish_event",
                SLUG,
                "--site",
                site,
                "--link",
                link,
                "--every",
                "0.5",
            ],
            venue.env,
        )


def record(url: str, token: str, table: int, hand: int) -> float:
    """Record a hand at the venue as a director's program does; the seconds it took."""
    started = time.monotonic()
    response = requests.put(
        f"{url}/api/v1/events/{SLUG}/rounds/3/tables/{table}/hands/{hand}/",
        json={
            "went_out": 1,
            "scores": [
                {"seat": 2, "points": 10 + hand},
                {"seat": 3, "points": 7},
                {"seat": 4, "points": 9},
            ],
        },
        headers={"Authorization": f"Token {token}"},
        timeout=30,
    )
    took = time.monotonic() - started
    assert response.status_code in (200, 201), response.text
    return took


def test_a_venue_publishes_through_a_thin_line_cut_and_restored(tmp_path):
    # The site: PostgreSQL, a real worker, gunicorn; the event empty, with its link.
    event = Event.objects.create(name="Venue Open (published)", slug=SLUG)
    secret = create_link(event=event)
    worker = Worker("site")
    site = Gunicorn()
    # The venue: its own install, an event of three rounds, the last just seated.
    venue = Venue(tmp_path / "venue.sqlite3")
    venue.manage("migrate", "--noinput")
    venue.manage("demo_director")
    token = re.search(r"Generated token (\w+)", venue.manage("drf_create_token", "director").stdout)
    venue.manage(
        *("demo_event", "--players", "16", "--rounds", "3", "--seed", "7"),
        *("--live", "--seated", "--slug", SLUG, "--name", "Venue Open"),
    )
    venue_web = Gunicorn(
        extra_env={
            "DATABASE_URL": f"sqlite:///{venue.path}",
            "CELERY_BROKER_URL": "",
            "CACHE_URL": "",
        },
        name="venue-gunicorn",
    )
    line = Line(to=f"127.0.0.1:{site.port}", rate_kbit=1000, delay_ms=150, drop=0.05, seed=4)
    line.start()
    publisher = Publisher(venue, line.url, secret)
    try:

        def caught_up() -> bool:
            captured, acknowledged, _since, refused = venue.publication()
            assert not refused, refused
            link = PublishingLink.objects.get(event=event)
            return captured > 0 and acknowledged == captured == link.acknowledged

        wait_until(caught_up, 120, "the whole event published")
        # Hands saved with the line up, then with it cut, in the middle of round 3.
        up = [record(venue_web.url, token[1], 1 + i % 4, 1 + i // 4) for i in range(HANDS_PER_PART)]
        line.down()
        down = [
            record(venue_web.url, token[1], 1 + i % 4, 3 + i // 4) for i in range(HANDS_PER_PART)
        ]
        wait_until(lambda: venue.publication()[2] is not None, 30, "the venue seeing the cut")
        captured_while_down = venue.publication()[0]
        assert captured_while_down > PublishingLink.objects.get(event=event).acknowledged
        line.up()
        wait_until(caught_up, 120, "the venue catching up after the line is back")
        assert venue.publication()[2] is None  # reachable again
        # A save never waits for the site.
        assert statistics.median(down) <= statistics.median(up) * 1.5 + 0.05, (up, down)
        assert max(down) < 1.0, down
        # The two copies agree, field for field, history included.
        compared = venue.manage(
            "compare_event", SLUG, "--site", site.url, "--link", secret, check=False
        )
        assert compared.returncode == 0, compared.stdout + compared.stderr
        assert "equals" in compared.stdout
        # Every change applied once: the site acknowledged exactly what the venue made,
        # and its hands are the venue's, once each.
        link = PublishingLink.objects.get(event=event)
        assert link.acknowledged == venue.publication()[0]
        assert link.refused_seq is None
        venue_hands = venue.row(
            "SELECT COUNT(*) FROM scoring_hand h JOIN tournaments_table t ON h.table_id = t.id "
            "JOIN tournaments_round r ON t.round_id = r.id JOIN tournaments_event e "
            "ON r.event_id = e.id WHERE e.slug = ?",
            SLUG,
        )[0]
        assert Hand.objects.filter(table__round__event=event).count() == venue_hands
        # The site's pages say where the results come from.
        page = requests.get(f"{site.url}/events/{SLUG}/", timeout=10)
        assert page.status_code == 200
    finally:
        for process in (publisher, venue_web, site, worker):
            process.stop()
        line.stop()
