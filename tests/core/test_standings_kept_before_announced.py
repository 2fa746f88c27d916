"""The standings job keeps the new standings document in the shared cache once its
rebuild commits and before it announces the new version: a live page that sees the
version reads the document instead of building it (a national championship's four
web processes would otherwise each build 4,096 rows on every version)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from core import caching, services
from game.rules import HandEntry, SeatEntry
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_job_keeps_the_new_standings_before_it_announces_them(monkeypatch):
    event = make_event(slug="kingston")
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    kept = []
    real = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: kept.append(key) or real(key, *a, **k))
    scores = (SeatEntry(2, 30), SeatEntry(3, 7), SeatEntry(4, 9))
    services.record_hand(
        table=event.rounds.get().tables.get(), number=1, entry=HandEntry(went_out=1, scores=scores)
    )
    event = Event.objects.get(pk=event.pk)
    document = caching.versioned_key(
        "standings", event.pk, event.standings_version, event.status, None
    )
    assert event.standings_version == 1
    assert document in kept and caching.version_key("kingston") in kept
    assert kept.index(document) < kept.index(caching.version_key("kingston"))
    assert [row.points for row in cache.get(document).rows] == [0, 7, 9, 30]
