"""Head-to-head on a player's page counts a set's hands by the event's real ruleset:
the house rules frozen into it (a 10-hand club ruleset), not a built-in ruleset's
name; a later edit of the house rules changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from core import services
from core.events.rulesets import create_house_ruleset, update_house_ruleset
from core.ratings import profiles
from tests.core.test_house_rules import HOUSE, TEN_HANDS
from tests.fixtures import make_round, named_entries, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def house_night(root):
    """A public event to a 10-hand house ruleset, where Ann and Ben met twice: round 1
    all ten hands (Ann out every hand), round 2 only nine and force-closed."""
    house = create_house_ruleset(data=HOUSE, by=root)
    event = services.create_event(
        data={"slug": "house", "name": "House Night", "custom_ruleset": house, "packs": 2}
    )
    event.status = "running"
    event.save()
    entries = named_entries(event, ["Ann", "Ben", "Cy", "Di"])
    for number, hands in ((1, 10), (2, 9)):
        round_ = make_round(event, number=number, entries=entries)
        play(round_.tables.get(), range(1, hands + 1), [1, 2, 3, 4])
        services.close_round(round=round_, force=hands < 10)
    return house, event, entries


def test_a_ten_hand_house_set_is_complete_after_ten_hands_not_nine(house_night, root):
    house, event, entries = house_night
    ann, ben = entries[0].player, entries[1].player
    assert event.rules.hand_count == 10
    meetings = profiles.head_to_head(AnonymousUser(), ann.pk, ben.pk)
    assert [(m.round, m.outcome) for m in meetings] == [(1, "won"), (2, "incomplete")]
    assert profiles.record(meetings) == {"won": 1, "lost": 0, "tie": 0, "incomplete": 1}

    # The house rules edited to five hands afterwards: the event keeps its ten.
    update_house_ruleset(ruleset=house, data={"hands": TEN_HANDS[:5]}, by=root)
    again = profiles.head_to_head(AnonymousUser(), ann.pk, ben.pk)
    assert [(m.round, m.outcome) for m in again] == [(1, "won"), (2, "incomplete")]


def test_the_players_page_shows_the_house_sets_head_to_head(client, house_night):
    _, _, entries = house_night
    ann, ben = entries[0].player, entries[1].player
    page = client.get(f"/players/{ann.pk}/?vs={ben.pk}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "1 won, 0 lost, 0 tied" in text
    assert text.count(">won<") == 1 and text.count(">incomplete<") == 1


def test_the_hand_count_read_with_the_seats_agrees_with_the_events_rules(root):
    house = create_house_ruleset(data={**HOUSE, "slug": "club-eight"}, by=root)
    house.hands = TEN_HANDS[:8]
    house.save()
    fresh = services.create_event(
        data={"slug": "fresh", "name": "Fresh", "custom_ruleset": house, "packs": 2}
    )  # not frozen yet: the house ruleset's current hands
    trinidad = services.create_event(data={"slug": "tt", "name": "TT", "ruleset": "trinidad"})
    for event in (fresh, trinidad):
        event.refresh_from_db()
        counted = profiles.hands_in_set(
            event.ruleset,
            event.frozen_ruleset,
            event.custom_ruleset.hands if event.custom_ruleset_id else None,
        )
        assert counted == event.rules.hand_count
    assert fresh.rules.hand_count == 8 and trinidad.rules.hand_count == 7
