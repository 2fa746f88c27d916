"""The standings job claims the new standings document in the shared cache once its
rebuild commits and before it announces the new version, and keeps it after: a live
page that sees the version waits for the document instead of building it (a national
championship's four web processes would otherwise each build 4,096 rows on every
version), and the announcement is not held for pickling it."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from core import caching, services
from game.rules import HandEntry, SeatEntry
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_job_claims_the_new_standings_before_it_announces_them_and_keeps_them_after(
    monkeypatch,
):
    event = make_event(slug="kingston")
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    kept = []
    real_set, real_add = cache.set, cache.add
    monkeypatch.setattr(
        cache, "set", lambda key, *a, **k: kept.append(key) or real_set(key, *a, **k)
    )
    monkeypatch.setattr(
        cache, "add", lambda key, *a, **k: kept.append(key) or real_add(key, *a, **k)
    )
    scores = (SeatEntry(2, 30), SeatEntry(3, 7), SeatEntry(4, 9))
    services.record_hand(
        table=event.rounds.get().tables.get(), number=1, entry=HandEntry(went_out=1, scores=scores)
    )
    event = Event.objects.get(pk=event.pk)
    document = caching.versioned_key(
        "standings", event.pk, event.standings_version, event.status, None
    )
    assert event.standings_version == 1
    claimed, announced = caching.claim_key(document), caching.version_key("kingston")
    assert kept.index(claimed) < kept.index(announced) < kept.index(document)
    assert cache.get(claimed) is None  # let go once kept
    assert [row.points for row in cache.get(document).rows] == [0, 7, 9, 30]
