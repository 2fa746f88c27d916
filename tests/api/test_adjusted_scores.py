"""Adjusted scores through the REST API (README, "Standings"): a table cut short by time
is scored from the field once the round closes; the director marks a slow table at
fault (a worse, documented score); a knockout goes on with adjusted sets; reopening a
finished event's round needs a reason and says so on the event."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase

from core.stored_texts.words import reason_words
from tests.api.conftest import Api, hand_url
from tests.api.test_incomplete_sets import body, sender
from tests.fixtures import kept_for_the_module, make_alice, make_entries, make_event, make_round
from tournaments.models import Event, Seat

pytestmark = pytest.mark.django_db

EVENT = "/api/v1/events/kingston/"
TABLE_2 = EVENT + "rounds/1/tables/2/"


@pytest.fixture
def client(api, alice, django_capture_on_commit_callbacks):
    return sender(api.as_(alice), django_capture_on_commit_callbacks)


def cut_short_by_time(client, event, format: str):
    """Three tables of four: tables 1 and 3 played all 9 hands (seat 1 out each time, the
    others 12, 13, 14; table 3 the same, 20 more each), table 2 only 8 when time ran out
    (seat 2 out each time); the round force-closed."""
    event.rounds_planned = 2
    event.format = format
    event.save()
    make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    for number in range(1, 10):
        client("put", hand_url(table=1, hand=number), body([1, 2, 3, 4]))
        client("put", hand_url(table=3, hand=number), body([1, 2, 3, 4], base=30))
        if number < 9:
            client("put", hand_url(table=2, hand=number), body([1, 2, 3, 4], went_out=2))
    assert client("post", EVENT + "rounds/1/close/", {"force": True}).status_code == 200
    return event


def alices_event_cut_short() -> None:
    """alice's event (as the `alice` and `event` fixtures make them), its round 1 cut
    short by time (`cut_short_by_time`, format total), sent by alice's client with each
    request's committed work run at once (as `client` does)."""
    alice = make_alice()
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    client = sender(Api().as_(alice), TestCase.captureOnCommitCallbacks)
    cut_short_by_time(client, event, "total")


@pytest.fixture
def knockout_time_ran_out(client, event):
    return cut_short_by_time(client, event, "knockout")


def player(round_number: int, table: int, position: int) -> int:
    seat = Seat.objects.get(round__number=round_number, table__number=table, position=position)
    return seat.entry.player_id


def row_of(client, player_id: int) -> dict:
    rows = client("get", EVENT + "standings/").json()["standings"]
    return next(r for r in rows if r["player"]["id"] == player_id)


@pytest.fixture(scope="class")
def cut_short(django_db_setup, django_db_blocker):
    """`alices_event_cut_short`, made once for the tests of a class."""
    yield from kept_for_the_module(django_db_blocker, alices_event_cut_short)


class TestTimeRanOut:
    """Tests that start from `alices_event_cut_short` (`cut_short`). It is kept for this
    class alone: the module's other tests make a `kingston` event of their own."""

    @pytest.fixture
    def alice(self, cut_short, db):
        """The event's director, as made with it."""
        return get_user_model().objects.get(username="alice")

    @pytest.fixture
    def time_ran_out(self, cut_short, db) -> Event:
        return Event.objects.get(slug="kingston")

    def test_the_best_player_of_a_table_cut_short_is_ranked_on_a_complete_set(
        self, client, time_ran_out
    ):
        """Table 2's seat 2 went out in all 8 hands it played: 0. Its hand 9 is scored at the
        mean of hand 9 at the tables that played it (0, 12, 13, 14, 0, 32, 33, 34: 17.25 ->
        17), and they rank third on 17 (after the two who went out in all nine hands, on 0),
        not after every complete set."""
        best = row_of(client, player(1, 2, 2))
        assert (best["rank"], best["points"], best["sets_incomplete"]) == (3, 17, 0)
        assert (best["adjusted_hands"], best["at_fault_hands"]) == (1, 0)
        assert (
            best["adjusted"][0]["text"] == "round 1, table 2: hand 9 adjusted: 17, the field's mean"
        )
        table = client("get", TABLE_2).json()
        assert [(a["hand"], a["seat"], a["score"]) for a in table["adjusted"]] == [
            (9, 1, 17),
            (9, 2, 17),
            (9, 3, 17),
            (9, 4, 17),
        ]

    def test_a_table_marked_at_fault_gets_the_fields_75th_percentile(
        self, client, time_ran_out, alice
    ):
        refused = client("post", TABLE_2 + "at-fault/", {"seats": [1, 2, 3, 4]})
        assert refused.status_code == 400 and "reason" in refused.json()
        assert client("post", TABLE_2 + "at-fault/", {"seats": [7], "reason": "slow"}).json() == {
            "seats": {"0": ["Ensure this value is less than or equal to 6."]}
        }
        absent = client("post", TABLE_2 + "at-fault/", {"seats": [5], "reason": "slow"})
        assert absent.status_code == 400
        assert absent.json() == {"seats": ["Table 2 has no seat 5; its seats are 1, 2, 3, 4."]}
        assert client("get", TABLE_2).json()["adjusted"][0]["at_fault"] is False  # unchanged
        marked = client(
            "post", TABLE_2 + "at-fault/", {"seats": [1, 2, 3, 4], "reason": "slow play"}
        )
        assert marked.status_code == 200
        # Hand 9's field sorted: 0, 0, 12, 13, 14, 32, 33, 34; its 75th percentile lies a
        # quarter of the way from the 6th to the 7th: 32.25 -> 32.
        assert {(a["score"], a["at_fault"], a["rule"]) for a in marked.json()["adjusted"]} == {
            (32, True, "at_fault")
        }
        best = row_of(client, player(1, 2, 2))
        assert (best["points"], best["adjusted_hands"], best["at_fault_hands"]) == (32, 1, 1)
        assert "at fault: the field's 75th percentile" in best["adjusted"][0]["text"]
        seat = Seat.objects.get(round__number=1, table__number=2, position=1)
        latest = seat.history.latest("history_id")
        assert (reason_words(latest.history_change_reason), latest.history_user) == (
            "at fault: slow play",
            alice,
        )
        # Cleared: the field's mean again.
        cleared = client("post", TABLE_2 + "at-fault/", {"seats": []}).json()
        assert {a["score"] for a in cleared["adjusted"]} == {17}

    def test_only_the_events_directors_mark_players_at_fault(self, api, time_ran_out):
        response = api.as_().post(TABLE_2 + "at-fault/", {"seats": [1], "reason": "slow"})
        assert response.status_code in (401, 403)

    def test_reopening_a_finished_events_round_needs_a_reason_and_says_so(
        self, client, time_ran_out
    ):
        assert client("post", EVENT + "finish/").status_code == 200
        refused = client("post", EVENT + "rounds/1/reopen/", {})
        assert refused.status_code == 400
        assert refused.json()["reason"][0].startswith("The event is finished: say why round 1")
        assert client("get", EVENT).json()["status"] == "finished"
        reopened = client("post", EVENT + "rounds/1/reopen/", {"reason": "table 2 found hand 9"})
        assert reopened.status_code == 200
        shown = client("get", EVENT).json()
        assert shown["status"] == "running" and shown["results_changed_at"] is not None
        assert shown["results_changed_reason"] == "Round 1 reopened: table 2 found hand 9"
        assert client("get", TABLE_2).json()["adjusted"] == []  # in play: nothing adjusted

    def test_long_reasons_are_kept_whole(self, client, time_ran_out, root, api):
        """The history keeps a director's reason whole (PostgreSQL refused more than 100
        characters)."""
        why = ("slow play: " + "the table argued over a laydown for twenty minutes; " * 4)[:200]
        marked = client("post", TABLE_2 + "at-fault/", {"seats": [1], "reason": why})
        assert marked.status_code == 200
        seat = Seat.objects.get(round__number=1, table__number=2, position=1)
        kept = reason_words(seat.history.latest("history_id").history_change_reason)
        assert kept == "at fault: " + why.strip() and len(kept) > 200
        assert client("post", EVENT + "finish/").status_code == 200
        long = "x" * 280
        reopened = client("post", EVENT + "rounds/1/reopen/", {"reason": long})
        assert reopened.status_code == 200
        assert client("get", EVENT).json()["results_changed_reason"] == f"Round 1 reopened: {long}"


def test_a_knockout_sends_the_best_of_a_table_cut_short_through(client, knockout_time_ran_out):
    """Table 2 used to send nobody through (no complete set), and the next round could
    not be seated. Its adjusted sets are complete: its winner goes through."""
    rows = client("get", EVENT + "standings/").json()["standings"]
    through = {r["player"]["id"] for r in rows if r["status"] == "active"}
    assert through == {player(1, 1, 1), player(1, 2, 2), player(1, 3, 1)}
    started = client("post", EVENT + "rounds/", {})
    assert started.status_code in (201, 202), started.json()


def test_in_table_points_a_table_cut_short_shares_out_its_places(client, event):
    """Everyone at a table cut short used to get 0 placement points; now its places
    come from the adjusted totals, as at any other table."""
    cut_short_by_time(client, event, "table-points")
    rows = client("get", EVENT + "standings/").json()["standings"]
    at_table_2 = sorted(
        (r["table_points"], r["points"])
        for r in rows
        if r["player"]["id"] in {player(1, 2, p) for p in (1, 2, 3, 4)}
    )
    # Seat 2 out in the 8 hands played: 0, then 17 for hand 9; seat 1 8 * 11 + 17,
    # seat 3 8 * 13 + 17, seat 4 8 * 14 + 17: the places 4/2/1/0 follow.
    assert at_table_2 == [(0.0, 129), (1.0, 121), (2.0, 105), (4.0, 17)]


def test_the_players_left_at_a_table_two_others_left_are_adjusted(client, event):
    """A table of four where two withdrew after hand 5 closes there: the two who stayed
    get hands 6-9 from the field, the two who left keep incomplete sets."""
    event.rounds_planned = 1
    event.save()
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    for number in range(1, 10):
        client("put", hand_url(table=1, hand=number), body([1, 2, 3, 4]))
        if number <= 5:
            client("put", hand_url(table=2, hand=number), body([1, 2, 3, 4]))
    for position in (3, 4):
        entry = Seat.objects.get(round__number=1, table__number=2, position=position).entry
        left = client("patch", EVENT + f"entries/{entry.pk}/", {"status": "withdrawn"})
        assert left.status_code == 200
    table = client("get", TABLE_2).json()
    assert (table["state"], table["closed_after_hand"]) == ("closed", 5)
    assert client("post", EVENT + "rounds/1/close/", {}).json()["forced_close"] is False
    rows = {r["player"]["id"]: r for r in client("get", EVENT + "standings/").json()["standings"]}
    stayed = rows[player(1, 2, 1)]
    # 0 in the 5 hands played, then the field's mean of each (9.75, so 10): second, after
    # table 1's seat 1 on 0, no longer after every complete set.
    assert (stayed["adjusted_hands"], stayed["sets_incomplete"], stayed["rank"]) == (4, 0, 2)
    assert stayed["points"] == 4 * 10
    left = rows[player(1, 2, 3)]
    assert (left["adjusted_hands"], left["sets_incomplete"], left["status"]) == (
        0,
        1,
        "withdrawn",
    )
    assert left["rank"] > max(r["rank"] for r in rows.values() if not r["sets_incomplete"])
