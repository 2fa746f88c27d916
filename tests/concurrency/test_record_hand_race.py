"""Two directors save the same hand from the same version at the same moment.

PostgreSQL only: these need real concurrent transactions and row locks, which the
SQLite test database (one connection, in memory) cannot give.
"""

from __future__ import annotations

import pytest

from core import services
from core.errors import StaleVersion
from game.rules import HandEntry, SeatEntry
from scoring.models import Hand, HandScore
from tests.concurrency.threads import together
from tests.fixtures import make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def entry_with(points: int) -> HandEntry:
    return HandEntry(
        went_out=1,
        scores=(SeatEntry(2, points), SeatEntry(3, points + 1), SeatEntry(4, points + 2)),
    )


def race(table, entries: list[HandEntry], expected_version: int) -> list[object]:
    """Run record_hand for each entry at the same moment; return each one's result or
    the exception it raised."""
    return together(
        [
            lambda entry=entry: services.record_hand(
                table=table, number=1, entry=entry, expected_version=expected_version
            )
            for entry in entries
        ]
    )


@pytest.mark.parametrize("start_version", [0, 1])
def test_exactly_one_of_two_simultaneous_saves_wins(start_version):
    table = make_table()
    if start_version:
        services.record_hand(table=table, number=1, entry=entry_with(5))
    for attempt in range(5):
        version = Hand.objects.get(table=table, number=1).version if attempt or start_version else 0
        results = race(table, [entry_with(10 + attempt), entry_with(50 + attempt)], version)
        winners = [r for r in results if isinstance(r, services.Recorded)]
        losers = [r for r in results if isinstance(r, StaleVersion)]
        assert len(winners) == 1 and len(losers) == 1, results
        hand = Hand.objects.get(table=table, number=1)
        assert hand.version == version + 1
        # The stored hand is wholly the winner's: no row from the loser, none missing.
        won = winners[0].hand.scores.order_by("seat__position")
        stored = HandScore.objects.filter(hand=hand).order_by("seat__position")
        assert [s.score for s in stored] == [s.score for s in won]
        assert stored.count() == 4
