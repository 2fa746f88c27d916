"""Archive format 3: an event's prizes and house rules travel with it; versions 1 and
2 are still read."""

from __future__ import annotations

import copy

import pytest

from core import archive, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.events.rulesets import create_house_ruleset, update_house_ruleset
from tests.core.test_archive import forget, resigned
from tests.core.test_house_rules import HOUSE, sheet
from tests.fixtures import make_round, played_event
from tournaments.models import Event, HouseRuleset

pytestmark = pytest.mark.django_db

PRIZES = [{"place": 1, "amount": "250.00", "item": "trophy"}]


@pytest.fixture
def house_event(root):
    house = create_house_ruleset(data=HOUSE, by=root)
    event = services.create_event(
        data={"slug": "house", "name": "House", "custom_ruleset": house, "prizes": PRIZES,
              "prize_ties": "share"},
    )  # fmt: skip
    table = make_round(event).tables.get()
    for number in range(1, 11):
        services.record_hand(table=table, number=number, entry=sheet())
    services.refresh_standings(event=event)
    return Event.objects.get(pk=event.pk)


def test_house_rules_and_prizes_survive_a_move(house_event, root):
    document = archive_export.export_event(house_event)
    assert document["version"] >= 3
    assert document["payload"]["event"]["house_rules"]["slug"] == "club-ten"
    forget(house_event)
    HouseRuleset.objects.all().delete()  # another site: the ruleset is unknown there
    imported = archive_import.import_event(raw=archive.dumps(document)).event
    imported.refresh_from_db()
    assert imported.custom_ruleset.slug == "club-ten"
    assert imported.frozen_ruleset == house_event.frozen_ruleset
    assert imported.rules.hand_count == 10
    assert (imported.prizes, imported.prize_ties) == (PRIZES, "share")


def test_an_archive_keeps_the_frozen_rules_whatever_the_site_ruleset_says(house_event, root):
    document = archive_export.export_event(house_event)
    forget(house_event)
    update_house_ruleset(ruleset=HouseRuleset.objects.get(), data={"hands": HOUSE["hands"][:3]})
    imported = archive_import.import_event(raw=archive.dumps(document)).event
    assert Event.objects.get(pk=imported.pk).rules.hand_count == 10  # every hand re-checked


def test_damaged_house_rules_are_refused(house_event):
    document = archive_export.export_event(house_event)
    forget(house_event)
    document["payload"]["event"]["frozen_ruleset"]["jokers_per_pack"] = 99
    with pytest.raises(archive.ArchiveError, match="the event.s (house rules|frozen ruleset)"):
        archive_import.import_event(raw=resigned(document))


def test_a_version_2_archive_is_read(alice):
    event = played_event(director=alice, slug="v2-open")
    document = archive_export.export_event(event)
    payload = copy.deepcopy(document["payload"])
    for name in ("prizes", "prize_ties", "frozen_ruleset", "house_rules"):
        del payload["event"][name]
    old = {**document, "version": 2, "payload": payload}
    forget(event)
    imported = archive_import.import_event(raw=resigned(old)).event
    imported.refresh_from_db()
    assert (imported.prizes, imported.prize_ties, imported.custom_ruleset) == ([], "draw", None)
