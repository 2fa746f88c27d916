"""Withdrawing during a round with a stated leave point, correcting it, and a table that
drops below three players (README, "Late arrivals and withdrawals")."""

from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from scoring.models import Hand, HandScore
from tests.fixtures import hand_at, make_world, play
from tournaments.models import Entry, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def w():
    return make_world(table_sizes=(4, 3))


def seat(w, table: int, position: int) -> Seat:
    return Seat.objects.select_related("entry__player", "table").get(
        round=w.round, table__number=table, position=position
    )


def test_the_default_leave_point_is_the_last_hand_entered_at_the_table(w):
    play(w.table, [1, 2, 6], [1, 2, 3, 4], by=w.alice)
    services.withdraw_entry(entry=seat(w, 1, 2).entry, by=w.alice)
    assert seat(w, 1, 2).left_after_hand == 6
    # Hands 3 to 5 are still to enter, and take the leaver's score.
    services.record_hand(table=w.table, number=3, entry=hand_at([1, 2, 3, 4]), by=w.alice)
    assert HandScore.objects.filter(hand__number=3, seat__position=2).exists()


def test_a_leave_point_stated_before_the_sheet_is_typed(w):
    """The director withdraws the player before typing the sheet; the player really
    left after hand 4."""
    leaver = seat(w, 1, 2)
    services.withdraw_entry(entry=leaver.entry, left_after_hand=4, by=w.alice)
    play(w.table, [1, 2, 3, 4], [1, 2, 3, 4], by=w.alice)  # hands 1-4 take seat 2's score
    play(w.table, [5, 6, 7, 8, 9], [1, 3, 4], by=w.alice)  # later hands are without them
    assert HandScore.objects.filter(seat=leaver).count() == 4
    with pytest.raises(InvalidInput) as refused:
        services.record_hand(table=w.table, number=5, entry=hand_at([1, 2, 3, 4]), by=w.alice)
    assert "seat 2 is not at this table" in str(refused.value)


def test_withdrawing_first_then_correcting_the_leave_point_keeps_its_history(w):
    leaver = seat(w, 1, 2)
    services.withdraw_entry(entry=leaver.entry, by=w.alice)
    assert seat(w, 1, 2).left_after_hand == 0
    services.set_leave_point(entry=leaver.entry, left_after_hand=4, by=w.alice)
    play(w.table, [1, 2, 3, 4], [1, 2, 3, 4], by=w.alice)
    history = [h.left_after_hand for h in Seat.history.filter(id=leaver.pk).order_by("history_id")]
    assert history[-2:] == [0, 4]
    assert Seat.history.filter(id=leaver.pk).latest("history_id").history_user == w.alice


def test_a_leave_point_before_hands_that_carry_the_players_score_is_refused(w):
    play(w.table, [1, 2, 3, 4, 5, 6], [1, 2, 3, 4], by=w.alice)
    leaver = seat(w, 1, 2)
    with pytest.raises(StateConflict) as refused:
        services.withdraw_entry(entry=leaver.entry, left_after_hand=4, by=w.alice)
    assert refused.value.errors == {
        "left_after_hand": [
            f"{leaver.entry.player.name} has a score in hands 5-6 at table 1: a player who "
            "left after hand 4 plays no later hand. Delete them first (they can be entered "
            f"again without {leaver.entry.player.name}), or give a later leave point."
        ]
    }
    # Nothing was written: the player is still active and seated for every hand.
    leaver.refresh_from_db()
    assert leaver.left_after_hand is None
    assert Entry.objects.get(pk=leaver.entry_id).status == "active"


def test_a_later_leave_point_over_hands_recorded_without_the_player_is_refused(w):
    leaver = seat(w, 1, 2)
    services.withdraw_entry(entry=leaver.entry, left_after_hand=2, by=w.alice)
    play(w.table, [1, 2], [1, 2, 3, 4], by=w.alice)
    play(w.table, [3, 4], [1, 3, 4], by=w.alice)
    with pytest.raises(StateConflict, match="Hands 3-4 at table 1 were recorded without"):
        services.set_leave_point(entry=leaver.entry, left_after_hand=5, by=w.alice)
    assert seat(w, 1, 2).left_after_hand == 2


@pytest.mark.parametrize("value", [-1, 10, "4", 2.5, True])
def test_a_leave_point_is_a_hand_of_the_set(w, value):
    entry = seat(w, 1, 2).entry
    with pytest.raises(InvalidInput) as refused:
        services.withdraw_entry(entry=entry, left_after_hand=value, by=w.alice)
    assert "A leave point is the last hand the player played, 0 to 9" in str(refused.value)


def test_a_leave_point_needs_a_round_in_play(w):
    services.close_round(round=w.round, force=True, by=w.alice)
    entry = seat(w, 1, 2).entry
    with pytest.raises(InvalidInput, match="not seated in a round in play"):
        services.withdraw_entry(entry=entry, left_after_hand=3, by=w.alice)
    services.withdraw_entry(entry=entry, by=w.alice)  # between rounds: just withdrawn
    with pytest.raises(StateConflict, match="reopen a closed round first"):
        services.set_leave_point(entry=entry, left_after_hand=3, by=w.alice)


def test_only_a_withdrawn_player_has_a_leave_point(w):
    with pytest.raises(InvalidInput, match="has not withdrawn"):
        services.set_leave_point(entry=seat(w, 1, 2).entry, left_after_hand=3, by=w.alice)


def test_registering_again_brings_the_player_back_when_nothing_was_played_without_them(w):
    leaver = seat(w, 1, 2)
    play(w.table, [1, 2], [1, 2, 3, 4], by=w.alice)
    services.withdraw_entry(entry=leaver.entry, by=w.alice)
    services.register_entry(event=w.event, player=leaver.entry.player, by=w.alice)
    assert seat(w, 1, 2).left_after_hand is None
    play(w.table, [3], [1, 2, 3, 4], by=w.alice)


def test_registering_again_after_hands_without_them_keeps_the_set_incomplete(w):
    leaver = seat(w, 1, 2)
    services.withdraw_entry(entry=leaver.entry, left_after_hand=1, by=w.alice)
    play(w.table, [1], [1, 2, 3, 4], by=w.alice)
    play(w.table, [2], [1, 3, 4], by=w.alice)
    services.register_entry(event=w.event, player=leaver.entry.player, by=w.alice)
    assert Entry.objects.get(pk=leaver.entry_id).status == "active"
    assert seat(w, 1, 2).left_after_hand == 1


# --- a table that drops below three players ---------------------------------------------


def test_a_table_of_three_that_loses_a_player_closes_and_says_why(w):
    """It used to answer 500 ("a table seats 3 to 6 players, not 2")."""
    three = Table.objects.get(round=w.round, number=2)
    play(three, [1, 2, 3, 4], [1, 2, 3], by=w.alice)
    leaver = seat(w, 2, 2)
    services.withdraw_entry(entry=leaver.entry, by=w.alice)
    three.refresh_from_db()
    assert three.closed_after_hand == 4
    with pytest.raises(StateConflict) as refused:
        services.record_hand(table=three, number=5, entry=hand_at([1, 3]), by=w.alice)
    assert refused.value.status_code == 409
    assert refused.value.errors == {
        "number": [
            f"Table 2 cannot play hand 5: only 2 players are left ({leaver.entry.player.name} "
            "(seat 2) left after hand 4), and a table needs at least 3. It closed after hand "
            "4; once the round is closed, the hands it could not play are scored from the "
            "field for the players still at it."
        ]
    }
    assert not Hand.objects.filter(table=three, number=5).exists()
    # Hands up to the end can still be corrected.
    services.record_hand(table=three, number=4, entry=hand_at([1, 2, 3], base=20), by=w.alice)


def test_the_table_ends_in_its_history_and_opens_again_with_a_later_leave_point(w):
    three = Table.objects.get(round=w.round, number=2)
    leaver = seat(w, 2, 2)
    services.withdraw_entry(entry=leaver.entry, left_after_hand=3, by=w.alice)
    assert Table.objects.get(pk=three.pk).closed_after_hand == 3
    services.set_leave_point(entry=leaver.entry, left_after_hand=9, by=w.alice)
    assert Table.objects.get(pk=three.pk).closed_after_hand is None
    ends = [t.closed_after_hand for t in Table.history.filter(id=three.pk).order_by("history_id")]
    assert ends[-2:] == [3, None]


def test_a_round_with_a_table_closed_short_closes_without_force(w):
    three = Table.objects.get(round=w.round, number=2)
    services.withdraw_entry(entry=seat(w, 2, 3).entry, left_after_hand=2, by=w.alice)
    play(three, [1, 2], [1, 2, 3], by=w.alice)
    play(w.table, range(1, 10), [1, 2, 3, 4], by=w.alice)
    closed = services.close_round(round=w.round, by=w.alice)
    assert (closed.status, closed.forced_close) == ("closed", False)
