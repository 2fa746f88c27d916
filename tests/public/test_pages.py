"""The other public pages: the events list, a round's tables, a table's sheet and a
player's results across events."""

from __future__ import annotations

import re

import pytest

from core import services
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from tests.fixtures import make_entries, make_event, make_round, make_user
from tournaments.models import Entry, Event, Round

pytestmark = pytest.mark.django_db


def record(table, number: int, went_out: int, points: dict[int, int], **extra) -> None:
    scores = tuple(SeatEntry(seat, p) for seat, p in points.items())
    services.record_hand(
        table=table, number=number, entry=HandEntry(went_out=went_out, scores=scores, **extra)
    )


def text(html: str) -> str:
    """The page's words, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture
def event() -> Event:
    event = make_event(slug="kingston", name="Kingston Open")
    entries = make_entries(event, 8)
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    for entry, name in zip(entries, names, strict=True):
        entry.player.name = name
        entry.player.save()
    make_round(event, table_sizes=(4, 4), entries=entries)
    return event


# --- The events list ----------------------------------------------------------------


def test_the_front_page_lists_running_upcoming_and_finished_events(client):
    make_event(name="Kingston Open", status=Event.Status.RUNNING)
    make_event(name="Montego Bay Cup", status=Event.Status.REGISTRATION)
    make_event(name="Ocho Rios Classic", status=Event.Status.FINISHED)
    make_event(name="Still a draft", status=Event.Status.DRAFT)
    make_event(name="Secret Invitational", status=Event.Status.RUNNING, public=False)
    words = text(client.get("/").content.decode())
    assert words.index("Playing now") < words.index("Kingston Open")
    assert words.index("Coming up") < words.index("Montego Bay Cup")
    assert words.index("Finished") < words.index("Ocho Rios Classic")
    assert "Still a draft" not in words
    assert "Secret Invitational" not in words


def test_a_running_event_is_one_click_from_its_live_leaderboard(client, event):
    html = client.get("/").content.decode()
    assert re.search(r'<a class="button" href="/events/kingston/">Live leaderboard', html)
    assert 'href="/events/kingston/projector/"' in html
    assert "8 players · round 1 of 3" in text(html)


def test_a_director_sees_their_private_event_in_the_list(client):
    alice = make_user("alice")
    make_event(name="Secret Invitational", public=False).directors.add(alice)
    client.force_login(alice)
    assert "Secret Invitational" in client.get("/").content.decode()


def test_the_trivial_view_answers_ok(client):
    response = client.get("/healthz")
    assert (response.status_code, response.content) == (200, b"ok")


# --- A round's tables ---------------------------------------------------------------


def test_the_round_page_shows_every_tables_results(client, event):
    round_ = event.rounds.get(number=1)
    first, second = round_.tables.order_by("number")
    record(first, 1, went_out=2, points={1: 30, 3: 5, 4: 12})
    record(first, 2, went_out=1, points={2: 8, 3: 40, 4: 1})
    for number in range(1, 10):
        record(second, number, went_out=1, points={2: 1, 3: 2, 4: 3})
    words = text(client.get("/events/kingston/rounds/1/").content.decode())
    assert "tables finished 1 of 2" in words
    table_1 = words[words.index("Table 1") : words.index("Table 2")]
    assert "Playing hand 3 of 9" in table_1
    # Place, player, total, hands won; lowest total first.
    assert "1 Bob 8 1 2 Di 13 0 3 Ann 30 1 4 Cy 45 0" in table_1
    table_2 = words[words.index("Table 2") :]
    assert "Set complete" in table_2 and "1 Ed 0 9" in table_2


def test_a_round_still_being_seated_is_not_shown(client, event):
    Round.objects.create(event=event, number=2, status=Round.Status.DRAFT)
    assert client.get("/events/kingston/rounds/2/").status_code == 404
    assert client.get("/events/kingston/rounds/2/tables/1/").status_code == 404
    assert client.get("/events/kingston/rounds/1/").status_code == 200


# --- A table's sheet ----------------------------------------------------------------


def test_the_table_page_shows_hand_by_hand_scores_with_running_totals(client, event):
    table = event.rounds.get(number=1).tables.get(number=1)
    record(table, 1, went_out=2, points={1: 30, 3: 5, 4: 12})
    record(
        table,
        2,
        went_out=1,
        points={2: 8, 3: 40, 4: 1},
        penalties=(PenaltyEntry(seat=4, kind="false_laydown"),),
    )
    html = client.get("/events/kingston/rounds/1/tables/1/").content.decode()
    assert "Now playing <strong>hand 3 of 9</strong>: one three, two fours." in html
    rows = {
        int(n): text(row) for n, row in re.findall(r'data-hand="(\d)">(.*?)</tr>', html, flags=re.S)
    }
    # Hand 1: Ann 30, Bob went out, Cy 5, Di 12; each with the running total under it.
    assert rows[1] == (
        "1 three threes 30 running total 30 out 0 running total 0 "
        "5 running total 5 12 running total 12"
    )
    assert "101 incl. 100 penalty running total 113" in rows[2]
    assert "playing" in rows[3]
    assert rows[9] == "9 four fours"  # not played yet: nothing in its cells
    assert '<tr class="playing" aria-current="step" data-hand="3">' in html
    totals = text(html.split("<tfoot>")[1].split("</tfoot>")[0])
    assert totals == "Total 30 place 2 8 place 1 45 place 3 113 place 4"


def test_a_finished_table_says_so(client, event):
    table = event.rounds.get(number=1).tables.get(number=2)
    for number in range(1, 10):
        record(table, number, went_out=1, points={2: 1, 3: 2, 4: 3})
    html = client.get("/events/kingston/rounds/1/tables/2/").content.decode()
    assert "<strong>Set complete</strong>: all 9 hands scored." in html
    assert 'class="playing"' not in html


def test_a_table_that_does_not_exist_is_a_404(client, event):
    assert client.get("/events/kingston/rounds/1/tables/3/").status_code == 404
    assert client.get("/events/kingston/rounds/9/tables/1/").status_code == 404


# --- A player across events ---------------------------------------------------------


def test_the_player_page_shows_results_across_visible_events_only(client, event):
    ann = Entry.objects.get(event=event, player__name="Ann").player
    table = event.rounds.get(number=1).tables.get(number=1)
    record(table, 1, went_out=1, points={2: 10, 3: 20, 4: 30})
    services.refresh_standings(event=event)
    other = make_event(slug="montego", name="Montego Bay Cup", status=Event.Status.FINISHED)
    Entry.objects.create(event=other, player=ann, seed_number=1)
    secret = make_event(slug="secret", name="Secret Invitational", public=False)
    Entry.objects.create(event=secret, player=ann, seed_number=1)
    html = client.get(f"/players/{ann.pk}/").content.decode()
    words = text(html)
    assert "Kingston Open" in words and "Montego Bay Cup" in words
    assert "Secret Invitational" not in words
    assert "Rank after round 1 1 Points 0 Sets played 1 Hands won 1" in words
    assert 'href="/events/kingston/rounds/1/tables/1/">Table 1</a>' in html
    assert "1 Table 1 0 1 of 9 1" in words
    alice = make_user("alice")
    secret.directors.add(alice)
    client.force_login(alice)
    assert "Secret Invitational" in client.get(f"/players/{ann.pk}/").content.decode()


def test_a_player_known_only_to_private_events_is_a_404(client):
    secret = make_event(slug="secret", public=False)
    (entry,) = make_entries(secret, 1)
    assert client.get(f"/players/{entry.player_id}/").status_code == 404
    assert client.get("/players/999999/").status_code == 404


@pytest.mark.parametrize(
    "path",
    ["/", "/events/kingston/", "/events/kingston/projector/", "/events/kingston/rounds/1/"],
)
def test_a_public_page_loads_every_file_from_the_site_itself(client, event, path):
    html = client.get(path).content.decode()
    assets = re.findall(r'<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"', html)
    assert any(a.endswith("htmx.min.js") for a in assets)
    assert assets and all(a.startswith("/static/") for a in assets), assets
