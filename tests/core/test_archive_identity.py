"""An event is one event wherever it goes: its identity travels in its archive, and an
archive of an event this site holds already replaces it or is kept as a copy, never
counted twice (core.archive.importer, core.archive.replacing, core.copies)."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from core import archive, selectors, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.archive.replacing import AlreadyHeld
from core.errors import Forbidden, StateConflict
from core.ratings.selectors import player_summary
from game.identity import derived_uid
from scoring.models import PlayerRating, SeriesStanding
from tests.core.ratings_world import closed_round, players
from tests.core.snapshot import compare
from tests.core.test_archive import forget, resigned
from tests.fixtures import kept_for_the_module, make_alice, make_event
from tournaments.models import Event, Round, Series

pytestmark = pytest.mark.django_db


def negril() -> int:
    """Negril Open: eight rated players, three rounds played and closed (its last
    planned round: final), a leg of alice's public circuit; ratings and the series'
    standings up to date. Its id."""
    alice = make_alice()
    cast = players(8)
    event = make_event(slug="negril", name="Negril Open", rounds_planned=3)
    event.directors.add(alice)
    for n in range(1, 4):
        turned = cast[n:] + cast[:n]
        closed_round(event, [turned[:4], turned[4:]], number=n)
    series = services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=alice)
    services.add_leg(series=series, event=event, by=alice)
    return up_to_date(event).pk


@pytest.fixture(scope="module")
def negril_id(django_db_setup, django_db_blocker) -> int:
    """Negril Open, made once for the module's tests (each undoes what it writes)."""
    yield from kept_for_the_module(django_db_blocker, negril)


@pytest.fixture
def alice(negril_id):
    """Directs Negril Open and the circuit."""
    return get_user_model().objects.get(username="alice")


@pytest.fixture
def leg(negril_id) -> Event:
    return Event.objects.get(pk=negril_id)


def up_to_date(event: Event) -> Event:
    services.refresh_ratings()
    for series in Series.objects.all():
        services.refresh_series_standings(series=series)
    return Event.objects.get(pk=event.pk)


def rated_sets() -> set[int]:
    return set(PlayerRating.objects.values_list("sets", flat=True))


def legs_played() -> set[int]:
    return set(SeriesStanding.objects.values_list("events_played", flat=True))


def archive_of(event: Event) -> str:
    return archive.dumps(archive_export.export_event(event))


def test_the_archive_carries_the_events_identity_to_another_site(leg):
    document = archive_export.export_event(leg)
    assert document["version"] == archive.VERSION == 4
    assert document["payload"]["event"]["uid"] == str(leg.uid)
    forget(leg)
    imported = archive_import.import_event(raw=archive.dumps(document)).event
    assert (imported.uid, imported.counted) == (leg.uid, True)  # nothing held: it counts


def test_an_archive_of_an_event_held_here_asks_and_writes_nothing(leg, alice):
    text = archive_of(leg)
    for rename in (None, "negril-copy"):  # a new slug alone does not make another event
        with pytest.raises(AlreadyHeld) as asked:
            archive_import.import_event(raw=text, rename=rename, by=alice)
        assert asked.value.shown == [leg] and asked.value.can_replace
        assert asked.value.slug == "negril-copy"
        assert "holds this event already (as 'negril')" in str(asked.value)
    assert Event.objects.count() == 1
    assert rated_sets() == {3}


def test_replacing_it_twice_keeps_one_event_one_leg_and_three_rated_sets(leg, alice):
    text = archive_of(leg)
    before = archive_export.build_payload(leg)
    for _ in range(2):
        imported = archive_import.import_event(raw=text, by=alice, held="replace")
        assert imported.replaced and imported.event.pk == leg.pk
        assert "It replaced the event held here" in imported.summary()
        event = up_to_date(leg)
        assert Event.objects.filter(uid=leg.uid).count() == 1
        assert (event.slug, event.counted, event.series.slug) == ("negril", True, "circuit")
        assert rated_sets() == {3}
        assert legs_played() == {1}
    # What the archive brings is the event's now, history and all.
    after = archive_export.build_payload(event)
    for payload in (before, after):
        for name in ("standings_version", "screen_version", "updated_at"):
            del payload["event"][name]  # they move on when it is replaced
    compare(before, after)
    assert event.standings_version > leg.standings_version  # no page shows the old rows
    player = Round.objects.get(event=event, number=1).seats.first().entry.player
    history = selectors.player_history(AnonymousUser(), player.pk)
    assert [item["event"].slug for item in history["events"]] == ["negril"]


def test_keeping_copies_twice_counts_each_set_once(leg, alice):
    text = archive_of(leg)
    first = archive_import.import_event(raw=text, rename="negril-copy", by=alice, held="copy")
    with pytest.raises(AlreadyHeld) as asked:
        archive_import.import_event(raw=text, by=alice)
    assert [e.slug for e in asked.value.shown] == ["negril", "negril-copy"]
    assert asked.value.slug == "negril-copy-2"
    second = archive_import.import_event(raw=text, rename="negril-copy-2", by=alice, held="copy")
    up_to_date(leg)
    for copy in (first.event, second.event):
        copy.refresh_from_db()
        assert (copy.uid, copy.counted, copy.series_id) == (leg.uid, False, None)
    assert "It is a copy of 'negril', left out of ratings" in first.summary()
    assert rated_sets() == {3}
    assert legs_played() == {1}
    listed = {e.slug: (e.counted, e.copy_of) for e in selectors.public_event_list(
        AnonymousUser(), ["running", "finished"])}  # fmt: skip
    assert listed == {
        "negril": (True, None),
        "negril-copy": (False, "negril"),
        "negril-copy-2": (False, "negril"),
    }
    player = Round.objects.get(event=leg, number=1).seats.first().entry.player
    history = selectors.player_history(AnonymousUser(), player.pk)
    assert sorted((i["event"].slug, i["copy_of"]) for i in history["events"]) == [
        ("negril", None),
        ("negril-copy", "negril"),
        ("negril-copy-2", "negril"),
    ]
    shown = player_summary(history)["events"]  # the API's player document
    assert sorted((e["event"], e["counted"], e["copy_of"]) for e in shown) == [
        ("negril", True, None),
        ("negril-copy", False, "negril"),
        ("negril-copy-2", False, "negril"),
    ]


def test_a_copy_is_no_leg_until_counted_and_counting_it_takes_the_original_out(leg, alice):
    copy = archive_import.import_event(
        raw=archive_of(leg), rename="negril-copy", by=alice, held="copy"
    ).event
    series = Series.objects.get(slug="circuit")
    services.remove_leg(series=series, event=leg, by=alice)
    with pytest.raises(StateConflict, match="is a copy of an event held here"):
        services.add_leg(series=series, event=copy, by=alice)
    services.add_leg(series=series, event=leg, by=alice)

    counted = services.count_copy(event=copy, by=alice)

    leg.refresh_from_db()
    assert (counted.counted, counted.series_id) == (True, series.pk)
    assert (leg.counted, leg.series_id) == (False, None)
    up_to_date(leg)
    assert rated_sets() == {3}
    assert legs_played() == {1}
    assert {r["event"] for s in SeriesStanding.objects.all() for r in s.results} == {"negril-copy"}
    assert selectors.copies_shown(AnonymousUser(), [leg]) == {leg.pk: "negril-copy"}
    with pytest.raises(StateConflict, match="counts already"):
        services.count_copy(event=counted, by=alice)


def test_only_a_director_of_both_counts_a_copy_or_replaces_the_event(leg, alice, bob):
    text = archive_of(leg)
    with pytest.raises(AlreadyHeld) as asked:
        archive_import.import_event(raw=text, by=bob)
    assert not asked.value.can_replace
    with pytest.raises(archive.ArchiveError, match="you do not direct it"):
        archive_import.import_event(raw=text, by=bob, held="replace")
    copy = archive_import.import_event(raw=text, rename="bobs-copy", by=bob, held="copy").event
    with pytest.raises(Forbidden, match="you do not direct negril"):
        services.count_copy(event=copy, by=bob)
    assert not Event.objects.get(pk=copy.pk).counted
    with pytest.raises(archive.ArchiveError, match="keeps its address"):
        archive_import.import_event(raw=text, rename="elsewhere", by=alice, held="replace")


def test_a_replaced_leg_of_a_public_series_stays_public(leg, alice):
    document = archive_export.export_event(leg)
    document["payload"]["event"]["public"] = False
    with pytest.raises(archive.ArchiveError, match="public series Circuit"):
        archive_import.import_event(raw=resigned(document), by=alice, held="replace")
    assert Event.objects.get(pk=leg.pk).public and rated_sets() == {3}


def test_the_database_refuses_two_counted_events_of_one_identity(leg):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_event(slug="twin", uid=leg.uid)
    make_event(slug="twin", uid=leg.uid, counted=False)  # a copy, left out


def test_an_archive_from_before_identities_is_known_as_the_event_it_came_from(leg, alice):
    """An event from before identities got one derived from its creation time and draw
    seed (the migration); its old archive, which carries none, gets the same."""
    Event.objects.filter(pk=leg.pk).update(uid=derived_uid(leg.created_at, leg.draw_seed))
    document = archive_export.export_event(Event.objects.get(pk=leg.pk))
    del document["payload"]["event"]["uid"]
    document["version"] = 3
    old = resigned(document)
    with pytest.raises(AlreadyHeld):
        archive_import.import_event(raw=old, by=alice)
    # On a site that holds it not, two imports of the old archive are one event.
    forget(leg)
    first = archive_import.import_event(raw=old, by=alice).event
    with pytest.raises(AlreadyHeld):
        archive_import.import_event(raw=old, rename="negril-again", by=alice)
    assert first.uid == derived_uid(leg.created_at, leg.draw_seed) and first.counted


def test_the_command_asks_then_replaces_or_keeps_a_copy(leg, tmp_path):
    path = tmp_path / "negril.json"
    path.write_text(archive_of(leg), encoding="utf-8")
    with pytest.raises(CommandError, match="holds this event already.*--replace.*--copy"):
        call_command("import_event", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_event", str(path), "--replace", stdout=out)
    assert "It replaced the event held here" in out.getvalue()
    call_command("import_event", str(path), "--copy", "--rename", "negril-2", stdout=out)
    assert not Event.objects.get(slug="negril-2").counted
    with pytest.raises(CommandError, match="A copy needs an address of its own"):
        call_command("import_event", str(path), "--copy", stdout=io.StringIO())


def test_an_identity_is_one_uuid_written_as_text_in_the_archive(leg):
    payload = json.loads(archive_of(leg))["payload"]
    assert uuid.UUID(payload["event"]["uid"]) == leg.uid
