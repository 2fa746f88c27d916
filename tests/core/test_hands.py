from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput, Missing, StaleVersion, StateConflict
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from scoring.models import Hand, HandScore, Penalty
from tests.fixtures import make_table
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def plain_hand(**overrides) -> HandEntry:
    fields = {
        "went_out": 2,
        "scores": (
            SeatEntry(seat=1, points=23),
            SeatEntry(seat=2, points=0),
            SeatEntry(seat=3, cards="JK AS 10H 7D"),
            SeatEntry(seat=4, points=41),
        ),
    }
    fields.update(overrides)
    return HandEntry(**fields)


def scores_of(hand: Hand) -> dict[int, int]:
    return {s.seat.position: s.score for s in hand.scores.select_related("seat")}


@pytest.fixture
def table():
    return make_table()


def test_it_records_a_hand_with_its_contract_scores_and_author(table, alice):
    recorded = services.record_hand(table=table, number=1, entry=plain_hand(), by=alice)
    hand = recorded.hand
    assert recorded.changed
    assert (hand.contract, hand.cards_dealt, hand.outcome) == ("three threes", 9, "scored")
    assert hand.went_out.position == 2
    assert hand.version == 1
    assert hand.recorded_by == alice
    assert scores_of(hand) == {1: 23, 2: 0, 3: 82, 4: 41}
    assert hand.scores.get(seat__position=3).cards == "JK AS 10H 7D"


def test_down_and_out_doubles_card_points_and_adds_penalties_after(table):
    entry = plain_hand(
        down_and_out=True,
        penalties=(PenaltyEntry(seat=4, kind="overcall", extra_calls=1),),
    )
    hand = services.record_hand(table=table, number=1, entry=entry).hand
    assert scores_of(hand) == {1: 46, 2: 0, 3: 164, 4: 41 * 2 + 100}
    penalty = Penalty.objects.get(hand=hand)
    assert (penalty.kind, penalty.points, penalty.extra_calls) == ("overcall", 100, 1)


def test_an_identical_resend_changes_nothing(table):
    first = services.record_hand(table=table, number=1, entry=plain_hand()).hand
    again = services.record_hand(table=table, number=1, entry=plain_hand())
    assert not again.changed
    assert again.hand.pk == first.pk
    assert again.hand.version == 1
    assert first.history.count() == 1


def test_a_correction_updates_in_place_and_bumps_the_version(table, alice):
    services.record_hand(table=table, number=1, entry=plain_hand())
    corrected = plain_hand(
        scores=(
            SeatEntry(seat=1, points=30),
            SeatEntry(seat=3, points=12),
            SeatEntry(seat=4, points=41),
        )
    )
    hand = services.record_hand(
        table=table, number=1, entry=corrected, by=alice, expected_version=1
    ).hand
    assert hand.version == 2
    assert scores_of(hand) == {1: 30, 2: 0, 3: 12, 4: 41}
    seat1 = hand.scores.get(seat__position=1)
    before, after = seat1.history.order_by("history_date")
    assert (before.score, after.score) == (23, 30)
    assert after.history_user == alice
    # Seat 4 did not change, so its row has only its first history entry.
    assert hand.scores.get(seat__position=4).history.count() == 1


def test_a_stale_version_is_refused_and_nothing_is_written(table):
    services.record_hand(table=table, number=1, entry=plain_hand())
    services.record_hand(
        table=table,
        number=1,
        entry=plain_hand(scores=(SeatEntry(1, 5), SeatEntry(3, 5), SeatEntry(4, 5))),
        expected_version=1,
    )
    with pytest.raises(StaleVersion) as refused:
        services.record_hand(
            table=table,
            number=1,
            entry=plain_hand(scores=(SeatEntry(1, 9), SeatEntry(3, 9), SeatEntry(4, 9))),
            expected_version=1,
        )
    assert "version 2" in refused.value.errors["version"][0]
    assert set(scores_of(Hand.objects.get())) == {1, 2, 3, 4}
    assert scores_of(Hand.objects.get())[1] == 5


def test_version_zero_means_the_hand_must_not_exist_yet(table):
    services.record_hand(table=table, number=1, entry=plain_hand(), expected_version=0)
    other = plain_hand(
        went_out=1, scores=tuple(SeatEntry(seat=s, points=0 if s == 1 else 9) for s in range(1, 5))
    )
    with pytest.raises(StaleVersion):
        services.record_hand(table=table, number=1, entry=other, expected_version=0)
    # The very same save sent again (its client went away before the answer) is no
    # other writer: it is answered as saved (tests/api/test_hand_save_retried.py).
    again = services.record_hand(table=table, number=1, entry=plain_hand(), expected_version=0)
    assert not again.changed and again.hand.version == 1


def test_invalid_input_names_every_problem_and_writes_nothing(table):
    entry = HandEntry(
        went_out=2,
        scores=(SeatEntry(1, 0), SeatEntry(3, -4), SeatEntry(4, 41), SeatEntry(7, 3)),
    )
    with pytest.raises(InvalidInput) as refused:
        services.record_hand(table=table, number=1, entry=entry)
    messages = " ".join(refused.value.errors["scores"])
    assert "seat 1" in messages and "seat 3" in messages and "seat 7" in messages
    assert not Hand.objects.exists() and not HandScore.objects.exists()


def test_hand_ten_of_a_nine_hand_set_is_refused(table):
    with pytest.raises(InvalidInput) as refused:
        services.record_hand(table=table, number=10, entry=plain_hand())
    assert "number" in refused.value.errors


def test_a_redeal_is_kept_as_its_own_attempt_before_the_scored_deal(table):
    services.record_hand(table=table, number=3, entry=HandEntry(redeal=True))
    hand = services.record_hand(table=table, number=3, entry=plain_hand()).hand
    attempts = list(Hand.objects.filter(table=table, number=3).order_by("attempt"))
    assert [(h.attempt, h.outcome) for h in attempts] == [(1, "redeal"), (2, "scored")]
    assert hand.version == 2
    assert not attempts[0].scores.exists()


def test_a_resent_redeal_is_not_counted_twice_but_a_versioned_one_is(table):
    services.record_hand(table=table, number=1, entry=HandEntry(redeal=True))
    services.record_hand(table=table, number=1, entry=HandEntry(redeal=True))
    assert Hand.objects.filter(number=1).count() == 1
    services.record_hand(table=table, number=1, entry=HandEntry(redeal=True), expected_version=1)
    assert Hand.objects.filter(number=1, outcome="redeal").count() == 2


def test_a_scored_hand_corrected_to_a_redeal_loses_its_scores(table):
    services.record_hand(table=table, number=1, entry=plain_hand())
    hand = services.record_hand(table=table, number=1, entry=HandEntry(redeal=True)).hand
    assert hand.outcome == "redeal" and hand.went_out is None
    assert not HandScore.objects.exists()


def test_a_locked_table_refuses_writes_until_unlocked(table):
    from core.services import lock_table, unlock_table

    lock_table(table=table)
    with pytest.raises(StateConflict) as refused:
        services.record_hand(table=table, number=1, entry=plain_hand())
    assert "locked" in refused.value.errors["table"][0]
    unlock_table(table=table)
    assert services.record_hand(table=table, number=1, entry=plain_hand()).changed


@pytest.mark.parametrize("status", [Round.Status.CLOSED, Round.Status.DRAFT])
def test_a_round_not_in_play_refuses_writes(table, status):
    Round.objects.filter(pk=table.round_id).update(status=status)
    with pytest.raises(StateConflict):
        services.record_hand(table=table, number=1, entry=plain_hand())
    assert not Hand.objects.exists()


def test_delete_removes_every_attempt_and_keeps_history(table, alice):
    services.record_hand(table=table, number=2, entry=HandEntry(redeal=True))
    services.record_hand(
        table=table,
        number=2,
        entry=plain_hand(
            scores=(SeatEntry(1, 23), SeatEntry(3, 12), SeatEntry(4, 41)),
        ),
    )
    removed = services.delete_hand(table=table, number=2, by=alice, expected_version=2)
    assert removed == 2
    assert not Hand.objects.exists() and not HandScore.objects.exists()
    deletions = Hand.history.filter(history_type="-")
    assert deletions.count() == 2 and {h.history_user for h in deletions} == {alice}


def test_delete_with_a_stale_version_is_refused(table):
    services.record_hand(table=table, number=1, entry=plain_hand())
    with pytest.raises(StaleVersion):
        services.delete_hand(table=table, number=1, expected_version=5)
    assert Hand.objects.count() == 1


def test_trinidad_challenge_adds_fifty_and_sits_the_seat_out():
    table = make_table(ruleset="trinidad")
    entry = plain_hand(penalties=(PenaltyEntry(seat=3, kind="challenge"),))
    hand = services.record_hand(table=table, number=1, entry=entry).hand
    seat3 = hand.scores.get(seat__position=3)
    assert (seat3.card_points, seat3.penalty_points, seat3.score) == (82, 50, 132)
    assert seat3.sat_out
    assert hand.contract == "two threes" and hand.cards_dealt == 12


def test_an_event_with_a_custom_director_penalty_charges_it():
    table = make_table(director_penalty=250)
    entry = plain_hand(penalties=(PenaltyEntry(seat=1, kind="false_laydown"),))
    hand = services.record_hand(table=table, number=1, entry=entry).hand
    assert scores_of(hand)[1] == 23 + 250


@pytest.mark.parametrize("named", [False, True], ids=["table", "by-numbers"])
def test_a_table_left_with_no_seat_refuses_a_hand_and_writes_nothing(table, named):
    """The save reads the table under its lock together with its seats; a table with
    none (every player moved away) is still found, locked and refused in words."""
    table.seats.all().delete()
    target = (
        services.TableAt(event=table.round.event, round_number=table.round.number, number=1)
        if named
        else table
    )
    with pytest.raises(StateConflict) as refused:
        services.record_hand(table=target, number=1, entry=plain_hand())
    assert "only 0 players are left" in refused.value.errors["number"][0]
    assert not Hand.objects.exists()


def test_a_table_named_by_numbers_that_does_not_exist_is_404(table):
    missing = services.TableAt(event=table.round.event, round_number=1, number=9)
    with pytest.raises(Missing):
        services.record_hand(table=missing, number=1, entry=plain_hand())
    assert not Hand.objects.exists()
