"""A player's entry keeps its version through the archive; an archive written before
versions numbers every entry 1."""

from __future__ import annotations

import json

import pytest

from core import archive, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from scoring.models import Hand, Proposal
from tests.core.test_archive import forget, resigned
from tests.fixtures import codes_of, hand, played_event

pytestmark = pytest.mark.django_db


def entered_twice(alice):
    event = played_event(director=alice, table_entry="players")
    round_ = event.rounds.get(number=2)
    codes = codes_of(round_)
    table = round_.tables.get(number=1)
    recorded = set(Hand.objects.filter(table=table).values_list("number", flat=True))
    number = next(n for n in range(1, 10) if n not in recorded)
    seats = [s for s in table.seats.order_by("position") if s.plays_hand(number)]
    for seat, base in ((seats[0], 10), (seats[1], 12)):
        services.propose_hand(
            table=table,
            number=number,
            entry=hand(2, len(seats), base=base),
            code=codes[(1, seat.position)],
            client="test",
        )
    assert sorted(Proposal.objects.values_list("version", flat=True)) == [1, 2]
    return event


def test_an_entrys_version_travels_in_the_archive(alice):
    event = entered_twice(alice)
    raw = archive.dumps(archive_export.export_event(event))
    forget(event)
    imported = archive_import.import_event(raw=raw)
    versions = Proposal.objects.filter(table__round__event=imported.event)
    assert sorted(versions.values_list("state", "version")) == [("pending", 2), ("replaced", 1)]


def test_an_archive_from_before_versions_numbers_its_entries_1(alice):
    event = entered_twice(alice)
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    for row in [*document["payload"]["proposals"], *document["payload"]["history"]["proposals"]]:
        del row["version"]
    forget(event)
    imported = archive_import.import_event(raw=resigned(document))
    versions = Proposal.objects.filter(table__round__event=imported.event)
    assert set(versions.values_list("version", flat=True)) == {1}
