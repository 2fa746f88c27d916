"""Incomplete sets on the director's pages: withdrawing with a leave point and correcting it,
a table closed below three players, a forced close, reopening a round and finishing
the event, each from the dashboard or the sheet, as a director does it."""

from __future__ import annotations

import html
import re

import pytest

from core import services
from core.stored_texts.words import reason_words
from tests.fixtures import make_world, play
from tests.html import HTMX, Page, row, signed_in
from tournaments.models import Entry, Event, Round, Seat, Table

pytestmark = pytest.mark.django_db


def flashes(response) -> list[str]:
    found = re.findall(r'<li class="flash-\w+">(.*?)</li>', response.content.decode())
    return [html.unescape(text) for text in found]


def seat(w, table: int, position: int) -> Seat:
    return Seat.objects.select_related("entry__player").get(
        round=w.round, table__number=table, position=position
    )


@pytest.fixture
def w3():
    """Round 1 in play at a table of four and a table of three."""
    return make_world(table_sizes=(4, 3))


def test_withdrawing_from_the_dashboard_with_the_hand_the_player_left_after(w3):
    director = signed_in(w3.alice)
    leaver = seat(w3, 1, 2)
    name = leaver.entry.player.name
    page = director.get(w3.url()).content.decode()
    assert 'action="/director/kingston/withdraw/"' in page and 'name="left_after_hand"' in page
    response = director.post(
        w3.url("withdraw/"), {"player": leaver.entry_id, "left_after_hand": "4"}, follow=True
    )
    assert flashes(response) == [
        f"{name} withdrew after hand 4 at table 1: their set is incomplete and ranks after "
        "the round's complete sets."
    ]
    assert seat(w3, 1, 2).left_after_hand == 4
    assert Entry.objects.get(pk=leaver.entry_id).status == "withdrawn"
    # The dashboard lists the leave point with a form to change it.
    words = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(response.content.decode())).split())
    assert f"{name}, round 1 table 1: left after hand 4" in words


def test_the_leave_point_is_changed_from_the_dashboard_or_the_refusal_is_shown(w3):
    director = signed_in(w3.alice)
    leaver = seat(w3, 1, 2)
    services.withdraw_entry(entry=leaver.entry, left_after_hand=2, by=w3.alice)
    play(w3.table, [1, 2], [1, 2, 3, 4])
    play(w3.table, [3], [1, 3, 4])
    refused = director.post(
        w3.url("leave-point/"), {"player": leaver.entry_id, "left_after_hand": "5"}, follow=True
    )
    name = leaver.entry.player.name
    assert flashes(refused) == [
        f"Hand 3 at table 1 was recorded without {name}: delete it first, then enter it "
        f"again with {name}'s score, or give an earlier leave point."
    ]
    assert seat(w3, 1, 2).left_after_hand == 2
    moved = director.post(
        w3.url("leave-point/"), {"player": leaver.entry_id, "left_after_hand": "1"}, follow=True
    )
    assert "has a score in hand 2 at table 1" in flashes(moved)[0]


def test_a_table_of_three_that_loses_a_player_closes_and_its_sheet_says_why(w3):
    director = signed_in(w3.alice)
    three = Table.objects.get(round=w3.round, number=2)
    play(three, [1, 2], [1, 2, 3])
    leaver = seat(w3, 2, 3)
    response = director.post(w3.url("withdraw/"), {"player": leaver.entry_id}, follow=True)
    assert flashes(response)[0].endswith(
        "Table 2 has fewer than three players left, so it closed after hand 2: once the round "
        "is closed, the hands it could not play are scored from the field for the players "
        "still at it."
    )
    assert "closed after hand 2" in Page(response.content).text("table-2")
    # The sheet says why, and a hand after the end is refused with the reason (not a 500).
    sheet = Page(director.get(w3.sheet_url(table=2)).content)
    assert sheet.text("table-state") == (
        "Closed after hand 2: fewer than three players were left; once the round is "
        "closed, the hands not played here are scored from the field (adjusted), so the "
        "sets of the players still here rank as complete. No hand after hand 2 can be "
        "entered here."
    )
    refused = director.post(w3.hand_url(3, table=2), row(went_out=1, seat1="0", seat2="5"), **HTMX)
    assert refused.status_code == 409
    assert (
        Page(refused.content)
        .problems(3)[0]
        .startswith("Table 2 cannot play hand 3: only 2 players are left")
    )


def test_a_forced_close_is_marked_and_the_round_can_be_reopened_with_history(w3):
    director = signed_in(w3.alice)
    play(w3.table, range(1, 10), [1, 2, 3, 4])
    dashboard = director.get(w3.url()).content.decode()
    assert "The hands not played are scored from the field" in html.unescape(dashboard)
    forced = director.post(w3.url("rounds/1/force-close/"), follow=True)
    page = Page(forced.content)
    assert "forced" in page.text("table-2") and "complete" in page.text("table-1")
    assert "Reopen round 1" in forced.content.decode()
    assert Event.objects.get(pk=w3.event.pk).status == "running"
    reopened = director.post(
        w3.url("rounds/1/reopen/"), {"reason": "table 2 found its sheet"}, follow=True
    )
    assert flashes(reopened) == [
        "Round 1 is reopened: it is in play again, and its hands can be entered or "
        "corrected. Close it again when they are."
    ]
    round_ = Round.objects.get(pk=w3.round.pk)
    assert (round_.status, round_.forced_close) == ("published", False)
    reason = round_.history.latest("history_id")
    assert (reason_words(reason.history_change_reason), reason.history_user) == (
        "reopened: table 2 found its sheet",
        w3.alice,
    )


def test_the_event_is_finished_from_the_dashboard_only_when_every_round_is_closed(w3):
    director = signed_in(w3.alice)
    assert "Finish the event" not in director.get(w3.url()).content.decode()
    refused = director.post(w3.url("finish/"), follow=True)
    assert flashes(refused) == [
        "Round 1 is published (in play); close it before finishing the event."
    ]
    services.close_round(round=w3.round, force=True)
    page = director.get(w3.url()).content.decode()
    assert "Finish the event" in page and "Only 1 of the 3 planned rounds were played" in page
    finished = director.post(w3.url("finish/"), follow=True)
    assert flashes(finished) == ["The event is finished: its standings are the final results."]
    assert Event.objects.get(pk=w3.event.pk).status == "finished"


def test_another_directors_event_gives_nothing_away(w3):
    bob = signed_in(w3.bob)
    leaver = seat(w3, 1, 2)
    for action in ("withdraw/", "leave-point/", "finish/", "rounds/1/reopen/"):
        response = bob.post(w3.url(action), {"player": leaver.entry_id, "left_after_hand": "1"})
        assert response.status_code == 404, action
    assert Entry.objects.get(pk=leaver.entry_id).status == "active"


def test_the_dashboard_offers_to_reopen_a_round_under_a_draft_and_says_it_goes(w3):
    director = signed_in(w3.alice)
    play(w3.table, range(1, 10), [1, 2, 3, 4])
    director.post(w3.url("rounds/1/force-close/"))
    services.update_event(event=w3.event, data={"rounds_planned": 2})
    services.start_round(event=w3.event, seed=3)  # round 2: being seated as a draft
    assert Round.objects.get(event=w3.event, number=2).status in ("seating", "draft")
    page = html.unescape(director.get(w3.url("rounds/1/")).content.decode())
    assert "Reopen round 1" in page
    assert "The draft seating of round 2 is discarded: start it again once this round" in page
    director.post(w3.url("rounds/1/reopen/"))
    assert list(w3.event.rounds.values_list("number", "status")) == [(1, "published")]


def test_a_slow_table_is_marked_at_fault_from_its_sheet(w3):
    director = signed_in(w3.alice)
    play(w3.table, range(1, 10), [1, 2, 3, 4])
    play(Table.objects.get(round=w3.round, number=2), range(1, 9), [1, 2, 3])
    director.post(w3.url("rounds/1/force-close/"))
    before = html.unescape(director.get(w3.sheet_url(table=2)).content.decode())
    assert before.count("hand 9 adjusted:") == 3 and "at fault:" not in before
    url = w3.sheet_url(table=2) + "at-fault/"
    refused = director.post(url, {"seats": ["1", "3"]}, follow=True)
    assert flashes(refused)[0].startswith("Say why the players are at fault")
    marked = director.post(url, {"seats": ["1", "3"], "reason": "slow play"}, follow=True)
    assert flashes(marked) == ["Table 2: seats 1, 3 marked at fault for the hands not played."]
    assert [s.at_fault for s in Table.objects.get(round=w3.round, number=2).seats.all()] == [
        "slow play",
        "",
        "slow play",
    ]
    page = html.unescape(director.get(w3.sheet_url(table=2)).content.decode())
    assert page.count("at fault: the field's 75th percentile") == 2
    assert 'value="1" checked' in page and 'value="2">' in page
