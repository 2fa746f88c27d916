"""Incomplete sets on the public pages and in the exports: a table shows the state a director
set (playing, closed when too few were left, forced), and wherever an incomplete set
or a forced close matters, the page says why."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.test import Client

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
        "played (a forced close). The hands not played here are scored from the field "
        "(adjusted scores, marked in the sheet), so the sets of the players still here rank "
        "as complete"
    ) in page
    # Each hand not played shows its adjusted score and the rule, for every seat.
    assert page.count("the field's mean") == 8 * 4


def test_the_round_page_shows_each_tables_state_and_why(client, event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    page = words(client.get("/events/kingston/rounds/1/"))
    assert "Round closed with hands missing (forced)" in page
    assert "Closed with hands 2-9 missing (the director forced the round closed)" in page
    assert "Closed after hand 2: fewer than three players were left" in page
    # Table 2's players and table 3's two who stayed are adjusted; the one who left
    # table 3 keeps an incomplete set.
    assert page.count("set incomplete") == 1
    assert page.count("8 hands adjusted") == 4 and page.count("7 hands adjusted") == 2


def test_the_leaderboard_says_why_sets_are_adjusted_or_incomplete_and_final_when_finished(
    client, event
):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    page = words(client.get("/events/kingston/"))
    assert "Final standings" not in page and "Standings after round 1" in page
    assert (
        "In round 1, hands not played at tables 2, 3 were scored from the field: Each hand "
        "unplayed is scored, once the round is closed, at the mean score of everyone who "
        "played that hand in the round (an adjusted score)"
    ) in page
    assert "round 1, table 2: hand 2 adjusted:" in page
    assert "round 1, table 3: hand 3 adjusted:" in page
    assert "incomplete set: round 1, table 3: 2 of 9 hands (withdrew)" in page
    services.finish_event(event=event)
    fresh(event)
    assert "Final standings" in words(client.get("/events/kingston/"))


def test_the_csv_exports_mark_forced_and_closed_tables_adjusted_and_incomplete_sets(event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    event.refresh_from_db()
    standings = list(csv.DictReader(io.StringIO(exports.standings_csv(event))))
    assert [row["incomplete"] for row in standings if row["incomplete"]] == [
        "round 1, table 3: 2 of 9 hands (withdrew)"  # the only set left incomplete
    ]
    assert standings[-1]["incomplete"] == "round 1, table 3: 2 of 9 hands (withdrew)"
    adjusted = [row for row in standings if row["adjusted"]]
    assert len(adjusted) == 6  # table 2's four, table 3's two who stayed
    forced = next(row for row in adjusted if "table 2" in row["adjusted"])
    assert forced["adjusted_hands"] == "8" and forced["sets_incomplete"] == "0"
    assert forced["adjusted"].startswith("round 1, table 2: hand 2 adjusted: ")
    assert forced["adjusted"].count("the field's mean") == 8
    hands = list(csv.DictReader(io.StringIO(exports.hands_csv(event))))
    state = {row["table"]: (row["table_state"], row["table_note"]) for row in hands}
    assert state["1"] == ("complete", "")
    assert state["2"][0] == "forced" and "hands 2-9 missing" in state["2"][1]
    assert state["3"][0] == "closed" and state["3"][1].startswith("Closed after hand 2")


def test_a_players_page_says_which_hands_were_adjusted(client, event):
    services.close_round(round=event.rounds.get(), force=True)
    fresh(event)
    player = Seat.objects.get(round__event=event, table__number=2, position=1).entry.player_id
    page = words(client.get(f"/players/{player}/"))
    assert "Sets played 1 (8 hands adjusted: round 1, table 2, hand 2: " in page
    assert "scored from the field where the table could not play them)" in page


def test_a_knockout_round_page_names_who_took_a_place_another_table_left():
    """Advancing two per table: two of table 3's three withdrew after hand 2, so it has
    one set to send through (its third player's, adjusted) and a place left over, which
    goes to the best of the round who had not gone through at their own table."""
    event = make_event(
        slug="ko", name="Knockout Open", format="knockout", advance_per_table=2, rounds_planned=2
    )
    round_ = make_round(event, table_sizes=(4, 4, 3), entries=make_entries(event, 11))
    tables = {t.number: t for t in round_.tables.all()}
    play(tables[1], range(1, 10), FOUR)
    play(tables[2], range(1, 10), FOUR, base=20)
    play(tables[3], [1, 2], [1, 2, 3])
    for position in (2, 3):
        leaver = Seat.objects.get(table=tables[3], position=position).entry
        services.withdraw_entry(entry=leaver, left_after_hand=2)
    services.close_round(round=round_)
    fresh(event)
    filler = Seat.objects.get(table=tables[1], position=3).entry.player  # 117, third
    page = words(Client().get("/events/ko/rounds/1/"))
    assert (
        "Through on a place another table could not fill (it had fewer complete sets than "
        f"places): {filler.name}, the best of the round who had not gone through"
    ) in page
    standing = event.standings.get(round=round_, entry__player=filler)
    assert (standing.status, standing.filled_in) == ("active", [1])
