"""The archive lists the rows of a section without ids (standings, adjusted scores) by
what is unique in them, not by their ids: a standing keeps its id while its place moves
(`core.standings.services.update_places`), so the venue's copy of an event and the
site's, ranked by different runs of rebuilds, hold the same rows under ids in another
order, and are compared row by row in this order (`core.publishing.compare`)."""

from __future__ import annotations

import pytest

from core import services
from core.archive.export import build_payload
from game.rules import HandEntry, SeatEntry
from scoring.models import Standing
from tests.fixtures import make_entries, make_event, make_round

pytestmark = pytest.mark.django_db


def test_standings_are_listed_by_round_and_entry_whatever_their_ids():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    scores = tuple(SeatEntry(seat=s, points=10 * s) for s in (2, 3, 4))
    services.record_hand(
        table=round_.tables.get(), number=1, entry=HandEntry(went_out=1, scores=scores)
    )
    services.refresh_standings(event=event)
    rows = list(Standing.objects.filter(round=round_).order_by("-entry_id"))
    Standing.objects.filter(round=round_).delete()
    for row in rows:  # written again last entry first: ids in the other order
        row.pk = None
        row.save()
    listed = build_payload(event)["standings"]
    assert [row["entry"] for row in listed] == [1, 2, 3, 4]
    assert sorted(row["rank"] for row in listed) == [1, 2, 3, 4]
