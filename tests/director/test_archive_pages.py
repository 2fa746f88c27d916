"""The event archive from the director's pages: download it from the
dashboard, import it from the events list; who may, and a refused archive writes
nothing."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile

from core import archive
from tests.core.shared_events import event_of, played_event_pk, user_named
from tests.fixtures import kept_for_the_module
from tests.html import signed_in
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> int:
    """alice's played event (its pk): made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, lambda: played_event_pk(director="alice"))


@pytest.fixture
def alice(kept, db):
    """The director of the module's played event."""
    return user_named("alice")


@pytest.fixture
def event(kept, db):
    return event_of(kept)


def may_create_events(user) -> None:
    user.user_permissions.add(Permission.objects.get(codename="add_event"))


def upload(text: str | bytes, name: str = "event.json") -> SimpleUploadedFile:
    data = text.encode() if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_the_dashboard_downloads_the_events_archive(event, alice):
    director = signed_in(alice)
    page = director.get("/director/kingston/").content.decode()
    assert 'href="/director/kingston/archive.json"' in page
    response = director.get("/director/kingston/archive.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="kingston-')
    document = json.loads(response.content)
    assert document["format"] == archive.FORMAT
    assert document["payload"]["event"]["slug"] == "kingston"


def test_only_the_events_directors_download_it(event, bob):
    assert signed_in(bob).get("/director/kingston/archive.json").status_code == 404
    response = signed_in(None).get("/director/kingston/archive.json")
    assert response.status_code == 302


def test_an_archive_is_imported_as_a_new_event_the_importer_directs(event, alice):
    may_create_events(alice)
    director = signed_in(alice)
    text = director.get("/director/kingston/archive.json").content
    assert "Import an event archive" in director.get("/director/").content.decode()
    response = director.post(
        "/director/archive/import/",
        {"archive": upload(text), "rename": "kingston-copy", "held": "copy"},
    )
    assert response.status_code == 302 and response["Location"] == "/director/kingston-copy/"
    copy = Event.objects.get(slug="kingston-copy")
    assert list(copy.directors.all()) == [alice]
    assert copy.entries.count() == event.entries.count()
    assert copy.rounds.count() == event.rounds.count()


def test_a_damaged_archive_or_a_taken_slug_is_refused_and_nothing_written(event, alice):
    may_create_events(alice)
    director = signed_in(alice)
    text = director.get("/director/kingston/archive.json").content.decode()
    before = Event.objects.count()
    response = director.post("/director/archive/import/", {"archive": upload(text), "held": "copy"})
    assert response.status_code == 400 and "kingston" in response.content.decode()
    damaged = text.replace('"Kingston Kalooki Open"', '"Kingston Kalooki Open!"', 1)
    response = director.post("/director/archive/import/", {"archive": upload(damaged)})
    assert response.status_code == 400 and "checksum does not match" in response.content.decode()
    response = director.post("/director/archive/import/", {"archive": upload(b"\xff\x00")})
    assert response.status_code == 400 and "not an event archive" in response.content.decode()
    response = director.post("/director/archive/import/", {})
    assert response.status_code == 400 and "Choose an event archive" in response.content.decode()
    assert Event.objects.count() == before


def test_only_a_user_who_may_create_events_imports(event, alice):
    response = signed_in(alice).get("/director/archive/import/")
    assert response.status_code == 404
    response = signed_in(None).get("/director/archive/import/")
    assert response.status_code == 302
