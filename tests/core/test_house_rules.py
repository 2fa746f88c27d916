"""House rules: a custom ruleset checked and scored as the built-in ones are, frozen
into an event when its first hand is recorded."""

from __future__ import annotations

import pytest

from core import services
from core.errors import HandRejected, InvalidInput, StateConflict
from core.events.rulesets import create_house_ruleset, update_house_ruleset
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from scoring.models import HandScore, Standing
from tests.fixtures import make_event, make_round

pytestmark = pytest.mark.django_db

TEN_HANDS = [
    {"cards_dealt": 10, "threes": 2, "fours": 0},
    {"cards_dealt": 10, "threes": 1, "fours": 1},
    {"cards_dealt": 10, "threes": 0, "fours": 2},
    {"cards_dealt": 11, "threes": 3, "fours": 0},
    {"cards_dealt": 11, "threes": 2, "fours": 1},
    {"cards_dealt": 12, "threes": 1, "fours": 2},
    {"cards_dealt": 12, "threes": 0, "fours": 3},
    {"cards_dealt": 13, "threes": 4, "fours": 0},
    {"cards_dealt": 14, "threes": 2, "fours": 2},
    {"cards_dealt": 15, "threes": 0, "fours": 4},
]
HOUSE = {
    "slug": "club-ten",
    "name": "Club Ten",
    "hands": TEN_HANDS,
    "jokers_per_pack": 3,
    "overcall_penalty": 75,
    "false_laydown_penalty": 150,
    "down_and_out_doubles": True,
}


def sheet(went_out: int = 1, points: tuple[int, ...] = (0, 10, 20, 30), **extra) -> HandEntry:
    scores = tuple(SeatEntry(seat=s, points=p) for s, p in enumerate(points, start=1))
    return HandEntry(went_out=went_out, scores=scores, **extra)


@pytest.fixture
def house(root):
    return create_house_ruleset(data=HOUSE, by=root)


@pytest.fixture
def table(house):
    event = services.create_event(
        data={"slug": "house", "name": "House Night", "custom_ruleset": house, "packs": 2}
    )
    event.status = "running"
    event.save()
    return make_round(event).tables.get(number=1)


def test_naming_a_custom_ruleset_makes_the_event_play_to_it(table, house):
    event = table.round.event
    assert event.ruleset == "custom"
    assert event.rules.hand_count == 10
    assert event.deck.size == 2 * 52 + 2 * 3  # jokers per pack, times the packs


def test_ten_hands_are_scored_and_the_eleventh_does_not_exist(table):
    for number in range(1, 11):
        services.record_hand(table=table, number=number, entry=sheet())
    hand10 = table.hands.get(number=10)
    assert (hand10.cards_dealt, hand10.contract) == (15, "four fours")
    with pytest.raises(HandRejected) as refused:
        services.record_hand(table=table, number=11, entry=sheet())
    assert "10 hands" in refused.value.errors["number"][0]


def test_bounds_come_from_the_cards_dealt_in_the_custom_hand(table):
    event = table.round.event
    spec = event.rules.hand(1)
    most = event.deck.max_points(spec.max_held())  # 10 dealt + 3 calls: 16 cards
    services.record_hand(table=table, number=1, entry=sheet(points=(0, most, 5, 5)))
    with pytest.raises(HandRejected) as refused:
        services.record_hand(table=table, number=2, entry=sheet(points=(0, most + 1, 5, 5)))
    assert "scores" in refused.value.errors
    # Hand 10 deals more, so the same points are within its bound.
    services.record_hand(table=table, number=10, entry=sheet(points=(0, most + 1, 5, 5)))


def test_the_house_penalties_and_doubling_apply(table):
    entry = sheet(
        went_out=1,
        down_and_out=True,
        penalties=(
            PenaltyEntry(seat=2, kind="overcall", extra_calls=1),
            PenaltyEntry(seat=3, kind="false_laydown"),
        ),
    )
    hand = services.record_hand(table=table, number=1, entry=entry).hand
    scores = {s.seat.position: s.score for s in hand.scores.select_related("seat")}
    assert scores == {1: 0, 2: 2 * 10 + 75, 3: 2 * 20 + 150, 4: 2 * 30}


def test_an_edit_after_the_event_started_leaves_its_results_unchanged(table, house, root):
    event = table.round.event
    for number in range(1, 4):
        services.record_hand(
            table=table,
            number=number,
            entry=sheet(penalties=(PenaltyEntry(seat=3, kind="false_laydown"),)),
        )
    services.refresh_standings(event=event)
    before = list(Standing.objects.filter(event=event).values_list("entry_id", "points", "rank"))
    scores_before = list(HandScore.objects.order_by("pk").values_list("score", flat=True))

    update_house_ruleset(
        ruleset=house,
        data={
            "hands": TEN_HANDS[:5],
            "false_laydown_penalty": 300,
            "down_and_out_doubles": False,
        },
        by=root,
    )
    event.refresh_from_db()
    assert event.frozen_ruleset["false_laydown_penalty"] == 150
    assert event.rules.hand_count == 10  # still the ten hands it started with
    services.refresh_standings(event=event)
    after = list(Standing.objects.filter(event=event).values_list("entry_id", "points", "rank"))
    assert after == before
    # A correction of a past hand is scored by the frozen rules too.
    corrected = sheet(penalties=(PenaltyEntry(seat=3, kind="false_laydown"),), down_and_out=True)
    hand = services.record_hand(table=table, number=2, entry=corrected).hand
    assert hand.scores.get(seat__position=3).score == 2 * 20 + 150
    assert (
        list(HandScore.objects.order_by("pk").values_list("score", flat=True))[:4]
        == (scores_before[:4])
    )
    services.record_hand(table=table, number=10, entry=sheet())  # hand 10 still exists

    # An event that starts now plays to the new values.
    house.refresh_from_db()
    later = services.create_event(data={"slug": "later", "name": "Later", "custom_ruleset": house})
    assert later.rules.hand_count == 5
    assert later.table_rules.false_laydown_penalty == 300


def test_the_house_rules_cannot_change_on_an_event_once_a_hand_is_recorded(table, root):
    other = create_house_ruleset(data={**HOUSE, "slug": "other", "name": "Other"}, by=root)
    services.record_hand(table=table, number=1, entry=sheet())
    event = table.round.event
    with pytest.raises(StateConflict) as refused:
        services.update_event(event=event, data={"custom_ruleset": other})
    assert "custom_ruleset" in refused.value.errors
    with pytest.raises(StateConflict):
        services.update_event(event=event, data={"ruleset": "jamaica"})


def test_a_refused_first_hand_freezes_nothing(table):
    with pytest.raises(HandRejected):
        services.record_hand(table=table, number=1, entry=sheet(points=(0, -5, 5, 5)))
    table.round.event.refresh_from_db()
    assert table.round.event.frozen_ruleset is None


def test_bad_house_rules_are_refused_naming_the_field(root):
    for data, field in (
        ({**HOUSE, "hands": []}, "hands"),
        ({**HOUSE, "hands": [{"cards_dealt": 9, "threes": 0, "fours": 5}]}, "hands"),
        ({**HOUSE, "jokers_per_pack": 99}, "jokers_per_pack"),
        ({**HOUSE, "overcall_penalty": 10}, "overcall_penalty"),
        ({**HOUSE, "down_and_out_doubles": "yes"}, "down_and_out_doubles"),
    ):
        with pytest.raises(InvalidInput) as refused:
            create_house_ruleset(data=data, by=root)
        assert field in refused.value.errors


def test_a_custom_ruleset_event_needs_its_house_rules():
    with pytest.raises(InvalidInput) as refused:
        services.create_event(data={"slug": "x", "name": "X", "ruleset": "custom"})
    assert "custom_ruleset" in refused.value.errors
    assert make_event(slug="plain").rules.hand_count == 9  # built-ins untouched


def test_house_rules_chosen_after_the_request_read_the_event_are_still_frozen(house):
    from scoring.models import Hand
    from tournaments.models import Event, Table

    event = make_event(slug="switch", status="running")
    table = make_round(event).tables.get(number=1)
    assert table.round.event.ruleset != "custom"  # as the request read it
    Event.objects.filter(pk=event.pk).update(ruleset="custom", custom_ruleset=house)
    with pytest.raises(StateConflict) as refused:
        services.record_hand(table=table, number=1, entry=sheet())
    assert "ruleset" in refused.value.errors
    assert not Hand.objects.filter(table=table).exists()  # nothing written
    again = Table.objects.select_related("round__event").get(pk=table.pk)
    services.record_hand(table=again, number=1, entry=sheet())
    event.refresh_from_db()
    assert event.frozen_ruleset["overcall_penalty"] == 75


def test_an_events_document_says_the_jokers_and_penalty_its_house_rules_set(house):
    """House rules decide the deck's jokers and the over-call penalty: the event keeps
    their values, and asking for others is refused, naming the field."""
    event = services.create_event(data={"slug": "h", "name": "H", "custom_ruleset": house})
    assert (event.jokers, event.director_penalty) == (2 * 3, 75)
    with pytest.raises(InvalidInput) as refused:
        services.create_event(
            data={"slug": "h2", "name": "H2", "custom_ruleset": house, "jokers": 8}
        )
    assert refused.value.errors == {
        "jokers": [
            "The house rules (Club Ten) set this to 6; change them there, or play a built-in "
            "ruleset."
        ]
    }
    with pytest.raises(InvalidInput) as refused:
        services.update_event(event=event, data={"director_penalty": 50})
    assert list(refused.value.errors) == ["director_penalty"]
    event = services.update_event(event=event, data={"packs": 3, "jokers": 6})  # as it was
    assert (event.packs, event.jokers) == (3, 9)
    with pytest.raises(InvalidInput) as refused:
        services.update_event(event=event, data={"trinidad_doubling": True})
    assert "house rules say themselves whether a down and out doubles" in str(refused.value)


def test_house_rules_that_do_not_double_say_so_when_a_down_and_out_is_entered(root):
    plain = create_house_ruleset(
        data={**HOUSE, "slug": "plain", "name": "Plain", "down_and_out_doubles": False}, by=root
    )
    event = services.create_event(data={"slug": "p", "name": "P", "custom_ruleset": plain})
    event.status = "running"
    event.save()
    table = make_round(event).tables.get(number=1)
    with pytest.raises(HandRejected) as refused:
        services.record_hand(table=table, number=1, entry=sheet(down_and_out=True))
    (message,) = refused.value.errors["down_and_out"]
    assert "its house rules do not double on one" in message
    assert "trinidad_doubling" not in message


def test_only_who_defined_a_ruleset_changes_it(house, root):
    from core.errors import Forbidden
    from tests.fixtures import make_bob

    bob = make_bob()
    with pytest.raises(Forbidden) as refused:
        update_house_ruleset(ruleset=house, data={"overcall_penalty": 50}, by=bob)
    assert refused.value.errors == {"slug": ["Only who defined this ruleset may change it."]}
    house.refresh_from_db()
    assert house.overcall_penalty == HOUSE["overcall_penalty"]
    changed = update_house_ruleset(ruleset=house, data={"overcall_penalty": 50}, by=root)
    assert changed.overcall_penalty == 50
