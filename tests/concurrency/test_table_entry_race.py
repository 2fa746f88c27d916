"""Players and a director acting on the same hand at the same moment: every outcome is
one a single actor could have produced, and nothing is lost or recorded twice.

PostgreSQL only: these need real concurrent transactions and row locks.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core import services
from core.errors import ServiceError, StateConflict
from scoring.models import Hand, HandScore, Proposal
from tests.concurrency.threads import together
from tests.fixtures import codes_of, hand, make_world
from tournaments.models import Event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def w():
    return make_world(table_entry=Event.TableEntry.PLAYERS)


def acting(w, codes, action, seat, **extra) -> Callable[[], object]:
    return lambda: action(table=w.table, number=1, code=codes[(1, seat)], client="c", **extra)


def entered_afresh(w, codes) -> None:
    """Hand 1 as seat 1 entered it, and nothing else at the table."""
    Hand.objects.all().delete()
    Proposal.objects.all().delete()
    services.propose_hand(table=w.table, number=1, entry=hand(2, 4), code=codes[(1, 1)], client="c")


def test_two_players_confirming_at_once_record_the_hand_once(w):
    codes = codes_of(w.round)
    for _ in range(3):
        entered_afresh(w, codes)
        results = together(
            acting(w, codes, services.confirm_proposal, 3),
            acting(w, codes, services.confirm_proposal, 4),
        )
        confirmed = [r for r in results if isinstance(r, Proposal)]
        refused = [r for r in results if isinstance(r, StateConflict)]
        assert len(confirmed) == 1 and len(refused) == 1, results
        assert Hand.objects.get(table=w.table, number=1).version == 1
        assert HandScore.objects.filter(hand__table=w.table).count() == 4


def test_a_director_and_a_confirming_player_at_once_leave_the_directors_hand(w):
    codes = codes_of(w.round)
    director = hand(4, 4, base=30)
    for _ in range(3):
        entered_afresh(w, codes)
        results = together(
            acting(w, codes, services.confirm_proposal, 2),
            lambda: services.record_hand(table=w.table, number=1, entry=director, by=w.alice),
        )
        assert not [
            r for r in results if isinstance(r, Exception) and not isinstance(r, ServiceError)
        ]
        stored = Hand.objects.get(table=w.table, number=1)
        assert stored.went_out.position == 4 and stored.recorded_by == w.alice
        assert not Proposal.objects.filter(state__in=Proposal.OPEN).exists()


def test_players_entering_the_same_hand_at_once_leave_one_waiting(w):
    codes = codes_of(w.round)
    results = together(
        *[
            acting(w, codes, services.propose_hand, seat, entry=hand(seat, 4))
            for seat in (1, 2, 3, 4)
        ]
    )
    assert all(isinstance(r, Proposal) for r in results), results
    assert Proposal.objects.filter(state="pending").count() == 1
    assert Proposal.objects.filter(state="replaced").count() == 3
