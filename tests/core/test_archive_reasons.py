"""A director's reason for correcting a hand (the sheet's and the API's optional
"reason") travels in the event's archive with the hand's history, and is shown again
in the history of the event imported from it."""

from __future__ import annotations

import json

import pytest

from core import archive, selectors, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.hands.services import CORRECTION_REASON_MAX
from tests.core.test_archive import forget
from tests.fixtures import hand, played_event
from tournaments.models import Table

pytestmark = pytest.mark.django_db

# As long as a reason may be: the archive is checked against the history's column.
REASON = ("seat 3's cards were read from the wrong line of the paper sheet; " * 5)[
    : CORRECTION_REASON_MAX - 1
] + "."


def test_a_corrections_reason_is_exported_and_comes_back_on_import(alice):
    event = played_event(director=alice)
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    reason = services.correction_reason(REASON)
    assert len(reason) == CORRECTION_REASON_MAX
    recorded = services.record_hand(
        table=table, number=1, entry=hand(3, 5), by=alice, expected_version=1, reason=reason
    )
    assert recorded.changed and recorded.hand.version == 2

    document = json.loads(archive.dumps(archive_export.export_event(event)))
    history = document["payload"]["history"]
    hands = [r for r in history["hands"] if r["history_change_reason"] == reason]
    assert [(r["number"], r["version"], r["history_user"]) for r in hands] == [(1, 2, "alice")]
    scores = [r for r in history["hand_scores"] if r["history_change_reason"] == reason]
    assert scores and all(r["hand"] == hands[0]["id"] for r in scores)

    forget(event)
    imported = archive_import.import_event(raw=json.dumps(document), by=alice).event
    table = Table.objects.get(round__event=imported, round__number=2, number=1)
    newest = selectors.hand_history(table, 1)[-1]
    assert (newest.action, newest.version, newest.who, newest.reason) == (
        "corrected",
        2,
        "alice (imported)",  # the archive's name, not the user alice here
        reason,
    )
