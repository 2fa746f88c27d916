"""Entry at the table, through the services: a player enters a hand with their code,
another confirms it and it is recorded exactly as a director's entry is; every refusal
names its reason and writes nothing."""

from __future__ import annotations

import pytest

from core import selectors, services
from core.errors import Forbidden, HandRejected, Missing, StateConflict, TooManyAttempts
from core.hands.selectors import hand_at
from core.stored_texts.words import reason_words
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from scoring.models import Hand, Proposal
from tests.fixtures import codes_of, hand, make_world
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db

CLIENT = "203.0.113.7"


@pytest.fixture
def w(entry_world):
    return entry_world


def propose(w, codes, seat: int, number: int = 1, entry: HandEntry | None = None, table=None):
    return services.propose_hand(
        table=table or w.table,
        number=number,
        entry=entry or hand(2, 4),
        code=codes[(1, seat)],
        client=CLIENT,
    )


def confirm(w, codes, seat: int, number: int = 1):
    return services.confirm_proposal(
        table=w.table, number=number, code=codes[(1, seat)], client=CLIENT
    )


def dispute(w, codes, seat: int, number: int = 1, entry: HandEntry | None = None):
    return services.dispute_proposal(
        table=w.table, number=number, code=codes[(1, seat)], client=CLIENT, entry=entry
    )


def seat_names(w) -> dict[int, str]:
    return {s.position: s.entry.player.name for s in w.table.seats.select_related("entry__player")}


def reasons(proposal: Proposal) -> list[str]:
    history = proposal.history.order_by("history_date")
    return [reason_words(h.history_change_reason) for h in history]


# --- entering and confirming -------------------------------------------------------------


def test_an_entry_waits_unrecorded_until_another_player_confirms_it(w, codes):
    proposal = propose(w, codes, seat=1)
    assert proposal.state == "pending" and proposal.entered_seat == 1
    assert not Hand.objects.filter(table=w.table).exists()

    confirmed = confirm(w, codes, seat=3)

    assert confirmed.state == "recorded" and confirmed.confirmed_seat == 3
    recorded = hand_at(w.table, 1)
    assert recorded.version == 1 and recorded.went_out == 2
    assert {r.seat: r.score for r in recorded.results} == {1: 11, 2: 0, 3: 13, 4: 14}


def test_a_confirmed_hand_is_recorded_through_the_directors_service(
    w, codes, django_capture_on_commit_callbacks
):
    before = Event.objects.get(pk=w.event.pk).standings_version
    propose(w, codes, seat=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(w, codes, seat=2)

    names = seat_names(w)
    history = selectors.hand_history(w.table, 1)
    assert [(e.action, e.who) for e in history] == [
        (
            "recorded",
            f"the players (entered by seat 1 ({names[1]}), confirmed by seat 2 ({names[2]}))",
        )
    ]
    assert Hand.objects.get(table=w.table).recorded_by is None
    # The standings were rebuilt, as after a director's entry.
    assert Event.objects.get(pk=w.event.pk).standings_version == before + 1


def test_players_with_the_longest_names_confirm_and_history_keeps_both_names(w, codes):
    """Found by bench/national.py: a confirmation's reason named both players, and the
    proposals' history kept 100 characters of reason, so two long names made it a 500."""
    longest = Player._meta.get_field("name").max_length
    for seat in w.table.seats.select_related("entry__player"):
        Player.objects.filter(pk=seat.entry.player_id).update(
            name=(f"Seat {seat.position} " + "Ñúñez-Ramírez " * 20)[:longest]
        )
    names = seat_names(w)
    propose(w, codes, seat=1)
    confirmed = confirm(w, codes, seat=3)
    assert confirmed.state == "recorded"
    assert reasons(confirmed)[-1] == (
        f"entered by seat 1 ({names[1]}), confirmed by seat 3 ({names[3]})"
    )


def test_every_entry_confirmation_and_dispute_is_kept_in_history(w, codes):
    first = propose(w, codes, seat=1)
    propose(w, codes, seat=2, entry=hand(3, 4))
    second = Proposal.objects.get(state="pending")
    dispute(w, codes, seat=4)
    first.refresh_from_db()
    assert first.state == "replaced"
    names = seat_names(w)
    assert reasons(first) == [f"entered by seat 1 ({names[1]})", f"replaced by seat 2 ({names[2]})"]
    assert reasons(second) == [
        f"entered by seat 2 ({names[2]})",
        f"disputed by seat 4 ({names[4]})",
    ]


def test_sending_the_same_entry_again_changes_nothing(w, codes):
    first = propose(w, codes, seat=1)
    again = propose(w, codes, seat=1)
    assert again.pk == first.pk and Proposal.objects.count() == 1


def test_confirming_twice_is_answered_as_the_first_time(w, codes):
    propose(w, codes, seat=1)
    first = confirm(w, codes, seat=3)
    again = confirm(w, codes, seat=3)
    assert again.pk == first.pk and again.state == "recorded"
    assert Hand.objects.get(table=w.table).version == 1


def test_a_new_entry_replaces_the_one_waiting(w, codes):
    propose(w, codes, seat=1)
    propose(w, codes, seat=2, entry=hand(3, 4))
    confirm(w, codes, seat=1)
    assert hand_at(w.table, 1).went_out == 3
    assert list(Proposal.objects.order_by("pk").values_list("state", flat=True)) == [
        "replaced",
        "recorded",
    ]


def test_a_redeal_is_entered_and_confirmed_and_the_hand_is_then_entered_again(w, codes):
    propose(w, codes, seat=1, entry=HandEntry(redeal=True))
    confirm(w, codes, seat=2)
    assert hand_at(w.table, 1).outcome == "redeal"
    propose(w, codes, seat=3)
    confirm(w, codes, seat=4)
    recorded = hand_at(w.table, 1)
    assert (recorded.outcome, recorded.deals, recorded.version) == ("scored", 2, 2)


def test_penalties_and_cards_are_recorded_as_entered(w, codes):
    entry = HandEntry(
        went_out=2,
        down_and_out=True,
        scores=(SeatEntry(1, cards="JK AS 10H"), SeatEntry(3, 6), SeatEntry(4, 7)),
        penalties=(PenaltyEntry(seat=4, kind="overcall", extra_calls=1),),
    )
    propose(w, codes, seat=2, entry=entry)
    confirm(w, codes, seat=1)
    recorded = hand_at(w.table, 1)
    assert {r.seat: r.score for r in recorded.results} == {1: 150, 2: 0, 3: 12, 4: 114}
    assert recorded.result_for(1).cards == "JK AS 10H"


def test_the_proposal_shows_what_will_be_recorded(w, codes):
    propose(w, codes, seat=1)
    shown = selectors.open_proposals(w.table)[1]
    assert shown.entered_by == 1 and shown.confirmed_by == []
    assert shown.hand.version == 0 and shown.hand.outcome == "scored"
    assert {r.seat: r.score for r in shown.hand.results} == {1: 11, 2: 0, 3: 13, 4: 14}


# --- refusals ---------------------------------------------------------------------------


def test_a_wrong_code_is_refused_and_nothing_is_written(w, codes):
    with pytest.raises(Forbidden) as refused:
        services.propose_hand(
            table=w.table, number=1, entry=hand(2, 4), code="ZZZZ-ZZZZ", client=CLIENT
        )
    assert refused.value.status_code == 403
    assert "not the code of a player at table 1" in refused.value.errors["code"][0]
    assert not Proposal.objects.exists()


def test_another_tables_code_does_not_open_this_table(w, codes):
    with pytest.raises(Forbidden):
        services.propose_hand(
            table=w.table, number=1, entry=hand(2, 4), code=codes[(2, 1)], client=CLIENT
        )
    assert not Proposal.objects.exists()


def test_a_code_opens_its_table_only_in_its_own_round(w, codes):
    other = make_world(tag="2", table_entry=Event.TableEntry.PLAYERS)
    theirs = codes_of(other.round)
    with pytest.raises(Forbidden):
        services.propose_hand(
            table=w.table, number=1, entry=hand(2, 4), code=theirs[(1, 1)], client=CLIENT
        )


def test_a_code_is_read_whatever_the_case_spaces_or_dashes(w, codes):
    code = codes[(1, 1)]
    typed = f" {code[:4].lower()} - {code[4:]} "
    seat = services.identify_player(table=w.table, code=typed, client=CLIENT)
    assert seat.position == 1


def test_the_player_who_entered_a_hand_cannot_confirm_it(w, codes):
    propose(w, codes, seat=1)
    with pytest.raises(StateConflict) as refused:
        confirm(w, codes, seat=1)
    assert refused.value.status_code == 409
    assert "another player at the table confirms it" in refused.value.errors["code"][0]
    assert not Hand.objects.exists()


def test_nor_dispute_it(w, codes):
    propose(w, codes, seat=1)
    with pytest.raises(StateConflict):
        dispute(w, codes, seat=1)
    assert Proposal.objects.get().state == "pending"


def test_too_many_wrong_codes_and_every_code_is_refused_for_a_while(w, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 3
    for _ in range(3):
        with pytest.raises(Forbidden):
            services.identify_player(table=w.table, code="WRONGCODE", client=CLIENT)
    with pytest.raises(TooManyAttempts) as refused:
        services.identify_player(table=w.table, code=codes[(1, 1)], client=CLIENT)
    assert refused.value.status_code == 429
    assert 0 < refused.value.retry_after <= settings.TABLE_CODE_WINDOW
    # Another client is not affected.
    assert services.identify_player(table=w.table, code=codes[(1, 1)], client="198.51.100.1")


def test_a_closed_rounds_codes_stop_working(w, codes):
    services.close_round(round=w.round, force=True)
    with pytest.raises(StateConflict) as refused:
        propose(w, codes, seat=1)
    assert "closed" in refused.value.errors["round"][0]


def test_a_locked_table_takes_no_entry(w, codes):
    services.lock_table(table=w.table)
    with pytest.raises(StateConflict):
        propose(w, codes, seat=1)


def test_a_recorded_hand_takes_no_entry(w, codes):
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    with pytest.raises(StateConflict) as refused:
        propose(w, codes, seat=1)
    assert "already recorded" in refused.value.errors["hand"][0]
    assert not Proposal.objects.exists()


def test_players_enter_only_where_the_event_lets_them(codes, w):
    Event.objects.filter(pk=w.event.pk).update(table_entry=Event.TableEntry.DIRECTORS)
    w.table.round.event.refresh_from_db()
    with pytest.raises(Forbidden) as refused:
        propose(w, codes, seat=1)
    assert "directors enter the hands" in refused.value.errors["code"][0]


def test_an_invalid_hand_is_refused_with_the_engines_problems(w, codes):
    bad = HandEntry(went_out=2, scores=(SeatEntry(1, 0), SeatEntry(3, 5), SeatEntry(4, 6)))
    with pytest.raises(HandRejected) as refused:
        propose(w, codes, seat=1, entry=bad)
    assert [p.code for p in refused.value.problems] == ["zero_points"]
    assert not Proposal.objects.exists()


def test_confirming_with_nothing_waiting_is_missing(w, codes):
    with pytest.raises(Missing):
        confirm(w, codes, seat=2)


def test_a_player_who_left_the_table_enters_no_later_hand(w, codes):
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    services.withdraw_entry(entry=w.table.seats.get(position=4).entry, by=w.alice)
    with pytest.raises(Forbidden) as refused:
        propose(w, codes, seat=4, number=2, entry=hand(2, 3))
    assert "left the table after hand 1" in refused.value.errors["code"][0]


# --- disputes and the director ---------------------------------------------------------


def test_a_disputed_hand_waits_for_the_director_with_both_versions(w, codes):
    propose(w, codes, seat=1)
    disputed = dispute(w, codes, seat=3, entry=hand(3, 4))
    assert disputed.state == "disputed" and disputed.disputed_seat == 3
    shown = selectors.open_proposals(w.table)[1]
    assert [version.label.split(" · ")[0] for version in shown.versions] == [
        "Entered by seat 1",
        "Disputed by seat 3",
    ]
    assert shown.hand.went_out == 2 and shown.alternative.went_out == 3
    with pytest.raises(StateConflict):
        confirm(w, codes, seat=2)
    with pytest.raises(StateConflict):
        propose(w, codes, seat=4)
    assert not Hand.objects.exists()


def test_a_directors_entry_always_wins(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3)
    services.record_hand(table=w.table, number=1, entry=hand(4, 4), by=w.alice)
    proposal = Proposal.objects.get()
    assert proposal.state == "overruled"
    assert reasons(proposal)[-1] == "overruled by a director's entry"
    assert hand_at(w.table, 1).went_out == 4
    with pytest.raises(StateConflict):
        confirm(w, codes, seat=2)


def test_a_director_recording_a_waiting_hand_overrules_it(w, codes):
    propose(w, codes, seat=1)
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    assert Proposal.objects.get().state == "overruled"
    with pytest.raises(StateConflict) as refused:
        confirm(w, codes, seat=2)
    assert "already recorded" in refused.value.errors["hand"][0]


def test_when_the_directors_take_entry_over_the_open_entries_are_overruled(w, codes):
    propose(w, codes, seat=1)  # hand 1: waiting for confirmation
    propose(w, codes, seat=2, number=2)
    dispute(w, codes, seat=3, number=2)  # hand 2: disputed
    services.update_event(
        event=w.event, data={"table_entry": Event.TableEntry.DIRECTORS}, by=w.alice
    )
    assert set(Proposal.objects.values_list("state", flat=True)) == {"overruled"}
    for proposal in Proposal.objects.all():
        assert reasons(proposal)[-1] == "overruled: the directors enter the hands now"
        assert proposal.history.latest().history_user == w.alice
    # Nothing is left open for a director's entry to overrule, nor for a player to confirm.
    services.record_hand(table=w.table, number=1, entry=hand(4, 4), by=w.alice)
    assert hand_at(w.table, 1).went_out == 4
    services.update_event(event=w.event, data={"table_entry": Event.TableEntry.PLAYERS})
    with pytest.raises(Missing):
        confirm(w, codes, seat=4, number=2)


# --- codes --------------------------------------------------------------------------------


def test_publishing_a_round_gives_every_seated_player_a_code():
    w = make_world(tag="p")
    w.round.status = "draft"
    w.round.save()
    services.publish_round(round=w.round, by=w.alice)
    tables = selectors.round_codes(w.event, 1)
    codes = [seat.code for table in tables for seat in table.seats]
    assert len(codes) == 8 and len(set(codes)) == 8
    assert all(len(c) == 8 and set(c) <= set("ACDEFGHJKMNPRTWXYZ") for c in codes)


def test_codes_never_change_and_follow_a_player_moved_before_play(w, codes):
    mover = w.round.tables.get(number=2).seats.get(position=4).entry
    services.move_player(round=w.round, entry=mover, table_number=1, by=w.alice)
    after = codes_of(w.round)
    assert after[(1, 5)] == codes[(2, 4)]
    assert all(after[key] == code for key, code in codes.items() if key != (2, 4))
