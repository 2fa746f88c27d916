"""Venue actions that replace rows (a row deleted and another made in its place, with
the same unique values) reach the site as one change: the replaced row in `gone`, its
successor in `rows`."""

from __future__ import annotations

import pytest

from core import services
from scoring.models import Hand
from tests.fixtures import hand_at, make_entries, make_event, make_round
from tests.publishing.pair import DB, Pair, not_counted, small_venue
from tournaments.models import Seat

pytestmark = DB


@pytest.fixture
def seated(alice) -> tuple[Pair, list]:
    """Round 1 seated at two tables of four (no hand yet), published."""
    venue = not_counted(make_event(slug="seated-open", rounds_planned=2))
    venue.directors.add(alice)
    entries = make_entries(venue, 9)
    make_round(venue, table_sizes=(5, 4), entries=entries)
    pair = Pair.of(venue, by=alice)
    pair.publish()
    assert pair.differences() == []
    return pair, entries


def test_two_players_swapped_at_the_venue(seated, alice):
    pair, entries = seated
    round_ = pair.venue.rounds.get(number=1)
    services.swap_players(round=round_, first=entries[0], second=entries[6], by=alice)
    change = pair.capture()
    assert change["gone"]["seats"]

    pair.apply(change)

    assert pair.differences() == []


def test_a_player_moved_to_another_table_at_the_venue(seated, alice):
    pair, entries = seated
    round_ = pair.venue.rounds.get(number=1)
    services.move_player(round=round_, entry=entries[1], table_number=2, by=alice)
    change = pair.capture()

    pair.apply(change)

    assert pair.differences() == []
    site_seat = Seat.objects.get(entry_id=pair.site_id("entries", entries[1].pk))
    assert site_seat.table.number == 2


def test_a_hand_deleted_and_recorded_again_between_two_looks(alice):
    pair = Pair.of(small_venue(director=alice), by=alice)
    pair.publish()
    table = pair.venue.rounds.get(number=1).tables.get()
    services.delete_hand(table=table, number=2, by=alice)
    services.record_hand(table=table, number=2, entry=hand_at([1, 2, 3, 4], base=12), by=alice)
    change = pair.capture()
    assert change["gone"]["hands"] and change["rows"]["hands"]

    pair.apply(change)

    assert pair.differences() == []
    assert Hand.objects.filter(table__round__event=pair.site, number=2).count() == 1
