"""Fair standings when the day does not go to plan (README, "Standings"): a withdrawal
mid-round, a forced close, reopening a round, and an event
that finishes only when its director says so. Through the services, with the standings
rebuilt as they are after every change."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from core import selectors, services
from core.errors import InvalidInput, StateConflict
from core.stored_texts.words import reason_words
from scoring.models import AdjustedScore, Standing
from tests.fixtures import hand_at, make_entries, make_event, make_round, play
from tournaments.models import Event, Round, Seat

pytestmark = pytest.mark.django_db

FOUR = [1, 2, 3, 4]


def table(round_: Round, number: int = 1):
    return round_.tables.get(number=number)


def standings(event: Event) -> list[Standing]:
    services.refresh_standings(event=event)
    current = event.rounds.filter(status__in=["published", "closed"]).order_by("-number").first()
    return list(Standing.objects.filter(round=current).select_related("entry").order_by("rank"))


def withdrawn_after_one_hand(fmt: str, **fields):
    """Round 1 played out (seat 2 went out every hand: 0); in round 2
    seat 2 scores 5 in hand 1 and withdraws, the other three play hands 2-9."""
    event = make_event(format=fmt, rounds_planned=3, **fields)
    entries = make_entries(event, 4)
    round1 = make_round(event, entries=entries)
    for number in range(1, 10):
        services.record_hand(table=table(round1), number=number, entry=hand_at(FOUR, went_out=2))
    services.close_round(round=round1)
    round2 = make_round(event, number=2, entries=entries)
    services.record_hand(
        table=table(round2), number=1, entry=hand_at(FOUR, went_out=3, base=3)
    )  # seat 2 scores 5
    services.withdraw_entry(entry=entries[1])
    play(table(round2), range(2, 10), [1, 3, 4], base=10)
    return event, entries


def test_total_a_withdrawn_players_partial_set_ranks_after_the_complete_ones():
    event, entries = withdrawn_after_one_hand("total")
    rows = standings(event)
    assert rows[-1].entry == entries[1]
    assert (rows[-1].status, rows[-1].sets_incomplete) == ("withdrawn", 1)
    assert rows[-1].incomplete == [
        {"round": 2, "table": 1, "played": 1, "hands": 9, "why": "withdrew"}
    ]
    assert rows[-1].points == 5 < min(r.points for r in rows[:-1])  # fewest points, yet last


def test_table_points_an_incomplete_set_earns_the_lowest_value():
    event, entries = withdrawn_after_one_hand("table-points")
    rows = standings(event)
    leaver = next(r for r in rows if r.entry == entries[1])
    # Round 1: first (4 of [4, 2, 1, 0]); round 2: incomplete, so 0 (it took 5.75 of 8).
    assert float(leaver.table_points) == 4.0
    assert (leaver.sets_incomplete, leaver.incomplete[0]["why"]) == (1, "withdrew")


def test_knockout_a_player_who_left_never_takes_the_tables_place(
    django_capture_on_commit_callbacks,
):
    """It used to go through on 0 after hand 1, and round 2 could not start."""
    event = make_event(format="knockout", rounds_planned=2, advance_per_table=1)
    entries = make_entries(event, 12)
    round1 = make_round(event, table_sizes=(4, 4, 4), entries=entries)
    leaver = entries[1]  # table 1, seat 2: 0 after hand 1, then gone
    services.record_hand(table=table(round1), number=1, entry=hand_at(FOUR, went_out=2))
    services.withdraw_entry(entry=leaver)
    play(table(round1), range(2, 10), [1, 3, 4])
    for number in (2, 3):
        play(table(round1, number), range(1, 10), FOUR)
    services.close_round(round=round1)
    rows = standings(event)
    through = [r.entry for r in rows if r.status == "active"]
    assert len(through) == 3 and leaver not in through
    with django_capture_on_commit_callbacks(execute=True):  # the seating job
        round2 = services.start_round(event=event)
    round2.refresh_from_db()
    assert round2.status == "draft"
    assert sorted(round2.seats.values_list("entry", flat=True)) == sorted(e.pk for e in through)


# --- forced close ---------------------------------------------------------------------


@pytest.fixture
def forced():
    """One round planned, four tables: two played out, table 3 after 1 hand (its seat
    1 went out: 0 points), table 4 not started; then the round is force-closed."""
    event = make_event(rounds_planned=1)
    round_ = make_round(event, table_sizes=(4, 4, 4, 4))
    for number in (1, 2):
        play(table(round_, number), range(1, 10), FOUR)
    play(table(round_, 3), [1], FOUR)
    services.close_round(round=round_, force=True)
    return event, round_


def test_a_forced_close_leaves_the_event_running_and_is_recorded(forced):
    event, round_ = forced
    round_.refresh_from_db()
    event.refresh_from_db()
    assert (round_.status, round_.forced_close) == ("closed", True)
    assert event.status == Event.Status.RUNNING  # it used to finish by itself
    latest = round_.history.latest("history_id")
    assert reason_words(latest.history_change_reason) == "forced: 2 tables with hands missing"


def test_a_forced_close_scores_the_hands_unplayed_at_the_fields_mean(forced):
    """A player with 1 of 9 hands played used to win the event on 0 points, then to rank
    after every complete set whatever they scored. Now each hand their table could not
    play is scored at the mean of that hand over everyone who played it: 0, 12, 13, 14 at
    the two tables that did, 9.75, so 10."""
    event, round_ = forced
    rows = standings(event)
    assert all(r.sets_incomplete == 0 for r in rows)
    lucky = round_.seats.get(table__number=3, position=1).entry
    ranked = next(r for r in rows if r.entry == lucky)
    assert (ranked.points, ranked.adjusted_hands, ranked.at_fault_hands) == (80, 8, 0)
    assert ranked.rank == 3  # after the two who went out in all nine hands (0)
    assert ranked.adjusted[0] == {
        "round": 1,
        "table": 3,
        "hand": 2,
        "score": 10,
        "at_fault": False,
        "rule": "field_mean",
    }
    unstarted = round_.seats.get(table__number=4, position=1).entry
    assert next(r for r in rows if r.entry == unstarted).points == 90
    assert next(r for r in rows if r.entry == unstarted).adjusted_hands == 9


def test_the_standings_say_which_tables_were_adjusted_and_how(forced):
    event, _ = forced
    standings(event)
    event.refresh_from_db()
    shown = selectors.standings_after(event)
    assert shown.final is False
    assert shown.notices == [
        "In round 1, hands not played at tables 3, 4 were scored from the field: Each hand "
        "unplayed is scored, once the round is closed, at the mean score of everyone who "
        "played that hand in the round (an adjusted score), so the set ranks as complete; a "
        "player the director marks at fault (slow play) gets the field's 75th percentile for "
        "the hand instead: worse than three in four of those who played it. A player who "
        "withdrew keeps an incomplete set."
    ]


def test_a_forced_round_can_be_reopened_finished_and_closed_again(forced, alice):
    event, round_ = forced
    services.reopen_round(round=round_, by=alice)
    round_.refresh_from_db()
    assert (round_.status, round_.forced_close, round_.closed_at) == ("published", False, None)
    reopened = round_.history.latest("history_id")
    assert (reason_words(reopened.history_change_reason), reopened.history_user) == (
        "reopened",
        alice,
    )
    play(table(round_, 3), range(2, 10), FOUR)
    play(table(round_, 4), range(1, 10), FOUR)
    services.close_round(round=round_, by=alice)
    round_.refresh_from_db()
    assert (round_.status, round_.forced_close) == ("closed", False)
    assert all(r.sets_incomplete == 0 for r in standings(event))


def test_only_the_latest_closed_round_can_be_reopened(forced):
    event, round_ = forced
    with pytest.raises(StateConflict, match="only a closed round"):
        services.reopen_round(round=make_round(event, number=2, table_sizes=(4,)))
    with pytest.raises(StateConflict, match=r"Round 2 is published \(in play\); only the latest"):
        services.reopen_round(round=round_)


def test_reopening_a_round_discards_the_next_rounds_draft(forced, alice):
    """A score complaint after the next round was seated: the draft (seated from the
    standings the correction may change) goes, kept in its seats' history."""
    event, round_ = forced
    entries = list(event.entries.order_by("pk"))
    draft = make_round(
        event, number=2, status=Round.Status.DRAFT, table_sizes=(4, 4, 4, 4), entries=entries
    )
    seats = set(draft.seats.values_list("pk", flat=True))
    services.reopen_round(round=round_, by=alice)
    assert list(event.rounds.values_list("number", "status")) == [(1, "published")]
    gone = Seat.history.filter(id__in=seats, history_type="-")
    assert gone.count() == len(seats) == 16
    assert {reason_words(h.history_change_reason) for h in gone} == {
        "discarded: round 1 was reopened"
    }
    assert {h.history_user for h in gone} == {alice}


# --- finishing the event ----------------------------------------------------------------


def test_the_event_finishes_only_when_the_director_says_so(forced):
    event, round_ = forced
    standings(event)
    services.finish_event(event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert selectors.standings_after(event).final is True
    # Reopening the last round puts the event back in play until it is finished again;
    # its results change, so the director says why, and the event keeps when and why.
    with pytest.raises(InvalidInput, match="The event is finished: say why round 1"):
        services.reopen_round(round=round_)
    services.reopen_round(round=round_, reason="table 3's hand 1 was added up wrong")
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert event.results_changed_at is not None
    assert (event.results_changed_round, event.results_changed_reason) == (
        1,
        "table 3's hand 1 was added up wrong",
    )
    assert event.results_changed_text == "Round 1 reopened: table 3's hand 1 was added up wrong"
    assert selectors.standings_after(event).final is False


def test_an_event_with_a_round_in_play_cannot_finish():
    event = make_event()
    with pytest.raises(StateConflict, match="No round has been played"):
        services.finish_event(event=event)
    make_round(event)
    with pytest.raises(StateConflict, match="Round 1 is published .in play.; close it before"):
        services.finish_event(event=event)
    with pytest.raises(StateConflict, match="close it before finishing"):
        services.update_event(event=event, data={"status": "finished"})
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_a_full_rebuild_makes_the_adjusted_scores_again(forced):
    """Adjusted scores are made when a round closes and again by a full rebuild (here
    after they were lost), with the same values and the same standings."""
    event, round_ = forced
    before = [(r.entry_id, r.rank, r.points) for r in standings(event)]
    made = sorted(
        AdjustedScore.objects.filter(seat__round=round_).values_list("seat_id", "number", "score")
    )
    assert len(made) == 4 * 8 + 4 * 9
    AdjustedScore.objects.filter(seat__round=round_).delete()
    call_command("rebuild_standings", event.slug, stdout=io.StringIO())
    again = sorted(
        AdjustedScore.objects.filter(seat__round=round_).values_list("seat_id", "number", "score")
    )
    assert again == made
    after = Standing.objects.filter(round=round_).order_by("rank")
    assert [(r.entry_id, r.rank, r.points) for r in after] == before
