"""The event dashboard: the rounds, each table's progress in the current round, and the
round actions (start, publish, close, force close, seat again, swap, move, lock)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client

from core import services
from game import rules
from tests.fixtures import make_entries, make_round, make_world
from tests.html import Page, signed_in
from tournaments.models import Event, Round, Seat, Table

pytestmark = pytest.mark.django_db


def record(table: Table, number: int) -> None:
    entry = rules.HandEntry(
        went_out=1,
        scores=tuple(rules.SeatEntry(seat, points=0 if seat == 1 else 5) for seat in (1, 2, 3, 4)),
    )
    services.record_hand(table=table, number=number, entry=entry)


def flashes(response) -> list[str]:
    return re.findall(r'<li class="flash-\w+">(.*?)</li>', response.content.decode())


def test_each_tables_progress_and_what_is_missing(w, director):
    for number in (1, 2, 3, 5):
        record(w.table, number)
    table_2 = w.round.tables.get(number=2)
    for number in range(1, 10):
        record(table_2, number)
    page = Page(director.get(w.url()).content)
    assert page.text("table-1").split(" ")[:2] == ["Table", "1"]
    assert "4 of 9" in page.text("table-1")
    assert "hands 4, 6-9" in page.text("table-1")
    assert "in progress" in page.text("table-1")
    assert "9 of 9" in page.text("table-2") and "complete" in page.text("table-2")
    assert page.text("round-summary") == "1 of 2 tables complete · 0 locked"
    assert f'href="{w.sheet_url(table=2)}"' in director.get(w.url()).content.decode()


def test_a_locked_table_shows_as_locked(w, director):
    response = director.post(w.url("rounds/1/tables/2/lock/"))
    assert response["Location"] == w.url()
    page = Page(director.get(w.url()).content)
    assert "locked" in page.text("table-2")
    assert page.text("round-summary") == "0 of 2 tables complete · 1 locked"
    director.post(w.url("rounds/1/tables/2/unlock/"))
    assert not Table.objects.get(round=w.round, number=2).locked


def test_the_lock_action_says_what_it_did(w, director):
    response = director.post(w.url("rounds/1/tables/2/lock/"), follow=True)
    assert flashes(response) == ["Table 2 is locked."]


def test_closing_a_round_with_hands_missing_is_refused_then_forced(w, director):
    record(w.table, 1)
    response = director.post(w.url("rounds/1/close/"), follow=True)
    assert flashes(response) == [
        "Hands are missing: table 1 has 1 of 9 hands; table 2 has 0 of 9 hands. "
        "Enter them, or close with force."
    ]
    assert Round.objects.get(pk=w.round.pk).status == "published"
    response = director.post(w.url("rounds/1/force-close/"), follow=True)
    assert flashes(response) == ["Round 1 is closed with hands missing (recorded as forced)."]
    closed = Round.objects.get(pk=w.round.pk)
    assert (closed.status, closed.forced_close) == ("closed", True)
    assert "with hands missing (forced)" in response.content.decode()


def test_a_complete_round_closes(w, director):
    for table in w.round.tables.all():
        for number in range(1, 10):
            record(table, number)
    response = director.post(w.url("rounds/1/close/"), follow=True)
    assert flashes(response) == ["Round 1 is closed."]
    closed = Round.objects.get(pk=w.round.pk)
    assert (closed.status, closed.forced_close) == ("closed", False)


def draft_round(w, sizes=(4, 4)) -> Round:
    """Round 2 of director's event as a draft, after round 1 closed."""
    Round.objects.filter(pk=w.round.pk).update(status="closed")
    entries = [seat.entry for seat in Seat.objects.filter(round=w.round).order_by("id")]
    entries += make_entries(w.event, sum(sizes) - len(entries)) if sum(sizes) > len(entries) else []
    return make_round(w.event, number=2, table_sizes=sizes, status="draft", entries=entries)


def test_a_draft_round_is_published(w, director):
    draft_round(w)
    page = director.get(w.url()).content.decode()
    assert "Publish round 2" in page and "Seating quality" in page
    response = director.post(w.url("rounds/2/publish/"), follow=True)
    assert flashes(response) == ["Round 2 is published: it is in play."]
    assert Round.objects.get(event=w.event, number=2).status == "published"


def test_publishing_twice_is_refused_in_words(w, director):
    response = director.post(w.url("rounds/1/publish/"), follow=True)
    assert flashes(response) == ["Round 1 is already published."]


def test_two_players_swap_places(w, director):
    round_2 = draft_round(w)
    a = Seat.objects.get(round=round_2, table__number=1, position=2)
    b = Seat.objects.get(round=round_2, table__number=2, position=3)
    data = {"first": a.entry_id, "second": b.entry_id}
    response = director.post(w.url("rounds/2/swap/"), data, follow=True)
    assert flashes(response) == [
        f"{a.entry.player.name} and {b.entry.player.name} have swapped places."
    ]
    assert Seat.objects.get(round=round_2, entry_id=a.entry_id).table.number == 2
    assert Seat.objects.get(round=round_2, entry_id=b.entry_id).table.number == 1
    assert "repeat meeting" in response.content.decode()


def test_a_player_moves_to_another_table(w, director):
    round_2 = draft_round(w, sizes=(5, 4))
    mover = Seat.objects.get(round=round_2, table__number=1, position=5)
    response = director.post(
        w.url("rounds/2/move/"), {"player": mover.entry_id, "table": "2"}, follow=True
    )
    assert flashes(response) == [f"{mover.entry.player.name} moved to table 2."]
    assert Seat.objects.get(round=round_2, entry_id=mover.entry_id).table.number == 2


def test_a_move_the_service_refuses_is_told(w, director):
    round_2 = draft_round(w)
    mover = Seat.objects.get(round=round_2, table__number=1, position=1)
    response = director.post(
        w.url("rounds/2/move/"), {"player": mover.entry_id, "table": "1"}, follow=True
    )
    assert flashes(response) == [f"{mover.entry.player.name} already sits at table 1."]


def test_a_swap_with_a_player_of_another_event_is_refused(w, director):
    draft_round(w)
    stranger = make_entries(w.bobs_event, 1)[0]
    seat = Seat.objects.filter(round__number=2, round__event=w.event).first()
    response = director.post(
        w.url("rounds/2/swap/"), {"first": seat.entry_id, "second": stranger.pk}, follow=True
    )
    assert flashes(response) == ["Choose a player of this event."]


def test_go_to_table_opens_its_sheet(w, director):
    response = director.get(w.url("rounds/1/go/"), {"table": "2"})
    assert response["Location"] == w.sheet_url(table=2)
    response = director.get(w.url("rounds/1/go/"), {"table": "7"}, follow=True)
    assert flashes(response) == ["Round 1 has no such table."]


def test_the_quality_report_names_the_repeat_meetings(w, director):
    round_2 = draft_round(w)
    a, b = Seat.objects.filter(round=round_2, table__number=1).order_by("position")[:2]
    round_2.quality = {
        "repeat_meetings": 1,
        "repeat_pairs": [[a.entry_id, b.entry_id]],
        "lower_bound": 0,
        "rank_spread": [3, 5],
    }
    round_2.save()
    body = " ".join(director.get(w.url()).content.decode().split())
    assert "<strong>1</strong> repeat meeting (pairs at one table who have met before)" in body
    assert "the least possible is 0" in body
    assert f"Meeting again: {a.entry.player.name} and {b.entry.player.name}." in body
    assert "Widest gap in standings at one table: 5 places." in body


def test_a_seating_that_failed_says_why(w, director):
    round_2 = draft_round(w)
    round_2.quality = {"error": "only 2 players are active"}
    round_2.save()
    assert "The seating could not be made: only 2 players are active" in (
        director.get(w.url()).content.decode()
    )


def test_older_rounds_stay_readable(w, director):
    draft_round(w)
    page = director.get(w.url("rounds/1/")).content.decode()
    assert "Round 1: closed" in page
    assert director.get(w.url("rounds/3/")).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_starting_a_round_seats_it_as_a_draft():
    w = make_world()
    director = signed_in(w.alice)
    director.post(w.url("rounds/1/force-close/"), follow=True)
    page = director.get(w.url()).content.decode()
    assert "Start round 2" in page
    response = director.post(w.url("rounds/start/"), {"policy": "mixer", "seed": "42"}, follow=True)
    assert flashes(response) == [
        "The next round is started; its seating is ready below as a draft."
    ]
    round_2 = Round.objects.get(event=w.event, number=2)
    assert (round_2.status, round_2.policy, round_2.seed) == ("draft", "mixer", 42)
    assert Seat.objects.filter(round=round_2).count() == 8
    assert "Seating quality" in response.content.decode()
    assert "Publish round 2" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_seating_a_draft_again_with_a_seed():
    w = make_world()
    director = signed_in(w.alice)
    director.post(w.url("rounds/1/force-close/"), follow=True)
    director.post(w.url("rounds/start/"), {"seed": "1"}, follow=True)
    response = director.post(w.url("rounds/2/reseat/"), {"seed": "99"}, follow=True)
    assert flashes(response) == ["Round 2 is seated again."]
    round_2 = Round.objects.get(event=w.event, number=2)
    assert (round_2.status, round_2.seed) == ("draft", 99)
    assert Seat.objects.filter(round=round_2).count() == 8


def test_starting_a_round_while_one_is_in_play_is_refused(w, director):
    response = director.post(w.url("rounds/start/"), {}, follow=True)
    assert flashes(response) == [
        "Round 1 is published (in play); close it before starting the next."
    ]
    assert not Round.objects.filter(number=2).exists()


def test_a_seed_that_is_not_a_number_is_refused(w, director):
    director.post(w.url("rounds/1/force-close/"), follow=True)
    response = director.post(w.url("rounds/start/"), {"seed": "abc"}, follow=True)
    assert flashes(response) == ["Seed: Enter a whole number."]
    assert not Round.objects.filter(number=2).exists()


def test_in_a_round_in_play_only_untouched_tables_offer_their_players_to_move(w, director):
    record(w.table, 1)
    body = director.get(w.url()).content.decode()
    at = {
        seat.entry.player.name: seat.table.number
        for seat in Seat.objects.filter(round=w.round).select_related("entry__player", "table")
    }
    offered = set(re.findall(r'<option value="\d+">(.*?) \(table', body))
    assert offered == {name for name, table in at.items() if table == 2}


def test_the_dashboard_links_to_the_toolkit(client, django_user_model):
    from tests.fixtures import make_event, make_round

    event = make_event(slug="toolkit-links")
    make_round(event, table_sizes=(4,))
    user = django_user_model.objects.create_user("tk", password="pw")
    event.directors.add(user)
    client.force_login(user)
    page = client.get("/director/toolkit-links/").content.decode()
    for path in (
        "/director/toolkit-links/toolkit/import/",
        "/director/toolkit-links/toolkit/rounds/1/table-cards.pdf",
        "/director/toolkit-links/toolkit/rounds/1/score-sheets.pdf",
        "/director/toolkit-links/toolkit/exports/standings.csv",
    ):
        assert path in page
        assert client.get(path).status_code == 200, path


def test_dates_are_written_one_way_everywhere(w, director):
    Event.objects.filter(pk=w.event.pk).update(starts_on=datetime.date(2026, 12, 5))
    assert "5 Dec 2026" in director.get("/director/").content.decode()
    assert "5 Dec 2026" in director.get(w.url("toolkit/")).content.decode()
    assert "5 Dec 2026" in Client().get("/events/").content.decode()
