"""Two directors change the same round's clock at the same moment: each change is kept
(the round's row lock puts them one after the other), and of two pauses exactly one
pauses while the other is told the clock is already paused.

PostgreSQL only: real concurrent transactions and row locks.
"""

from __future__ import annotations

import pytest

from core import services
from core.errors import StateConflict
from tests.concurrency.threads import together
from tests.fixtures import make_event, make_round
from tournaments.models import Event, RoundClock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_extensions_of_two_tables_are_both_kept():
    event = make_event()
    round_ = make_round(event, table_sizes=(4, 4, 4))
    services.clock_action(round=round_, action="start", minutes=60)
    version = Event.objects.get(pk=event.pk).screen_version
    for attempt in range(3):
        results = together(
            *[
                lambda t=table: services.clock_action(
                    round=round_, action="extend", minutes=1, table=t
                )
                for table in (1, 2, 3)
            ]
        )
        assert all(isinstance(r, RoundClock) for r in results), results
        stored = RoundClock.objects.get(round=round_)
        assert stored.table_extra_s == {str(t): 60 * (attempt + 1) for t in (1, 2, 3)}
    assert Event.objects.get(pk=event.pk).screen_version == version + 9


def test_of_two_simultaneous_pauses_one_pauses_and_one_is_told():
    round_ = make_round(make_event(), table_sizes=(4,))
    services.clock_action(round=round_, action="start", minutes=60)
    results = together(*[lambda: services.clock_action(round=round_, action="pause")] * 2)
    paused = [r for r in results if isinstance(r, RoundClock)]
    told = [r for r in results if isinstance(r, StateConflict)]
    assert len(paused) == 1 and len(told) == 1, results
    assert told[0].errors == {"action": ["The clock is already paused."]}
    assert RoundClock.objects.get(round=round_).history.count() == 2
