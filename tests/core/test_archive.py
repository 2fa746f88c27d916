"""Event archives (core.archive, export_event, import_event): a round trip keeps
everything, and a damaged or incompatible archive is refused with nothing written."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import F

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.demo import DemoOptions, generate_demo_event
from scoring.models import Hand, HandScore, Penalty, Proposal, Standing
from tests.core.shared_events import event_of, played_event_pk, user_named
from tests.core.snapshot import compare, snapshot
from tests.fixtures import kept_for_the_module, make_user
from tournaments.models import Entry, Event, Player, PlayerCode, Round, Seat, Table

pytestmark = pytest.mark.django_db

ALL_MODELS = [
    *[Event, Player, Entry, Round, Table, Seat, PlayerCode],
    *[Hand, HandScore, Penalty, Proposal, Standing],
]
HISTORY_MODELS = [s.history_model for s in archive.HISTORY_SECTIONS]


def row_counts() -> dict[str, int]:
    counts = {m.__name__: m._default_manager.count() for m in ALL_MODELS + HISTORY_MODELS}
    counts["users"] = get_user_model()._default_manager.count()
    return counts


def forget(event: Event) -> None:
    """Make this database like another installation's: the event, its players and every
    history row gone (deleting leaves history rows behind, which a fresh site lacks)."""
    players = list(Player.objects.filter(entries__event=event).values_list("pk", flat=True))
    event.delete()
    Player.objects.filter(pk__in=players, entries__isnull=True).delete()
    for model in HISTORY_MODELS:
        model._default_manager.all().delete()


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> dict:
    """alice's played event (its pk) and its archive as text: made once for the module's
    tests."""

    def build() -> dict:
        pk = played_event_pk(director="alice")
        return {"event": pk, "text": archive.dumps(archive_export.export_event(event_of(pk)))}

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def alice(kept, db):
    """The director of the module's played event."""
    return user_named("alice")


@pytest.fixture
def event(kept, db) -> Event:
    """alice's played event, read afresh."""
    return event_of(kept["event"])


@pytest.mark.parametrize("source", ["services", "demo generator"])
def test_an_event_survives_export_delete_and_import_unchanged(alice, source):
    if source == "services":
        event = Event.objects.get(slug="kingston")
    else:
        event = generate_demo_event(DemoOptions(players=14, rounds=3, live=True, slug="demo"))
    slug = event.slug
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    expected = snapshot(event)
    forget(event)
    assert not Event.objects.filter(slug=slug).exists()

    director = alice if document["payload"]["event"]["directors"] else None
    imported = archive_import.import_event(raw=json.dumps(document), by=director)

    event = Event.objects.get(slug=slug)
    assert imported.event == event
    compare(document["payload"], archive_export.build_payload(event))
    compare(expected, snapshot(event))
    assert imported.players_created == len(document["payload"]["players"])


def test_the_round_trip_keeps_history_authors_dates_and_deleted_rows(event, alice):
    before = archive_export.build_payload(event)
    deleted_hand = [r for r in before["history"]["hands"] if r["history_type"] == "-"]
    assert deleted_hand, "the builder deletes a hand; its history must be exported"
    assert {r["history_user"] for r in before["history"]["hands"]} == {"alice"}
    text = archive.dumps(archive_export.export_event(event))
    forget(event)

    imported = archive_import.import_event(raw=text, by=alice)

    assert imported.authors_unknown == [] and imported.directors_not_granted == []
    after = archive_export.build_payload(imported.event)
    compare(before, after)
    hands = Hand.history.filter(history_type="-")
    assert hands.count() == len(deleted_hand)
    # The archive's author is kept as its name, never as the user of that name here.
    assert all(h.history_user is None for h in hands)
    assert all(h.history_change_reason.startswith("alice (imported)") for h in hands)


def test_an_archive_creates_no_user_and_makes_nobody_a_director(event, alice):
    """An archive's directors used to be matched by username (making a local user a
    director) and unknown ones were created as users."""
    text = archive.dumps(archive_export.export_event(event))
    forget(event)
    alice.delete()
    make_user("alice")  # someone else here with the same username
    users = get_user_model().objects.count()

    imported = archive_import.import_event(raw=text)

    assert get_user_model().objects.count() == users
    assert list(imported.event.directors.all()) == []
    assert imported.directors_not_granted == ["alice"]
    assert "were not made directors here" in imported.summary()
    forget(imported.event)
    get_user_model().objects.filter(username="alice").delete()
    imported = archive_import.import_event(raw=text)
    assert imported.authors_unknown == ["alice"]
    assert Hand.history.filter(history_user__isnull=True).exists()
    assert get_user_model().objects.count() == users - 1


def test_deleted_rows_keep_ids_no_new_row_will_take(event):
    text = archive.dumps(archive_export.export_event(event))
    forget(event)
    imported = archive_import.import_event(raw=text)
    deleted = set(Hand.history.filter(history_type="-").values_list("id", flat=True))
    live = set(Hand.objects.values_list("pk", flat=True))
    assert deleted and not deleted & live
    table = imported.event.rounds.get(number=2).tables.get(number=1)
    from core.services import record_hand
    from tests.fixtures import hand

    fresh = record_hand(table=table, number=3, entry=hand(3, 4)).hand  # seat 5 withdrew
    assert fresh.pk not in deleted


def test_a_round_quality_report_names_the_same_entries_after_import(event):
    round2 = event.rounds.get(number=2)
    first, second = Entry.objects.filter(event=event).order_by("pk")[:2]
    round2.quality = {"repeat_meetings": 1, "repeat_pairs": [[first.pk, second.pk]]}
    round2.save()
    names = {first.player.name, second.player.name}
    text = archive.dumps(archive_export.export_event(event))
    forget(event)
    imported = archive_import.import_event(raw=text)
    pair = imported.event.rounds.get(number=2).quality["repeat_pairs"][0]
    assert {e.player.name for e in Entry.objects.filter(pk__in=pair)} == names


def test_players_already_here_are_matched_not_duplicated(event, alice):
    text = archive.dumps(archive_export.export_event(event))
    imported = archive_import.import_event(raw=text, rename="kingston-copy", by=alice, held="copy")
    assert imported.players_matched == 9 and imported.players_created == 0
    assert Player.objects.count() == 9
    copy_ = archive_export.build_payload(imported.event)
    original = archive_export.build_payload(event)
    copy_["event"]["slug"] = original["event"]["slug"]
    compare(original, copy_)


def test_an_existing_slug_is_refused_unless_renamed(event):
    """Another event's archive (another identity) under a slug taken here."""
    document = archive_export.export_event(event)
    document["payload"]["event"]["uid"] = "0c6b2a52-4d0f-4a43-9a57-2d2c4b1f0e11"
    text = resigned(document)
    before = row_counts()
    with pytest.raises(archive.ArchiveError, match="is taken here.*--rename"):
        archive_import.import_event(raw=text)
    assert row_counts() == before
    with pytest.raises(archive.ArchiveError, match="not a valid event slug"):
        archive_import.import_event(raw=text, rename="no spaces please")
    with pytest.raises(archive.ArchiveError, match="address of a director's page"):
        archive_import.import_event(raw=text, rename="new")
    assert row_counts() == before


def resigned(document: dict) -> str:
    """The document with a checksum that matches its (edited) payload again."""
    document["checksum"] = archive.checksum(document["payload"])
    return json.dumps(document)


def edits():
    """(name, change to the document, what the error says)."""

    def set_(path, value):
        def change(doc):
            target = doc
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            return json.dumps(doc)

        return change

    def resign(path, value):
        def change(doc):
            set_(path, value)(doc)
            return resigned(doc)

        return change

    def add_field(doc):
        doc["payload"]["seats"][0]["colour"] = "red"
        return resigned(doc)

    def drop_field(doc):
        del doc["payload"]["hands"][0]["contract"]
        return resigned(doc)

    def drop_section(doc):
        del doc["payload"]["penalties"]
        return resigned(doc)

    return [
        ("truncated", lambda doc: json.dumps(doc)[:5000], "cannot be read as JSON"),
        ("not json", lambda doc: "hello", "cannot be read as JSON"),
        ("binary", lambda doc: b"\xff\xfe\x00", "cannot be read as JSON"),
        ("another format", set_(["format"], "django-fixture"), "not a Kalooki event archive"),
        (
            "a newer version",
            set_(["version"], archive.VERSION + 1),
            f"newer version.*version {archive.VERSION + 1}",
        ),
        ("no version", set_(["version"], "1"), "no format version"),
        ("an edited score", set_(["payload", "hand_scores", 0, "score"], 1), "corrupted"),
        ("no checksum", set_(["checksum"], None), "no checksum"),
        ("an unknown field", add_field, "unknown colour"),
        ("a missing field", drop_field, "missing contract"),
        ("a missing section", drop_section, "missing penalties"),
        ("a dangling reference", resign(["payload", "seats", 0, "table"], 999), "no tables row"),
        ("a bad value", resign(["payload", "hand_scores", 0, "score"], "lots"), "score"),
        ("a bad choice", resign(["payload", "hands", 0, "outcome"], "won"), "outcome"),
        ("a bad date", resign(["payload", "entries", 0, "registered_at"], "soon"), "registered"),
        (
            "a bad history type",
            resign(["payload", "history", "seats", 0, "history_type"], "?"),
            "history_type",
        ),
        ("a duplicate id", resign(["payload", "rounds", 1, "id"], 1), "given twice"),
    ]


@pytest.fixture
def archived(kept, event) -> str:
    """The archive of alice's played event, as text, and the event forgotten here (as if
    this were another site)."""
    forget(event)
    return kept["text"]


@pytest.mark.parametrize(("name", "change", "message"), edits(), ids=[e[0] for e in edits()])
def test_a_damaged_or_incompatible_archive_is_refused_and_nothing_is_written(
    alice, archived, name, change, message
):
    before = row_counts()
    with pytest.raises(archive.ArchiveError, match=message):
        archive_import.import_event(raw=change(json.loads(archived)))
    assert row_counts() == before


def test_an_archive_the_database_refuses_writes_nothing(event):
    """Every check passes, but two seats give one entry twice in a round: the database's
    constraint refuses it part-way through, and everything before is rolled back."""
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    seats = document["payload"]["seats"]
    same_round = [s for s in seats if s["round"] == seats[0]["round"]]
    same_round[1]["entry"] = same_round[0]["entry"]
    forget(event)
    before = row_counts()
    with pytest.raises(archive.ArchiveError, match="could not be stored"):
        archive_import.import_event(raw=resigned(document))
    assert row_counts() == before


def test_the_archive_covers_every_field_of_every_model():
    """A field added to a model must be added to the archive (and the format version
    raised): this fails until it is."""
    for section in archive.SECTIONS:
        fields = {f.name for f in section.model._meta.concrete_fields}
        covered = (
            section.keys | {"id"} | ({"event"} if section.name in archive.IMPLICIT_EVENT else set())
        )
        assert fields == covered, section.name
        if section.history:
            history = {f.name for f in section.history_model._meta.concrete_fields}
            assert history == fields | set(archive.HISTORY_FIELDS) | {"history_id"}, section.name
    event_fields = {f.name for f in Event._meta.concrete_fields}
    assert event_fields == (
        set(archive.EVENT_FIELDS) | set(archive.EVENT_LINKS) | set(archive.EVENT_LOCAL) | {"id"}
    )
    assert [f.name for f in Event._meta.many_to_many] == ["directors"]


def test_the_checksum_is_of_the_payload_in_canonical_json(event):
    document = archive_export.export_event(event)
    assert document["format"] == "kalooki-event" and document["version"] == 4
    reordered = json.loads(json.dumps(document["payload"], sort_keys=False, indent=3))
    assert archive.checksum(reordered) == document["checksum"]
    assert len(document["checksum"]) == 64


def test_export_runs_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    with django_assert_max_num_queries(25):  # one per section, and the event's own
        archive_export.build_payload(event)


# --- the commands ------------------------------------------------------------------------


def test_the_commands_move_an_event(event, tmp_path):
    out = io.StringIO()
    call_command("export_event", "kingston", stdout=out)
    path = tmp_path / "event.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    before = archive_export.build_payload(event)
    forget(event)
    done = io.StringIO()
    call_command("import_event", str(path), "--director", "alice", stdout=done)
    assert "Imported 'Kingston Kalooki Open' as 'kingston'" in done.getvalue()
    compare(before, archive_export.build_payload(Event.objects.get(slug="kingston")))


def test_the_import_command_renames_and_adds_a_director(event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", "kingston", "--output", str(path), stderr=io.StringIO())
    bob = make_user("bob")
    call_command(
        "import_event",
        str(path),
        "--rename",
        "kingston-2",
        "--copy",
        "--director",
        "bob",
        stdout=io.StringIO(),
    )
    copy_ = Event.objects.get(slug="kingston-2")
    assert list(copy_.directors.all()) == [bob]


def test_the_commands_report_clear_errors(event, tmp_path):
    with pytest.raises(CommandError, match="No event 'nowhere'"):
        call_command("export_event", "nowhere")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_event", str(tmp_path / "missing.json"))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(archive.dumps(archive_export.export_event(event))[:-200], encoding="utf-8")
    before = row_counts()
    with pytest.raises(CommandError, match="cannot be read as JSON"):
        call_command("import_event", str(damaged))
    assert row_counts() == before


def test_the_archive_is_ascii_text_and_names_come_back_exactly(event):
    Player.objects.filter(name="Andre Brown").update(name="Zoë Łukasz-Brown 山田")
    text = archive.dumps(archive_export.export_event(event))
    assert text.isascii()
    forget(event)
    archive_import.import_event(raw=text.encode("utf-16"))
    assert Entry.objects.filter(player__name="Zoë Łukasz-Brown 山田").exists()


def as_version_1(document: dict) -> dict:
    """The document as this software wrote it in format version 1: no agreed variants,
    no closed tables, incomplete sets or rounds' history."""
    payload = copy.deepcopy(document["payload"])
    for name in ("overcall_penalty", "trinidad_doubling", "penalty_per_hand"):
        del payload["event"][name]
    for row in [*payload["tables"], *payload["history"]["tables"]]:
        del row["closed_after_hand"]
    for row in payload["standings"]:
        del row["sets_incomplete"], row["incomplete"]
    del payload["history"]["rounds"]
    return {**document, "version": 1, "payload": payload}


def test_a_version_1_archive_is_upgraded_as_it_is_read(event):
    Event.objects.filter(pk=event.pk).update(slug="old-open")
    event.refresh_from_db()
    three = event.rounds.get(number=2).tables.get(number=2)
    for seat in three.seats.order_by("position")[:2]:  # a four left with two players
        seat.left_after_hand = 3
        seat.save()
    for penalty in Penalty.objects.filter(kind="overcall"):  # an amount of its own
        extra = 150 - penalty.points
        penalty.points = 150
        penalty.save()
        HandScore.objects.filter(hand=penalty.hand, seat=penalty.seat).update(
            penalty_points=F("penalty_points") + extra, score=F("score") + extra
        )
    document = as_version_1(json.loads(archive.dumps(archive_export.export_event(event))))
    forget(event)
    archive_import.import_event(raw=resigned(document))
    event = Event.objects.get(slug="old-open")
    # Penalties of another amount meant the event allowed them; nothing else was agreed.
    assert (event.overcall_penalty, event.trinidad_doubling, event.penalty_per_hand) == (
        True,
        False,
        True,
    )
    table = Table.objects.get(round__event=event, round__number=2, number=2)
    assert table.closed_after_hand == 3  # from its seats' leave points
    assert not Round.history.filter(event_id=event.pk).exists()
