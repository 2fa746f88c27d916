"""Entries exactly level are ranked by the event's seeded draw of their ids: the site's
copy draws by the venue's ids, so its standings order level entries as the venue's do."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from core import services
from game.ranking import draw_key
from scoring.models import Standing
from tests.fixtures import hand, make_entries, make_event, make_round
from tests.publishing.pair import DB, Pair, not_counted
from tournaments.models import Entry, Round

pytestmark = DB

TABLES = 4


def ranks(event, round_number: int) -> dict[int, int]:
    return dict(
        Standing.objects.filter(event=event, round__number=round_number).values_list(
            "entry_id", "rank"
        )
    )


def test_level_entries_are_ranked_on_the_site_as_at_the_venue(alice):
    venue = not_counted(make_event(slug="level-open", rounds_planned=2))
    venue.directors.add(alice)
    entries = make_entries(venue, 4 * TABLES)
    round_ = make_round(venue, table_sizes=(4,) * TABLES, entries=entries)
    # Every table plays the same hands: seat k of each table is level with seat k of
    # every other, in every figure but the draw.
    with transaction.atomic():
        for table in round_.tables.order_by("number"):
            for number in range(1, venue.rules.hand_count + 1):
                services.record_hand(
                    table=table, number=number, entry=hand(number % 4 + 1, 4), by=alice
                )
    pair = Pair.of(venue, by=alice)

    pair.publish()

    assert pair.differences() == []
    venue_ranks, site_ranks = ranks(venue, 1), ranks(pair.site, 1)
    level = defaultdict(list)
    for standing in Standing.objects.filter(event=venue, round__number=1):
        level[standing.points].append(standing.entry_id)
    assert sorted(len(group) for group in level.values()) == [TABLES] * 4
    site_of = {e.pk: pair.site_id("entries", e.pk) for e in entries}
    for entry, rank in venue_ranks.items():
        assert site_ranks[site_of[entry]] == rank
    # The site's own ids would have drawn them otherwise (so this test can tell).
    seed = venue.draw_seed
    assert any(
        sorted(group, key=lambda e: draw_key(e, seed))
        != sorted(group, key=lambda e: draw_key(site_of[e], seed))
        for group in level.values()
    )

    # Closed, the round's standings are final, and the same on both.
    assert Round.objects.get(event=pair.site, number=1).status == Round.Status.PUBLISHED
    services.close_round(round=Round.objects.get(event=venue, number=1), by=alice)
    pair.publish()
    assert pair.differences() == []
    assert Round.objects.get(event=pair.site, number=1).status == Round.Status.CLOSED
    assert {site_of[e]: r for e, r in ranks(venue, 1).items()} == ranks(pair.site, 1)
    assert Entry.objects.filter(event=pair.site).count() == 4 * TABLES
