"""The migration that gives every event its identity (tournaments 0016): derived from
the event's creation time and draw seed, as an old archive's is; events already
imported twice from one archive are one event, of which one counts."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from game.identity import derived_uid
from scoring.models import DerivedState
from tests.migrating import migrate, migrate_to_latest
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("tournaments", "0015_prize_currency")


def test_existing_events_get_derived_identities_and_a_doubled_import_counts_once():
    apps = migrate(BEFORE)
    try:
        old_event = apps.get_model("tournaments", "Event")
        old_series = apps.get_model("tournaments", "Series")
        made = datetime(2026, 3, 1, 18, 30, 15, 123456, tzinfo=timezone.utc)
        circuit = old_series.objects.create(slug="circuit", name="Circuit")
        original = old_event.objects.create(slug="negril", name="Negril Open", draw_seed="ab" * 32)
        # The same archive imported again under a new slug, and made a leg meanwhile.
        again = old_event.objects.create(
            slug="negril-copy", name="Negril Open", draw_seed="ab" * 32, series=circuit
        )
        other = old_event.objects.create(slug="ocho", name="Ocho Rios", draw_seed="cd" * 32)
        old_event.objects.filter(pk__in=[original.pk, again.pk]).update(created_at=made)
        apps.get_model("tournaments", "HistoricalEvent").objects.create(
            id=other.pk,
            slug="ocho",
            name="Ocho Rios",
            draw_seed="cd" * 32,
            created_at=other.created_at,
            updated_at=other.updated_at,
            history_date=made,
            history_type="+",
        )
    finally:
        migrate_to_latest()

    events = {e.slug: e for e in Event.objects.all()}
    assert events["negril"].uid == events["negril-copy"].uid == derived_uid(made, "ab" * 32)
    assert events["ocho"].uid == derived_uid(events["ocho"].created_at, "cd" * 32)
    # The leg counts (its series keeps it); the other import is a copy, left out.
    assert (events["negril-copy"].counted, events["negril-copy"].series_id) == (True, circuit.pk)
    assert (events["negril"].counted, events["ocho"].counted) == (False, True)
    stale = set(DerivedState.objects.filter(dirty_since__isnull=False).values_list("kind", "key"))
    assert ("core.refresh_ratings", 0) in stale
    assert list(Event.history.filter(id=other.pk).values_list("uid", flat=True)) == [
        events["ocho"].uid
    ]
