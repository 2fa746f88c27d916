"""The database itself refuses what must never be stored, whatever code writes it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Hand, HandScore, Penalty
from tests.fixtures import make_entries, make_event, make_round, make_table
from tournaments.models import Entry, Event, Seat, Table

pytestmark = pytest.mark.django_db


def refused(**_) -> pytest.RaisesContext:
    return pytest.raises(IntegrityError)


def scored_hand(table: Table, number: int = 1, **fields) -> Hand:
    seat = table.seats.get(position=1)
    values = {
        "table": table,
        "number": number,
        "contract": "three threes",
        "cards_dealt": 9,
        "outcome": "scored",
        "went_out": seat,
    }
    values.update(fields)
    return Hand.objects.create(**values)


@pytest.mark.parametrize("amount", [49, 501])
def test_director_penalty_outside_50_to_500(amount):
    with refused(), transaction.atomic():
        make_event(director_penalty=amount)


def test_unknown_ruleset_format_or_status():
    for field, value in [("ruleset", "bridge"), ("format", "swiss"), ("status", "paused")]:
        with refused(), transaction.atomic():
            make_event(**{field: value})


def test_a_player_enters_an_event_once():
    event = make_event()
    entry = make_entries(event, 1)[0]
    with refused(), transaction.atomic():
        Entry.objects.create(event=event, player=entry.player)


def test_one_seat_per_player_per_round():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    entry = Entry.objects.filter(event=event).first()
    other = Table.objects.create(round=round_, number=2)
    with refused(), transaction.atomic():
        Seat.objects.create(table=other, round=round_, entry=entry, position=1)


def test_seat_positions_are_unique_and_within_one_to_six():
    table = make_table()
    entry = make_entries(table.round.event, 1)[0]
    with refused(), transaction.atomic():
        Seat.objects.create(table=table, round=table.round, entry=entry, position=2)
    with refused(), transaction.atomic():
        Seat.objects.create(table=table, round=table.round, entry=entry, position=7)


def test_a_table_has_one_first_dealer():
    table = make_table()  # seat 1 deals first
    with refused(), transaction.atomic():
        Seat.objects.filter(table=table, position=2).update(first_dealer=True)


def test_one_scored_hand_per_number_per_table_but_redeals_are_kept():
    table = make_table()
    Hand.objects.create(
        table=table, number=1, attempt=1, contract="three threes", cards_dealt=9, outcome="redeal"
    )
    scored_hand(table, attempt=2)
    with refused(), transaction.atomic():
        scored_hand(table, attempt=3)


def test_a_redeal_has_no_winner_and_a_scored_hand_has_one():
    table = make_table()
    with refused(), transaction.atomic():
        scored_hand(table, went_out=None)
    with refused(), transaction.atomic():
        scored_hand(table, outcome="redeal")


def test_points_are_never_negative_and_the_score_includes_them():
    table = make_table()
    hand = scored_hand(table)
    seat = table.seats.get(position=2)
    with refused(), transaction.atomic():
        HandScore.objects.create(hand=hand, seat=seat, card_points=-1, score=0)
    with refused(), transaction.atomic():
        HandScore.objects.create(hand=hand, seat=seat, card_points=20, penalty_points=100, score=20)
    HandScore.objects.create(hand=hand, seat=seat, card_points=20, score=40)  # doubled: fine
    with refused(), transaction.atomic():
        HandScore.objects.create(hand=hand, seat=seat, card_points=20, score=20)


def test_an_overcall_records_at_least_one_extra_call_and_a_kind_once():
    table = make_table()
    hand = scored_hand(table)
    seat = table.seats.get(position=2)
    with refused(), transaction.atomic():
        Penalty.objects.create(hand=hand, seat=seat, kind="overcall", points=100, extra_calls=0)
    Penalty.objects.create(hand=hand, seat=seat, kind="overcall", points=100, extra_calls=1)
    with refused(), transaction.atomic():
        Penalty.objects.create(hand=hand, seat=seat, kind="overcall", points=100, extra_calls=2)
    with refused(), transaction.atomic():
        Penalty.objects.create(hand=hand, seat=seat, kind="bribe", points=100)


def test_deleting_an_event_removes_its_rounds_seats_and_hands():
    table = make_table()
    scored_hand(table)
    Event.objects.all().delete()
    assert not Hand.objects.exists() and not Seat.objects.exists() and not Entry.objects.exists()
