"""The first hands at two tables and an edit of the house ruleset, all at the same
moment: the event freezes one set of values, every hand is scored by it, and the
event keeps it whatever the edit did.

PostgreSQL only: real concurrent transactions and row locks.
"""

from __future__ import annotations

import pytest

from core import services
from core.events.rulesets import create_house_ruleset, update_house_ruleset
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from scoring.models import Hand
from tests.concurrency.threads import together
from tests.core.test_house_rules import HOUSE
from tests.fixtures import make_round
from tournaments.models import Event, HouseRuleset

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def laydown() -> HandEntry:
    return HandEntry(
        went_out=1,
        scores=(SeatEntry(2, 10), SeatEntry(3, 20), SeatEntry(4, 30)),
        penalties=(PenaltyEntry(seat=3, kind="false_laydown"),),
    )


def test_the_first_hands_and_an_edit_at_once_leave_one_set_of_values(root):
    house = create_house_ruleset(data=HOUSE, by=root)
    event = services.create_event(data={"slug": "race", "name": "Race", "custom_ruleset": house})
    round_ = make_round(event, table_sizes=(4, 4))
    tables = list(round_.tables.order_by("number"))
    results = together(
        lambda: services.record_hand(table=tables[0], number=1, entry=laydown()),
        lambda: services.record_hand(table=tables[1], number=1, entry=laydown()),
        lambda: update_house_ruleset(
            ruleset=HouseRuleset.objects.get(pk=house.pk), data={"false_laydown_penalty": 400}
        ),
    )
    assert not any(isinstance(r, Exception) for r in results), results
    frozen = Event.objects.get(pk=event.pk).frozen_ruleset
    charged = frozen["false_laydown_penalty"]
    assert charged in (150, 400)
    for hand in Hand.objects.filter(table__round=round_):
        score = hand.scores.get(seat__position=3)
        assert score.penalty_points == charged  # both tables: the frozen amount
