"""Every change of an event's settings is kept in its history: who made it and when."""

from __future__ import annotations

import pytest

from core import services
from tests.fixtures import make_alice, make_bob

pytestmark = pytest.mark.django_db


def test_creating_and_changing_an_event_is_kept_with_who_did_it():
    alice, bob = make_alice(), make_bob()
    event = services.create_event(data={"slug": "kingston-open", "name": "Kingston"}, by=alice)
    event.directors.add(bob)
    services.update_event(event=event, data={"venue": "Half Way Tree"}, by=bob)
    services.set_day_options(event=event, check_in=True, by=alice)
    services.add_extra_round(event=event, by=bob)

    rows = list(event.history.order_by("history_id"))
    assert [(r.history_type, r.history_user) for r in rows] == [
        ("+", alice),
        ("~", bob),
        ("~", alice),
        ("~", bob),
    ]
    assert [(r.venue, r.check_in, r.rounds_planned) for r in rows] == [
        ("", False, 3),
        ("Half Way Tree", False, 3),
        ("Half Way Tree", True, 3),
        ("Half Way Tree", True, 4),
    ]


def test_a_change_that_changes_nothing_adds_no_history_row():
    alice = make_alice()
    event = services.create_event(data={"slug": "kingston-open", "name": "Kingston"}, by=alice)
    services.set_day_options(event=event, check_in=False, club_avoidance=False, by=alice)
    assert event.history.count() == 1


def test_the_standings_version_moving_on_is_not_a_change_of_settings():
    alice = make_alice()
    event = services.create_event(data={"slug": "kingston-open", "name": "Kingston"}, by=alice)
    assert not hasattr(event.history.model, "standings_version")
    assert not hasattr(event.history.model, "screen_version")
