"""Fields added to the archive without raising its format version: the
event's check-in and club avoidance, an entry's check-in, a change's reason. An
archive written before them is read with their defaults; one with them keeps them."""

from __future__ import annotations

import json

import pytest

from core import archive, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tests.core.test_archive import forget, resigned
from tests.fixtures import played_event
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


def test_an_archive_without_the_optional_fields_is_read_with_their_defaults(alice):
    event = played_event(director=alice, check_in=True, club_avoidance=True)
    Entry.objects.filter(event=event).update(checked_in=True)
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    payload = document["payload"]
    assert document["version"] == archive.VERSION
    for name in ("check_in", "club_avoidance"):
        del payload["event"][name]
    for row in [*payload["entries"], *payload["history"]["entries"]]:
        del row["checked_in"]
    forget(event)
    imported = archive_import.import_event(raw=resigned(document))
    imported = Event.objects.get(pk=imported.event.pk)
    assert (imported.check_in, imported.club_avoidance) == (False, False)
    assert not Entry.objects.filter(event=imported, checked_in=True).exists()


def test_the_optional_fields_and_a_changes_reason_travel_in_the_archive(alice):
    event = played_event(director=alice, check_in=True)
    entry = Entry.objects.filter(event=event, status="active").first()
    services.record_check_in(event=event, present=[entry], by=alice)
    name = entry.player.name
    text = archive.dumps(archive_export.export_event(event))
    forget(event)
    imported = archive_import.import_event(raw=text)
    assert Event.objects.get(pk=imported.event.pk).check_in
    checked = Entry.objects.filter(event=imported.event, checked_in=True)
    assert list(checked.values_list("player__name", flat=True)) == [name]


def test_the_clubmates_pairs_of_a_quality_report_travel_with_the_entries(alice):
    from tournaments.models import Round

    event = played_event(director=alice, club_avoidance=True)
    round_ = event.rounds.get(number=2)
    seats = list(round_.seats.order_by("pk").values_list("entry_id", "entry__player__name"))
    (a, name_a), (b, name_b) = seats[0], seats[1]
    Round.objects.filter(pk=round_.pk).update(
        quality={**round_.quality, "club_meetings": 1, "club_pairs": [[a, b]]}
    )
    text = archive.dumps(archive_export.export_event(event))
    forget(event)
    imported = archive_import.import_event(raw=text).event
    pair = imported.rounds.get(number=2).quality["club_pairs"][0]
    names = dict(Entry.objects.filter(pk__in=pair).values_list("pk", "player__name"))
    assert [names[pk] for pk in pair] == [name_a, name_b]
