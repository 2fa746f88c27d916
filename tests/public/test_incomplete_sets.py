"""Incomplete sets on the public pages and in the exports: a table shows the state a director
set (playing, closed when too few were left, forced), and wherever an incomplete set
or a forced close matters, the page says why."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import cache

from core import services
from core.standings import exports
from tests.fixtures import make_entries, make_event, make_round, play
from tournaments.models import Event, Seat

pytestmark = pytest.mark.django_db
FOUR = [1, 2, 3, 4]


def words(response) -> str:
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    page = " ".join(page.replace("&#x27;", "'").split())
    return re.sub(r" ([:.,)])", r"\1", page)  # as read: "complete</strong>:" is "complete:"


@pytest.fixture
def event() -> Event:
    """Round 1 of 1 in play: table 1 played out, table 2 after hand 1, and table 3 (of
    three) where seat 3 withdrew after hand 2."""
    event = make_event(slug="kingston", name="Kingston Open", rounds_planned=1)
    entries = make_entries(event, 11)
    round_ = make_round(event, table_sizes=(4, 4, 3), entries=entries)
    tables = {t.number: t for t in round_.tables.all()}
    play(tables[1], range(1, 10), FOUR)
    play(tables[2], [1], FOUR)
    play(tables[3], [1, 2], [1, 2, 3])
    services.withdraw_entry(entry=Seat.objects.get(table=tables[3], position=3).entry)
    services.refresh_standings(event=event)
    return event


def fresh(event: Event) -> None:
    """The standings rebuilt and the page cache emptied, as after a change commits."""
    services.refresh_standings(event=event)
    cache.clear()


def test_each_table_page_shows_the_state_the_director_set(client, event):
    table = "/events/kingston/rounds/1/tables/{}/"
    assert "Set complete: all 9 hands scored." in words(client.get(table.format(1)))
    assert "Now playing hand 2 of 9" in words(client.get(table.format(2)))
    closed = words(client.get(table.format(3)))
    assert "Table closed after hand 2: fewer than three players were left" in closed
    assert "left after hand 2 (withdrew: set incomplete)" in closed
    assert "Now playing" not in closed


def test_a_forced_table_no_longer_says_now_playing(client, event):
    """It said "Now playing hand 2 of 9" once the round was closed."""
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    page = words(client.get("/events/kingston/rounds/1/tables/2/"))
    assert "Now playing" not in page
    assert (
        "Closed with hands 2-9 missing: the director closed the round before they were "
        "played (a forced close). The sets here are incomplete: they rank after the round's "
        "complete sets."
    ) in page


def test_the_round_page_shows_each_tables_state_and_why(client, event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    page = words(client.get("/events/kingston/rounds/1/"))
    assert "Round closed with hands missing (forced)" in page
    assert "Closed with hands 2-9 missing (the director forced the round closed)" in page
    assert "Closed after hand 2: fewer than three players were left" in page
    assert page.count("set incomplete") == 7  # tables 2 and 3: every player


def test_the_leaderboard_says_why_sets_are_incomplete_and_final_only_when_finished(client, event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    page = words(client.get("/events/kingston/"))
    assert "Final standings" not in page and "Standings after round 1" in page
    assert (
        "Round 1 was closed with hands missing at table 2 (forced): the sets there are "
        "incomplete and rank after the round's complete sets."
    ) in page
    assert "In round 1, table 3 closed early: fewer than three players were left" in page
    assert (
        "incomplete set: round 1, table 2: 1 of 9 hands (forced close: the round was closed "
        "with hands missing)"
    ) in page
    assert "incomplete set: round 1, table 3: 2 of 9 hands (withdrew)" in page
    services.finish_event(event=event)
    fresh(event)
    assert "Final standings" in words(client.get("/events/kingston/"))


def test_the_csv_exports_mark_forced_and_closed_tables_and_incomplete_sets(event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    event.refresh_from_db()
    standings = list(csv.DictReader(io.StringIO(exports.standings_csv(event))))
    complete, forced = standings[0], standings[-1]  # the most hands missing come last
    assert (complete["sets_incomplete"], complete["incomplete"]) == ("0", "")
    assert (forced["sets_incomplete"], forced["incomplete"]) == (
        "1",
        "round 1, table 2: 1 of 9 hands (forced close: the round was closed with hands missing)",
    )
    short = {row["incomplete"] for row in standings if "table 3" in row["incomplete"]}
    assert short == {
        "round 1, table 3: 2 of 9 hands (withdrew)",
        "round 1, table 3: 2 of 9 hands (table closed: fewer than three players were left)",
    }
    hands = list(csv.DictReader(io.StringIO(exports.hands_csv(event))))
    state = {row["table"]: (row["table_state"], row["table_note"]) for row in hands}
    assert state["1"] == ("complete", "")
    assert state["2"][0] == "forced" and "hands 2-9 missing" in state["2"][1]
    assert state["3"][0] == "closed" and state["3"][1].startswith("Closed after hand 2")


def test_a_players_page_says_a_set_was_incomplete(client, event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    player = Seat.objects.get(round__event=event, table__number=2, position=1).entry.player_id
    page = words(client.get(f"/players/{player}/"))
    assert "Sets played 1 (1 incomplete: they rank after the complete sets of their round)" in page
