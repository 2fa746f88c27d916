from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from game.rules import HandEntry, SeatEntry
from scoring.models import Hand
from tests.fixtures import make_entries, make_event, make_round, make_user
from tournaments.models import Entry, Event, Player, Round, Seat

# Real commits: seating and standings run (eagerly) when the service commits.
pytestmark = pytest.mark.django_db(transaction=True)


def start_and_seat(event: Event, **kwargs) -> Round:
    """Start the next round; Celery runs eagerly in tests, so it comes back seated."""
    round_ = services.start_round(event=event, **kwargs)
    round_.refresh_from_db()
    return round_


def play_all_hands(round_: Round) -> None:
    """Enter every hand of every table: seat 1 goes out, the others hold a few points."""
    for table in round_.tables.all():
        seats = sorted(table.seats.values_list("position", flat=True))
        for number in range(1, 10):
            entry = HandEntry(
                went_out=seats[0],
                scores=tuple(SeatEntry(s, 10 + s + number) for s in seats[1:]),
            )
            services.record_hand(table=table, number=number, entry=entry)


def seated(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("entry_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


@pytest.fixture
def event():
    event = make_event(rounds_planned=3, status=Event.Status.REGISTRATION)
    make_entries(event, 16)
    return event


def test_a_round_is_seated_as_a_draft_with_a_quality_report(event):
    round_ = start_and_seat(event, seed=11)
    assert (round_.number, round_.status, round_.policy, round_.seed) == (1, "draft", "random", 11)
    tables = seated(round_)
    assert [len(t) for t in tables] == [4, 4, 4, 4]
    assert sorted(e for t in tables for e in t) == sorted(
        event.entries.values_list("pk", flat=True)
    )
    assert round_.quality["repeat_meetings"] == 0
    for table in round_.tables.all():
        assert table.seats.filter(first_dealer=True).count() == 1
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_the_same_seed_seats_the_same_way(event):
    first = seated(start_and_seat(event, seed=5))
    services.reseat_round(round=Round.objects.get(number=1), seed=5)
    assert seated(Round.objects.get(number=1)) == first


def test_seating_task_is_idempotent(event):
    round_ = start_and_seat(event, seed=3)
    before = list(Seat.objects.filter(round=round_).values_list("pk", "entry_id", "position"))
    services.seat_round(round_id=round_.pk)
    after = list(Seat.objects.filter(round=round_).values_list("pk", "entry_id", "position"))
    assert before == after


def test_publish_then_close_then_next_round_avoids_repeat_meetings(event):
    round1 = start_and_seat(event, seed=1)
    services.publish_round(round=round1)
    with pytest.raises(StateConflict, match="already published"):
        services.publish_round(round=round1)
    with pytest.raises(StateConflict, match="close it"):
        services.start_round(event=event)
    play_all_hands(round1)
    services.close_round(round=round1)
    round2 = start_and_seat(event, policy="mixer", seed=2)
    assert round2.policy == "mixer"
    assert round2.quality["repeat_meetings"] == 0


def test_close_needs_every_hand_unless_forced(event):
    round_ = start_and_seat(event)
    services.publish_round(round=round_)
    with pytest.raises(StateConflict) as refused:
        services.close_round(round=round_)
    assert "table 1 has 0 of 9 hands" in refused.value.errors["force"][0]
    services.close_round(round=round_, force=True)
    round_.refresh_from_db()
    assert round_.status == "closed" and round_.forced_close
    with pytest.raises(StateConflict):
        services.close_round(round=round_, force=True)


def test_a_closed_round_refuses_new_hands(event):
    round_ = start_and_seat(event)
    services.publish_round(round=round_)
    services.close_round(round=round_, force=True)
    table = round_.tables.first()
    with pytest.raises(StateConflict, match="closed"):
        services.record_hand(
            table=table,
            number=1,
            entry=HandEntry(went_out=1, scores=(SeatEntry(2, 5), SeatEntry(3, 5), SeatEntry(4, 5))),
        )


def test_fewer_than_three_active_players_is_a_clear_error():
    event = make_event()
    make_entries(event, 2)
    with pytest.raises(InvalidInput) as refused:
        services.start_round(event=event)
    assert "At least 3 players" in refused.value.errors["players"][0]
    assert not Round.objects.exists()


def test_odd_fields_use_the_event_table_size_setting():
    event = make_event(odd_tables=Event.OddTables.THREES)
    make_entries(event, 10)
    sizes = sorted(len(t) for t in seated(start_and_seat(event)))
    assert sizes == [3, 3, 4]
    other = make_event()
    make_entries(other, 10)
    assert sorted(len(t) for t in seated(start_and_seat(other))) == [5, 5]


def test_a_bad_policy_or_seed_is_refused(event):
    with pytest.raises(InvalidInput, match="not a seating policy"):
        services.start_round(event=event, policy="alphabetical")
    with pytest.raises(InvalidInput, match="seed"):
        services.start_round(event=event, seed=-1)


def test_swap_two_players_and_the_quality_report_follows(event):
    round1 = start_and_seat(event, seed=1)
    services.publish_round(round=round1)
    play_all_hands(round1)
    services.close_round(round=round1)
    round2 = start_and_seat(event, policy="mixer", seed=2)
    tables = seated(round2)
    # Put two players from round 1's table 1 together again.
    old_table = seated(round1)[0]
    a, b = old_table[0], old_table[1]
    table_of_a = next(t for t in tables if a in t)
    if b in table_of_a:
        pytest.fail("mixer seated a repeat meeting")
    victim = next(e for e in table_of_a if e != a)
    services.swap_players(
        round=round2, first=Entry.objects.get(pk=victim), second=Entry.objects.get(pk=b)
    )
    round2.refresh_from_db()
    assert round2.quality["repeat_meetings"] >= 1
    assert [min(a, b), max(a, b)] in round2.quality["repeat_pairs"]
    assert Seat.history.filter(history_type="-").count() == 2


def test_swap_with_a_player_not_in_the_round_is_refused(event):
    round_ = start_and_seat(event)
    outsider = Entry.objects.create(event=event, player=Player.objects.create(name="Late"))
    services.withdraw_entry(entry=outsider)
    with pytest.raises(InvalidInput, match="not seated in round 1"):
        services.swap_players(round=round_, first=event.entries.first(), second=outsider)


def test_move_a_player_to_a_new_table_and_back_keeps_positions_contiguous():
    event = make_event()
    make_entries(event, 9)  # 5 + 4
    round_ = start_and_seat(event)
    five = next(t for t in round_.tables.all() if t.seats.count() == 5)
    mover = five.seats.get(position=2).entry
    four = next(t for t in round_.tables.all() if t.pk != five.pk)
    services.move_player(round=round_, entry=mover, table_number=four.number)
    assert sorted(five.seats.values_list("position", flat=True)) == [1, 2, 3, 4]
    assert four.seats.get(entry=mover).position == 5
    assert five.seats.filter(first_dealer=True).count() == 1
    with pytest.raises(InvalidInput, match="at least 3"):
        for _ in range(2):
            seat = five.seats.order_by("position").first()
            services.move_player(round=round_, entry=seat.entry, table_number=four.number)


def test_withdrawn_and_late_entries_are_dropped_and_seated_in_the_next_round(event):
    round1 = start_and_seat(event)
    services.publish_round(round=round1)
    play_all_hands(round1)
    services.close_round(round=round1)
    gone = event.entries.first()
    services.withdraw_entry(entry=gone)
    late = services.register_entry(event=event, player=Player.objects.create(name="Late Arrival"))
    round2 = start_and_seat(event)
    ids = {e for t in seated(round2) for e in t}
    assert late.pk in ids and gone.pk not in ids


def test_an_entry_change_while_a_draft_waits_reseats_it(event):
    round_ = start_and_seat(event)
    late = services.register_entry(event=event, player=Player.objects.create(name="Late Arrival"))
    round_.refresh_from_db()
    assert round_.status == "draft"
    assert late.pk in {e for t in seated(round_) for e in t}


def test_a_player_withdrawing_mid_round_leaves_the_table_playing_on(event):
    alice = make_user("alice")
    round_ = start_and_seat(event)
    services.publish_round(round=round_)
    table = round_.tables.get(number=1)
    for number in (1, 2):
        services.record_hand(
            table=table,
            number=number,
            entry=HandEntry(went_out=1, scores=(SeatEntry(2, 5), SeatEntry(3, 6), SeatEntry(4, 7))),
        )
    leaver = table.seats.get(position=4)
    services.withdraw_entry(entry=leaver.entry, by=alice)
    leaver.refresh_from_db()
    assert leaver.left_after_hand == 2
    # Hand 3 is played by the three who remain; seat 4 has no score in it.
    hand = services.record_hand(
        table=table,
        number=3,
        entry=HandEntry(went_out=2, scores=(SeatEntry(1, 5), SeatEntry(3, 6))),
    ).hand
    assert sorted(hand.scores.values_list("seat__position", flat=True)) == [1, 2, 3]
    assert Hand.objects.filter(table=table).count() == 3


def test_rounds_beyond_the_plan_are_refused(event):
    for _ in range(3):
        round_ = start_and_seat(event)
        services.publish_round(round=round_)
        services.close_round(round=round_, force=True)
    event.refresh_from_db()
    # Closing the last planned round does not finish the event: the director does.
    assert event.status == Event.Status.RUNNING
    with pytest.raises(StateConflict, match="planned 3 rounds"):
        services.start_round(event=event)


def test_a_closed_round_cannot_be_seated_again(event):
    round_ = start_and_seat(event)
    services.publish_round(round=round_)
    with pytest.raises(StateConflict, match="only a draft"):
        services.reseat_round(round=round_)
    services.close_round(round=round_, force=True)
    with pytest.raises(StateConflict, match="only a draft"):
        services.reseat_round(round=round_)


def test_a_table_the_deck_cannot_deal_is_not_published():
    """The deck is checked against the largest table, here one a director's
    move made larger than the event's seating would (66 cards deal a four, not a five)."""
    event = make_event(packs=1, jokers=14, odd_tables="threes")
    round_ = make_round(event, table_sizes=(5, 4), status=Round.Status.DRAFT)
    with pytest.raises(StateConflict) as refused:
        services.publish_round(round=round_)
    assert refused.value.errors == {
        "round": [
            "The deck cannot deal table 1 of 5: hand 7 deals 14 cards to each of 5 players "
            "(70) and needs at least one more for the stock, but 1 pack and 14 jokers make "
            "66 cards. Move a player to a smaller table."
        ]
    }
    assert Round.objects.get(pk=round_.pk).status == "draft"
