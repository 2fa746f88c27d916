"""The move the archive exists for: an event run on a venue laptop (the embedded SQLite
default) goes to the public site on PostgreSQL, and back again, without loss.

The venue is a real SQLite file driven by `manage.py` in a subprocess; the site is this
test run's PostgreSQL database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tests.core.snapshot import compare, snapshot
from tests.fixtures import make_user
from tournaments.models import Event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

BUILD_VENUE_EVENTS = """
from tests.fixtures import make_user
from tests.fixtures import played_event
from core.demo import DemoOptions, generate_demo_event
played_event(slug="venue-open", director=make_user("alice"))
generate_demo_event(DemoOptions(players=13, rounds=2, live=True, slug="venue-demo", seed=3))
"""
DUMP = """
import json
from tests.core.snapshot import snapshot
from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tournaments.models import Event
event = Event.objects.get(slug={slug!r})
print(json.dumps({{"payload": archive_export.build_payload(event), "snapshot": snapshot(event)}}))
"""


class Venue:
    """`manage.py` on a laptop's SQLite file."""

    def __init__(self, path: Path):
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("CELERY_BROKER_URL", "CACHE_URL", "DATABASE_URL")
        }
        self.env["DATABASE_URL"] = f"sqlite:///{path}"
        self.env["DJANGO_SETTINGS_MODULE"] = "kalooki_site.settings_test"

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=settings.BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def dump(self, slug: str) -> dict:
        return json.loads(self.run("shell", "--no-imports", "-c", DUMP.format(slug=slug)))


@pytest.fixture(scope="module")
def venue(tmp_path_factory) -> Venue:
    """A laptop's database with two events: one played through the services (users,
    corrections, a redeal, a deleted hand, a withdrawal), one from the demo generator."""
    venue = Venue(tmp_path_factory.mktemp("venue") / "venue.sqlite3")
    venue.run("migrate", "--noinput", "-v", "0")
    venue.run("shell", "--no-imports", "-c", BUILD_VENUE_EVENTS)
    return venue


@pytest.mark.parametrize("slug", ["venue-open", "venue-demo"])
def test_an_event_moves_from_a_venue_sqlite_file_to_postgresql_and_back(venue, tmp_path, slug):
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    exported = venue.run("export_event", slug)
    at_venue = venue.dump(slug)
    assert json.loads(exported)["database"] == "sqlite"

    # Into PostgreSQL, in this process, where the director has an account too (an
    # archive names users but creates none, and makes only the importer's choice director).
    directed = bool(at_venue["payload"]["event"]["directors"])
    director = make_user("alice") if directed else None
    imported = archive_import.import_event(raw=exported, by=director)
    event = Event.objects.get(slug=slug)
    assert imported.event == event
    compare(at_venue["payload"], archive_export.build_payload(event))
    compare(at_venue["snapshot"], snapshot(event))

    # And back to the laptop, beside the original: the same event, so kept as a copy.
    back = tmp_path / "back.json"
    back.write_text(archive.dumps(archive_export.export_event(event)), encoding="utf-8")
    venue.run(
        "import_event",
        str(back),
        "--copy",
        "--rename",
        f"{slug}-back",
        *(["--director", "alice"] * directed),
    )
    returned = venue.dump(f"{slug}-back")
    for document in (returned["payload"]["event"], returned["snapshot"]["event"]):
        assert document["slug"] == f"{slug}-back"
        document["slug"] = slug
    compare(at_venue, returned)
