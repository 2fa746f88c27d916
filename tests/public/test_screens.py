"""The venue screens on the public pages: the round clock, announcements, the seating
board and the field, all followed by the live polls; an unchanged poll still costs one
cache round trip and no query, and every page a fixed number of queries."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from core import caching, services
from game.rules import HandEntry, SeatEntry
from public import live
from tests.fixtures import make_entries, make_event, make_round, named_entries
from tests.public.test_live import CountingCache
from tournaments.models import Event, Player, Round, RoundClock

pytestmark = pytest.mark.django_db

PAGES = (
    "/events/kingston/",
    "/events/kingston/projector/",
    "/events/kingston/rounds/1/",
    "/events/kingston/rounds/1/tables/2/",
)


@pytest.fixture
def event() -> Event:
    """Round 1 just published: two tables of four, no hand yet."""
    event = make_event(slug="kingston", name="Kingston Open")
    names = ["Omar", "Lorna", "Kemar", "Andre", "Yvonne", "beverley", "Carlton", "Delroy"]
    make_round(event, table_sizes=(4, 4), entries=named_entries(event, names))
    return event


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a service as a request would: its transaction commits, so what it queues
    (the standings rebuild, the announcements to live pages) happens."""

    def run(call, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(**kwargs)

    return run


def round_one(event: Event) -> Round:
    return event.rounds.get(number=1)


def poll_url(html: str) -> str:
    return re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")


def polls(client) -> dict[str, str]:
    return {path: poll_url(client.get(path).content.decode()) for path in PAGES}


def record_first_hand(event: Event) -> None:
    table = round_one(event).tables.get(number=1)
    scores = tuple(SeatEntry(seat, 10 * seat) for seat in (2, 3, 4))
    services.record_hand(table=table, number=1, entry=HandEntry(went_out=1, scores=scores))


# --- The seating board and the field ------------------------------------------------------


def test_until_the_first_hand_the_event_page_and_projector_say_where_everyone_sits(
    client, event, committed
):
    page = client.get("/events/kingston/").content.decode()
    assert "Find your table: round 1" in page
    names = re.findall(r'<a href="/players/\d+/">([^<]+)</a>', page)
    assert names == ["Andre", "beverley", "Carlton", "Delroy", "Kemar", "Lorna", "Omar", "Yvonne"]
    # Andre was seated fourth: table 1, seat 4, a link to his table's page.
    andre = page.split(">Andre</a>")[1].split("</tr>")[0]
    assert 'href="/events/kingston/rounds/1/tables/1/">1</a>' in andre
    assert '<td class="num">4</td>' in andre
    assert 'class="rank"' not in page
    projector = client.get("/events/kingston/projector/").content.decode()
    assert "Find your table: round 1" in projector and 'data-phase="seating"' in projector
    assert "table <strong>2</strong> · seat 1</span>" in projector.split(">Yvonne<")[1]

    old = polls(client)
    committed(record_first_hand, event=event)
    for path in ("/events/kingston/", "/events/kingston/projector/"):
        response = client.get(old[path])
        assert response.status_code == 200, path
        fragment = response.content.decode()
        assert 'data-phase="standings"' in fragment and "Find your table" not in fragment
    # The projector's heading says the round in play, not the last one closed.
    assert (
        "Standings: round 1 in play"
        in client.get(old["/events/kingston/projector/"]).content.decode()
    )


def test_the_seating_board_finds_a_player_by_name(client, event):
    html = client.get("/events/kingston/?q=KEM").content.decode()
    assert ">Kemar</a>" in html and ">Andre</a>" not in html
    nobody = client.get("/events/kingston/?q=zzz").content.decode()
    assert "Nobody seated in round 1 is called “zzz”" in nobody


def test_before_the_first_round_the_field_shows_without_ranks_and_follows_entries(
    client, committed, django_assert_num_queries
):
    event = make_event(slug="montego", name="Montego Bay Open", status=Event.Status.REGISTRATION)
    make_entries(event, 2)
    page = client.get("/events/montego/").content.decode()
    assert "The field: 2 players" in page and 'class="rank"' not in page
    poll = poll_url(page)
    with django_assert_num_queries(0):  # unchanged: the cache alone answers
        assert client.get(poll).status_code == 204
    committed(
        services.register_entry, event=event, player=Player.objects.create(name="Zachary Late")
    )
    fragment = client.get(poll).content.decode()
    assert "The field: 3 players" in fragment and "Zachary Late" in fragment
    projector = client.get("/events/montego/projector/").content.decode()
    assert "The field: 3 players" in projector and "Zachary Late" in projector


# --- The clock ----------------------------------------------------------------------------


def clock_attrs(html: str, label: str) -> dict[str, str]:
    """The data attributes of the clock labelled `label` ("Round 1", "Table 2")."""
    for match in re.finditer(r"<div class=\"clock\" data-clock ([^>]*)>", html):
        if f'aria-label="{label}: time left"' in match.group(1):
            return dict(re.findall(r'data-([a-z]+)="([^"]*)"', match.group(1)))
    raise AssertionError(f"no clock {label!r}")


def test_every_live_page_follows_the_clock(client, event, committed):
    before = polls(client)
    for path, poll in before.items():
        assert client.get(poll).status_code == 204, path
    committed(services.clock_action, round=round_one(event), action="start", minutes=60)
    stored = RoundClock.objects.get()
    ends = str(int(stored.ends_at.timestamp() * 1000))
    for path, poll in before.items():
        response = client.get(poll)
        assert response.status_code == 200, path
        fragment = response.content.decode()
        label = "Table 2" if "tables/2" in path else "Round 1"
        assert clock_attrs(fragment, label) == {
            "state": "running",
            "ends": ends,
            "remaining": clock_attrs(fragment, label)["remaining"],
        }
        assert 3590 <= int(clock_attrs(fragment, label)["remaining"]) <= 3600
        assert f"ends {timezone.localtime(stored.ends_at):%H:%M}" in fragment


def test_a_tables_page_shows_its_own_extra_time(client, event, committed):
    committed(services.clock_action, round=round_one(event), action="start", minutes=60)
    committed(services.clock_action, round=round_one(event), action="extend", minutes=7, table=2)
    stored = RoundClock.objects.get()
    table = client.get("/events/kingston/rounds/1/tables/2/").content.decode()
    assert clock_attrs(table, "Table 2")["ends"] == str(
        int((stored.ends_at + timedelta(minutes=7)).timestamp() * 1000)
    )
    assert "+7:00 extra" in table
    other = client.get("/events/kingston/rounds/1/tables/1/").content.decode()
    assert clock_attrs(other, "Table 1")["ends"] == str(int(stored.ends_at.timestamp() * 1000))
    # The room's screens show the round's clock and, beside it, each table given more.
    projector = client.get("/events/kingston/projector/").content.decode()
    assert clock_attrs(projector, "Round 1") and clock_attrs(projector, "Table 2")


def test_a_paused_clock_shows_its_time_left_and_no_end(client, event, committed):
    round_ = round_one(event)
    committed(services.clock_action, round=round_, action="start", minutes=45)
    committed(services.clock_action, round=round_, action="pause")
    html = client.get("/events/kingston/projector/").content.decode()
    attrs = clock_attrs(html, "Round 1")
    assert attrs["state"] == "paused" and "ends" not in attrs
    left = int(attrs["remaining"])
    assert 2690 <= left <= 2700
    assert f"data-clock-time>{left // 60}:{left % 60:02d}</span>" in html
    assert '<span class="clock-note">paused</span>' in html


def test_at_time_the_screens_say_time_and_the_events_rule(client, event, committed):
    Event.objects.filter(pk=event.pk).update(time_rule="Finish the hand in play, then stop.")
    committed(services.clock_action, round=round_one(event), action="start", minutes=1)
    RoundClock.objects.update(ends_at=timezone.now() - timedelta(seconds=5))
    cache.clear()
    html = client.get("/events/kingston/projector/").content.decode()
    assert clock_attrs(html, "Round 1")["state"] == "over"
    assert "data-clock-time>Time</span>" in html
    assert (
        '<p class="clock-rule" data-clock-rule role="status"><strong>Time:</strong> '
        "Finish the hand in play, then stop.</p>"
    ) in html


def test_the_clock_shows_only_on_the_pages_of_the_round_in_play(client, event, committed):
    committed(services.clock_action, round=round_one(event), action="start")
    Round.objects.filter(pk=round_one(event).pk).update(status=Round.Status.CLOSED)
    make_round(event, number=2, table_sizes=(4, 4), entries=list(event.entries.all()))
    cache.clear()
    assert "data-clock" not in client.get("/events/kingston/rounds/1/").content.decode()
    assert "data-clock" not in client.get("/events/kingston/rounds/1/tables/1/").content.decode()
    # Round 2's clock has not started: the screens show its time, waiting.
    html = client.get("/events/kingston/rounds/2/").content.decode()
    assert clock_attrs(html, "Round 2")["state"] == "stopped"
    assert "clock not started" in html and "1:30:00" in html


# --- Announcements ------------------------------------------------------------------------


def test_an_announcement_shows_on_every_public_page_until_removed(client, event, committed):
    before = polls(client)
    posted = committed(
        services.post_announcement, event=event, text="Table 12 please see the <director>"
    )
    for path, poll in before.items():
        fragment = client.get(poll).content.decode()
        assert "Table 12 please see the &lt;director&gt;" in fragment, path
        assert f'data-announcement="{posted.pk}"' in fragment
    committed(services.remove_announcement, announcement=posted)
    for path in PAGES:
        assert "Table 12 please" not in client.get(path).content.decode(), path


# --- What a poll costs --------------------------------------------------------------------


def busy(event: Event, committed) -> None:
    """The clock running, two tables given extra time, two announcements showing."""
    round_ = event.rounds.order_by("-number").first()
    committed(services.clock_action, round=round_, action="start", minutes=90)
    for table in (1, 2):
        committed(services.clock_action, round=round_, action="extend", minutes=5, table=table)
    for text in ("Lunch at 13:00", "Phones off, please"):
        committed(services.post_announcement, event=event, text=text)


@pytest.mark.parametrize("started", [False, True], ids=["seating", "standings"])
def test_an_unchanged_poll_of_any_live_page_is_one_cache_round_trip_and_no_query(
    client, event, committed, monkeypatch, django_assert_num_queries, started
):
    busy(event, committed)
    if started:
        committed(record_first_hand, event=event)
    found = polls(client)
    counting = CountingCache(cache)
    monkeypatch.setattr(caching, "cache", counting)
    monkeypatch.setattr(live, "cache", counting)
    for path, poll in found.items():
        caching.ANNOUNCED.clear()  # as RECHECK seconds after this process last asked
        counting.calls.clear()
        with django_assert_num_queries(0):
            response = client.get(poll)
        assert response.status_code == 204, path
        assert counting.calls == ["get_many"], path
        # Asked again within RECHECK seconds: the versions this process just read.
        counting.calls.clear()
        with django_assert_num_queries(0):
            assert client.get(poll).status_code == 204, path
        assert counting.calls == [], path


def test_every_poll_answer_says_the_servers_time(client, event, committed):
    poll = polls(client)["/events/kingston/projector/"]
    for expected in (204, 200):
        if expected == 200:
            committed(services.post_announcement, event=event, text="Tea")
        before = time.time() * 1000
        response = client.get(poll)
        assert response.status_code == expected
        assert before - 1 <= int(response["X-Server-Time"]) <= time.time() * 1000 + 1


def sized(players: int, committed, *, phase: str) -> Event:
    event = make_event(slug=f"{phase}-{players}")
    entries = make_entries(event, players)
    if phase != "field":
        make_round(event, table_sizes=(4,) * (players // 4), entries=entries)
        busy(event, committed)
    if phase == "standings":
        table = event.rounds.get().tables.get(number=1)
        scores = tuple(SeatEntry(seat, 5) for seat in (2, 3, 4))
        entry = HandEntry(went_out=1, scores=scores)
        committed(services.record_hand, table=table, number=1, entry=entry)
    else:
        committed(services.post_announcement, event=event, text="Welcome")
    return event


def page_queries(client, path: str, django_assert_max_num_queries, most: int) -> int:
    cache.clear()
    with django_assert_max_num_queries(most) as captured:
        assert client.get(path).status_code == 200, path
    return len(captured)


# The most a page may run with nothing cached: the event (1), what the page lists (the
# standings and the round's progress, or the seating, or the field), the screens (the
# round clock and the announcements: 2) and, for the seating, a round or a table, the
# event's namesakes (1), to tell them apart.
MOST = {"": 7, "projector/": 7, "rounds/1/": 9, "rounds/1/tables/1/": 9}


@pytest.mark.parametrize("phase", ["field", "seating", "standings"])
def test_each_page_runs_as_many_queries_for_64_players_as_for_8(
    client, committed, django_assert_max_num_queries, phase
):
    small, large = sized(8, committed, phase=phase), sized(64, committed, phase=phase)
    pages = MOST if phase != "field" else {"": 4, "projector/": 4}
    for page, most in pages.items():
        counts = [
            page_queries(client, f"/events/{e.slug}/{page}", django_assert_max_num_queries, most)
            for e in (small, large)
        ]
        assert counts[0] == counts[1], (phase, page, counts)
