from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from tests.fixtures import make_entries, make_event, make_round, make_table, make_user
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db


def test_create_event_uses_the_documented_defaults_and_makes_the_creator_a_director():
    alice = make_user("alice")
    event = services.create_event(data={"slug": "kingston-open", "name": "Kingston Open"}, by=alice)
    assert (event.ruleset, event.packs, event.jokers) == ("jamaica", 2, 4)
    assert (event.format, event.director_penalty, event.table_points) == (
        "total",
        100,
        [4, 2, 1, 0],
    )
    assert (event.seating, event.odd_tables, event.status) == ("swiss", "fives", "draft")
    assert list(event.directors.all()) == [alice]


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"director_penalty": 40}, "director_penalty", "50"),
        ({"director_penalty": 501}, "director_penalty", "500"),
        ({"ruleset": "bridge"}, "ruleset", "not a valid choice"),
        ({"format": "swiss"}, "format", "not a valid choice"),
        ({"packs": 0}, "packs", "1"),
        ({"table_points": [1, 2, 4]}, "table_points", "grow"),
        ({"table_points": "4,2,1"}, "table_points", "placement points"),
        ({"colour": "green"}, "colour", "not an event setting"),
    ],
)
def test_create_event_refuses_bad_settings_naming_the_field(data, field, words):
    with pytest.raises(InvalidInput) as refused:
        services.create_event(data={"slug": "x", "name": "X", **data})
    assert words in " ".join(refused.value.errors[field])
    assert not Event.objects.exists()


@pytest.mark.parametrize("slug", ["new", "site", "archive"])
def test_a_slug_that_is_a_directors_page_address_is_refused(slug):
    with pytest.raises(InvalidInput) as refused:
        services.create_event(data={"slug": slug, "name": "X"})
    assert "director's pages" in " ".join(refused.value.errors["slug"])
    event = services.create_event(data={"slug": "open", "name": "Open"})
    with pytest.raises(InvalidInput):
        services.update_event(event=event, data={"slug": slug})
    assert list(Event.objects.values_list("slug", flat=True)) == ["open"]


def test_a_duplicate_slug_is_refused():
    services.create_event(data={"slug": "open", "name": "Open"})
    with pytest.raises(InvalidInput) as refused:
        services.create_event(data={"slug": "open", "name": "Other"})
    assert "slug" in refused.value.errors


def test_update_event_changes_settings():
    event = make_event()
    services.update_event(event=event, data={"venue": "Mandeville", "director_penalty": 200})
    event.refresh_from_db()
    assert (event.venue, event.director_penalty) == ("Mandeville", 200)


def test_scoring_settings_are_frozen_once_a_hand_is_recorded():
    from game.rules import HandEntry, SeatEntry

    table = make_table()
    event = table.round.event
    services.update_event(event=event, data={"jokers": 6})  # no hands yet: allowed
    services.record_hand(
        table=table,
        number=1,
        entry=HandEntry(went_out=1, scores=(SeatEntry(2, 5), SeatEntry(3, 5), SeatEntry(4, 5))),
    )
    with pytest.raises(StateConflict) as refused:
        services.update_event(event=event, data={"ruleset": "trinidad", "venue": "Port of Spain"})
    assert "ruleset" in refused.value.errors
    event.refresh_from_db()
    assert (event.ruleset, event.venue) == ("jamaica", "")


def test_register_withdraw_and_register_again(django_user_model):
    alice = make_user("alice")
    event = make_event()
    player = Player.objects.create(name="Delroy Campbell")
    entry = services.register_entry(event=event, player=player, seed_number=3, by=alice)
    assert entry.status == "active"
    with pytest.raises(InvalidInput) as refused:
        services.register_entry(event=event, player=player)
    assert "already entered" in refused.value.errors["player"][0]

    services.withdraw_entry(entry=entry, by=alice)
    entry.refresh_from_db()
    assert entry.status == "withdrawn" and entry.withdrawn_at is not None

    again = services.register_entry(event=event, player=player)
    assert again.pk == entry.pk and again.status == "active" and again.withdrawn_at is None
    statuses = [h.status for h in entry.history.order_by("history_date")]
    assert statuses == ["active", "withdrawn", "active"]
    assert entry.history.order_by("history_date")[1].history_user == alice


def test_a_taken_seed_number_is_refused():
    event = make_event()
    make_entries(event, 2)  # seeds 1 and 2
    with pytest.raises(InvalidInput) as refused:
        services.register_entry(
            event=event, player=Player.objects.create(name="Late"), seed_number=2
        )
    assert "Seed 2" in refused.value.errors["seed_number"][0]


def test_a_finished_event_takes_no_entries():
    event = make_event(status=Event.Status.FINISHED)
    with pytest.raises(StateConflict):
        services.register_entry(event=event, player=Player.objects.create(name="Late"))
    assert not Entry.objects.exists()


def test_lock_and_unlock_are_recorded_with_who_did_it():
    alice = make_user("alice")
    table = make_table()
    services.lock_table(table=table, by=alice)
    table.refresh_from_db()
    assert table.locked
    services.unlock_table(table=table, by=alice)
    table.refresh_from_db()
    assert not table.locked
    assert [h.locked for h in table.history.order_by("history_date")][-2:] == [True, False]
    assert table.history.latest("history_date").history_user == alice


@pytest.mark.parametrize(
    ("tiebreaks", "words"),
    [
        (["points", "coin_toss"], "unknown tiebreaks 'coin_toss'"),
        (["points", "points"], "more than once"),
        (["draw", "points"], "must be the last"),
        ("points", "list of tiebreak names"),
    ],
)
def test_bad_tiebreaks_are_refused_naming_the_field(tiebreaks, words):
    with pytest.raises(InvalidInput) as refused:
        services.create_event(data={"slug": "x", "name": "X", "tiebreaks": tiebreaks})
    assert words in refused.value.errors["tiebreaks"][0]


def test_an_event_may_choose_its_tiebreaks():
    event = services.create_event(
        data={"slug": "tb", "name": "TB", "tiebreaks": ["hands_won", "points", "draw"]}
    )
    assert event.tiebreaks == ["hands_won", "points", "draw"]


def test_fewer_rounds_cannot_be_planned_than_the_event_has():
    event = make_event(rounds_planned=3)
    make_round(event, number=1, status="closed")
    make_round(event, number=2)
    with pytest.raises(StateConflict) as refused:
        services.update_event(event=event, data={"rounds_planned": 1})
    assert refused.value.errors == {
        "rounds_planned": ["The event has 2 rounds already; plan at least 2."]
    }
    assert Event.objects.get(pk=event.pk).rounds_planned == 3
    assert services.update_event(event=event, data={"rounds_planned": 2}).rounds_planned == 2


@pytest.mark.parametrize(("before", "after"), [("total", "knockout"), ("knockout", "total")])
def test_an_event_does_not_become_or_stop_being_a_knockout_once_a_round_is_played(before, after):
    event = make_event(format=before, rounds_planned=3)
    make_round(event, status="published")
    with pytest.raises(StateConflict) as refused:
        services.update_event(event=event, data={"format": after})
    assert list(refused.value.errors) == ["format"]
    assert Event.objects.get(pk=event.pk).format == before
    # Between total and table points it re-ranks what was played (no seating depends on it).
    if before == "total":
        assert services.update_event(event=event, data={"format": "table-points"}).format == (
            "table-points"
        )


def test_a_knockout_can_still_be_chosen_before_the_first_round_is_played():
    event = make_event(rounds_planned=3)
    make_round(event, status="draft")
    assert services.update_event(event=event, data={"format": "knockout"}).format == "knockout"
