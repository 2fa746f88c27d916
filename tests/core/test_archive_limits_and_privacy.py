"""What an archive may bring is bounded and says nothing it should not: every list has a
stated bound (checked before anything is written), text no field can take is refused,
players are matched only among those the importer may see, a taken slug is answered
the same whatever the importer may see, and history's authors stay names from the
archive, never users of this site."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.contrib.auth import get_user_model

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from scoring.models import Hand
from tests.core.shared_events import event_of, played_event_pk
from tests.fixtures import kept_for_the_module, make_entries, make_event, make_user
from tournaments.models import Announcement, Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> dict:
    """The payload of alice's played event, which stays held here: made once for the
    module's tests."""

    def build() -> dict:
        return archive_export.build_payload(event_of(played_event_pk(director="alice")))

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def payload(exported, db):
    payload = copy.deepcopy(exported)
    payload["event"]["slug"] = "moved"
    payload["event"]["uid"] = str(uuid.uuid4())  # another event, not one held here
    return payload


def archive_of(payload: dict) -> str:
    return archive.dumps(
        {
            "format": archive.FORMAT,
            "version": archive.VERSION,
            "checksum": archive.checksum(payload),
            "payload": payload,
        }
    )


def test_an_archive_with_more_announcements_than_the_bound_is_refused_naming_both(payload):
    bound = archive.MAX_ROWS["announcements"]
    one = payload["announcements"][0]
    payload["announcements"] = [dict(one) for _ in range(bound + 1)]
    announcements = Announcement.objects.count()
    with pytest.raises(archive.ArchiveError) as refused:
        archive_import.import_event(raw=archive_of(payload))
    assert f"announcements: {bound + 1:,} rows, more than the {bound:,}" in str(refused.value)
    assert Announcement.objects.count() == announcements
    assert not Event.objects.filter(slug="moved").exists()


def test_a_sections_history_is_bounded_too(payload):
    bound = archive.MAX_ROWS["rounds"] * archive.HISTORY_ROWS_PER_ROW
    row = payload["history"]["rounds"][0]
    payload["history"]["rounds"] = [dict(row) for _ in range(bound + 1)]
    with pytest.raises(archive.ArchiveError, match="the history of rounds: .* more than"):
        archive_import.import_event(raw=archive_of(payload))


@pytest.mark.parametrize(("section", "field"), [("players", "name"), ("announcements", "text")])
def test_a_control_character_in_the_archives_text_is_refused_naming_the_field(
    payload, section, field
):
    payload[section][0][field] = "Ann\x1b[2J"
    with pytest.raises(archive.ArchiveError, match=f"{section} row 1, {field}: .*control"):
        archive_import.import_event(raw=archive_of(payload))
    assert not Event.objects.filter(slug="moved").exists()


def test_a_player_of_others_private_events_only_is_not_matched(payload, bob):
    secret = make_event(slug="secret", public=False)
    entry = make_entries(secret, 1)[0]
    first = payload["players"][0]
    Player.objects.filter(pk=entry.player_id).update(
        name=first["name"], club=first["club"], country=first["country"] or ""
    )
    hidden = Player.objects.get(pk=entry.player_id)
    # The event and its own players are gone from this site: only the hidden one matches.
    Event.objects.filter(slug="kingston").delete()
    Player.objects.filter(entries__isnull=True).delete()

    imported = archive_import.import_event(raw=archive_of(payload), by=bob)

    assert not imported.event.entries.filter(player=hidden).exists()
    assert imported.event.entries.filter(player__name=first["name"]).count() == 1


def test_the_command_line_matches_every_player(payload):
    first = payload["players"][0]
    found = Player.objects.filter(name=first["name"], club=first["club"]).first()
    imported = archive_import.import_event(raw=archive_of(payload))
    assert imported.event.entries.filter(player=found).exists()


def test_a_taken_slug_is_answered_alike_for_a_private_and_a_public_event(payload, bob):
    make_event(slug="secret-open", public=False)
    make_event(slug="open-open", public=True)
    messages = []
    for slug in ("secret-open", "open-open"):
        with pytest.raises(archive.ArchiveError) as refused:
            archive_import.import_event(raw=archive_of(payload), rename=slug, by=bob)
        messages.append(str(refused.value).replace(slug, "SLUG"))
    assert messages[0] == messages[1]
    assert "is taken" in messages[0] and "event" not in messages[0].split(";")[0]


def test_history_names_its_authors_as_text_never_as_users_here(payload, bob):
    make_user("root")  # a user here whom the archive names as the author of its changes
    for row in payload["history"]["hands"]:
        row["history_user"] = "root"
    users = get_user_model().objects.count()

    imported = archive_import.import_event(raw=archive_of(copy.deepcopy(payload)), by=bob)

    assert get_user_model().objects.count() == users
    hands = Hand.history.filter(table__round__event=imported.event)
    assert hands.exists()
    assert not hands.filter(history_user__isnull=False).exists()
    assert all(h.history_change_reason.startswith("root (imported)") for h in hands)
    again = archive_export.build_payload(imported.event)["history"]["hands"]
    assert {row["history_user"] for row in again} == {"root"}
