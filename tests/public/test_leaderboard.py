"""The event page: the leaderboard a spectator follows on a phone."""

from __future__ import annotations

import pytest

from core import caching
from scoring.models import Hand, Standing
from tests.fixtures import make_entries, make_event, make_round, make_user, make_world
from tournaments.models import Entry, Event, Round

pytestmark = pytest.mark.django_db


def standings(event: Event, rows: list[dict], *, number: int = 1) -> None:
    """Standing rows as a rebuild would leave them (rank order), for round `number`,
    closed (a round in play before its first hand shows the seating instead)."""
    round_ = event.rounds.get(number=number)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    entries = list(Entry.objects.filter(event=event).order_by("seed_number"))
    Standing.objects.bulk_create(
        Standing(event=event, round=round_, entry=entries[i], rank=i + 1, **row)
        for i, row in enumerate(rows)
    )
    Event.objects.filter(pk=event.pk).update(standings_version=event.standings_version + 1)


def named(event: Event, *names: str) -> None:
    entries = make_entries(event, len(names))
    for entry, name in zip(entries, names, strict=True):
        entry.player.name = name
        entry.player.save()


@pytest.fixture
def kingston() -> Event:
    event = make_event(slug="kingston", name="Kingston Open")
    named(event, "Andre Brown", "Beverley Clarke", "Carlton Reid", "Delroy Scott")
    make_round(event, entries=list(event.entries.order_by("seed_number")))
    return event


def test_the_leaderboard_shows_each_players_rank_points_sets_hands_and_movement(client, kingston):
    standings(
        kingston,
        [
            {"points": 40, "sets_played": 1, "hands_won": 3, "movement": 2},
            {"points": 55, "sets_played": 1, "hands_won": 2, "movement": -1},
            {"points": 71, "sets_played": 1, "hands_won": 1, "movement": 0},
            {"points": 90, "sets_played": 1, "hands_won": 0, "movement": None},
        ],
    )
    response = client.get("/events/kingston/")
    assert response.status_code == 200
    html = response.content.decode()
    rows = html.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    assert ["Andre Brown" in rows[0], "Delroy Scott" in rows[3]] == [True, True]
    first = rows[0]
    assert '<td class="rank">1</td>' in first
    assert '<td class="num points">40</td>' in first
    assert "▲2" in first and '<span class="sr-only">up 2</span>' in first
    assert "▼1" in rows[1] and "down 1" in rows[1]
    assert "no change" in rows[2]
    assert "no earlier round" in rows[3]
    player = kingston.entries.get(seed_number=1).player
    assert f'href="/players/{player.pk}/"' in first


def test_withdrawn_and_eliminated_players_are_marked(client, kingston):
    standings(
        kingston,
        [
            {"points": 10},
            {"points": 20},
            {"points": 30, "status": "eliminated"},
            {"points": 40, "status": "withdrawn"},
        ],
    )
    html = client.get("/events/kingston/").content.decode()
    assert '<span class="badge eliminated">eliminated</span>' in html
    assert '<span class="badge withdrawn">withdrawn</span>' in html
    assert html.count('class="badge withdrawn"') == 1


def test_table_points_appear_only_for_a_table_points_event(client, kingston):
    standings(kingston, [{"points": 10, "table_points": 4}] + [{"points": 20}] * 3)
    assert "Table points" not in client.get("/events/kingston/").content.decode()
    Event.objects.filter(pk=kingston.pk).update(format=Event.Format.TABLE_POINTS)
    caching.reset()  # the shared cache and this process's copies
    html = client.get("/events/kingston/").content.decode()
    assert "Table points" in html
    assert '<td class="num">4</td>' in html


def test_an_event_without_standings_says_when_they_will_appear(client, kingston):
    # The first deal is recorded (a redeal); the rebuild has not run yet.
    table = kingston.rounds.get().tables.get()
    Hand.objects.create(
        table=table, number=1, outcome=Hand.Outcome.REDEAL, contract="", cards_dealt=9
    )
    html = client.get("/events/kingston/").content.decode()
    assert "No standings yet" in html


def test_a_long_leaderboard_is_split_into_pages_of_a_hundred(client):
    event = make_event(slug="big")
    make_round(event, table_sizes=(4,) * 60)
    standings(event, [{"points": 10 + i} for i in range(240)])
    first = client.get("/events/big/").content.decode()
    assert first.count('<td class="rank">') == 100
    assert "Page 1 of 3" in first and 'rel="next"' in first and 'rel="prev"' not in first
    last = client.get("/events/big/?page=3").content.decode()
    assert last.count('<td class="rank">') == 40
    assert '<td class="rank">201</td>' in last and 'rel="next"' not in last
    # Past the end shows the last page rather than an empty one.
    assert '<td class="rank">240</td>' in client.get("/events/big/?page=99").content.decode()


def test_a_search_finds_a_player_in_the_standings(client, kingston):
    standings(kingston, [{"points": 10 * i} for i in range(1, 5)])
    html = client.get("/events/kingston/?q=carl").content.decode()
    assert "Carlton Reid" in html and "Andre Brown" not in html
    assert '<td class="rank">3</td>' in html
    nobody = client.get("/events/kingston/?q=zzz").content.decode()
    assert "Nobody in the standings is called" in nobody


def test_the_page_names_its_rounds_and_the_projector_view(client, kingston):
    standings(kingston, [{"points": 10 * i} for i in range(1, 5)])
    html = client.get("/events/kingston/").content.decode()
    assert 'href="/events/kingston/rounds/1/"' in html
    assert 'href="/events/kingston/projector/"' in html
    assert "tables finished <strong>0</strong> of <strong>1</strong>" in html


@pytest.mark.parametrize(
    "path",
    [
        "/events/hidden/",
        "/events/hidden/live/?v=0",
        "/events/hidden/projector/",
        "/events/hidden/projector/live/?v=0",
        "/events/hidden/rounds/1/",
        "/events/hidden/rounds/1/live/?v=0",
        "/events/hidden/rounds/1/tables/1/",
        "/events/hidden/rounds/1/tables/1/live/?v=0",
    ],
)
def test_a_private_event_does_not_exist_for_the_public(client, path):
    event = make_event(slug="hidden", name="Hidden Invitational", public=False)
    make_round(event)
    response = client.get(path)
    assert response.status_code == 404
    assert b"Hidden Invitational" not in response.content


def test_a_private_event_is_shown_to_its_director_and_to_a_superuser(client):
    event = make_event(slug="hidden", name="Hidden Invitational", public=False)
    alice, bob = make_user("alice"), make_user("bob")
    event.directors.add(alice)
    client.force_login(bob)
    assert client.get("/events/hidden/").status_code == 404
    client.force_login(alice)
    assert client.get("/events/hidden/").status_code == 200
    client.force_login(make_user("root", superuser=True))
    assert client.get("/events/hidden/").status_code == 200


def test_only_get_and_head_are_answered(client, kingston):
    assert client.post("/events/kingston/").status_code == 405
    assert client.head("/events/kingston/").status_code == 200


def test_odd_page_numbers_show_the_first_page(client, kingston):
    standings(kingston, [{"points": 10 * i} for i in range(1, 5)])
    for page in ("0", "-1", "x", "²", "9" * 20):
        response = client.get(f"/events/kingston/?page={page}")
        assert response.status_code == 200
        assert '<td class="rank">1</td>' in response.content.decode()


def test_the_leaderboard_footer_shows_a_time_not_an_update_number(client):
    w = make_world()
    w.event.standings_version = 3
    w.event.save()
    page = client.get(f"/events/{w.event.slug}/").content.decode()
    assert "update 3" not in page and "data-as-of" in page
