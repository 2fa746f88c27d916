"""Live pages: a poll that finds the standings unchanged costs one cache hit and no
query; after a rebuild it brings the new live region with the new version."""

from __future__ import annotations

import gzip
import re

import pytest
from django.core.cache import cache

from core import caching, services
from game.rules import HandEntry, SeatEntry
from public import live, views
from tests.fixtures import make_entries, make_event, make_round, make_user
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = make_event(slug="kingston", name="Kingston Open")
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    return event


def record(event: Event, number: int, went_out: int = 1) -> None:
    """A director records hand `number` at table 1; the standings are rebuilt."""
    record_hand_only(event, number, went_out)
    services.refresh_standings(event=event)


def record_hand_only(event: Event, number: int, went_out: int = 1) -> None:
    """Hand `number` at table 1, recorded without rebuilding the standings."""
    table = event.rounds.get(number=1).tables.get(number=1)
    scores = tuple(SeatEntry(seat, 10 * seat + number) for seat in (1, 2, 3, 4) if seat != went_out)
    services.record_hand(
        table=table, number=number, entry=HandEntry(went_out=went_out, scores=scores)
    )


@pytest.fixture
def announce(django_capture_on_commit_callbacks):
    """What the standings rebuild does once it commits: announce the new version (the
    screens, at version 0 in these tests, announced alongside)."""

    def announce_(event: Event, version: int) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            caching.announce_version(event, version)
            caching.announce_screen(event, 0)

    return announce_


def version(event: Event) -> int:
    event.refresh_from_db()
    return event.standings_version


def poll_version(html: str) -> int:
    return int(re.search(r'hx-get="[^"]*\?v=(\d+)', html).group(1))


class CountingCache:
    """The cache, with a list of the calls made to it."""

    def __init__(self, real):
        self.real, self.calls = real, []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.real, name)


def test_an_unchanged_poll_is_answered_from_one_cache_hit_without_a_query(
    client, event, monkeypatch, django_assert_num_queries
):
    record(event, 1)
    page = client.get("/events/kingston/").content.decode()
    current = poll_version(page)
    assert current == version(event) == 1
    counting = CountingCache(cache)
    monkeypatch.setattr(caching, "cache", counting)
    monkeypatch.setattr(live, "cache", counting)
    with django_assert_num_queries(0):
        response = client.get(f"/events/kingston/live/?s=0&v={current}")
    assert response.status_code == 204
    assert response.content == b""
    assert counting.calls == ["get_many"]


def test_a_poll_after_a_rebuild_brings_the_new_standings_and_version(client, event, announce):
    record(event, 1)
    before = client.get("/events/kingston/").content.decode()
    old = poll_version(before)
    record(event, 2, went_out=2)
    announce(event, version(event))
    response = client.get(f"/events/kingston/live/?s=0&v={old}")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.startswith('<section id="leaderboard"')
    assert poll_version(fragment) == old + 1
    # Seat 1 went out of hand 1 (0) and scored 12 in hand 2.
    assert '<td class="num points">12</td>' in fragment
    assert "Cache-Control" in response and "no-cache" in response["Cache-Control"]
    # The new version is now the unchanged one.
    assert client.get(f"/events/kingston/live/?s=0&v={old + 1}").status_code == 204


def test_a_version_announced_inside_a_transaction_is_only_seen_after_it_commits(
    event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        caching.announce_version(event, 7)
        caching.announce_screen(event, 3)
    assert cache.get(caching.version_key("kingston")) is None
    assert cache.get(caching.screen_key("kingston")) is None
    for callback in callbacks:
        callback()
    assert caching.unchanged("kingston", 7, 3)
    assert not caching.unchanged("kingston", 6, 3)
    assert not caching.unchanged("kingston", 7, 2)
    assert not caching.unchanged("kingston", 7, None)


def test_a_missing_version_costs_one_query_and_is_then_remembered(
    client, event, django_assert_num_queries
):
    record(event, 1)
    cache.delete(caching.version_key("kingston"))
    with django_assert_num_queries(1):
        assert client.get("/events/kingston/live/?s=0&v=1").status_code == 204
    with django_assert_num_queries(0):
        assert client.get("/events/kingston/live/?s=0&v=1").status_code == 204


def test_a_remembered_version_never_replaces_an_announced_one(event, announce):
    announce(event, 5)
    event.standings_version = 4  # a page that read the row before the rebuild committed
    caching.remember_version(event)
    assert caching.unchanged("kingston", 5, 0)


def test_polls_of_a_private_event_always_check_who_asks(client, announce):
    event = make_event(slug="hidden", public=False)
    alice = make_user("alice")
    event.directors.add(alice)
    announce(event, 0)
    assert client.get("/events/hidden/live/?s=0&v=0").status_code == 404
    client.force_login(alice)
    assert client.get("/events/hidden/live/?s=0&v=0").status_code == 204


def test_a_poll_without_a_version_gets_the_region(client, event):
    record(event, 1)
    response = client.get("/events/kingston/live/")
    assert response.status_code == 200
    assert poll_version(response.content.decode()) == 1


def test_the_leaderboard_poll_keeps_its_page_and_search(client, event):
    record(event, 1)
    html = client.get("/events/kingston/?q=Player").content.decode()
    assert re.search(r'hx-get="/events/kingston/live/\?v=1&amp;s=0&amp;q=Player"', html)
    fragment = client.get("/events/kingston/live/?s=0&v=0&q=nobody-at-all").content.decode()
    assert "Nobody in the standings" in fragment


def test_the_table_page_follows_each_recorded_hand(client, event, announce):
    record(event, 1)
    page = client.get("/events/kingston/rounds/1/tables/1/").content.decode()
    assert "Now playing <strong>hand 2 of 9</strong>" in page
    old = poll_version(page)
    assert client.get(f"/events/kingston/rounds/1/tables/1/live/?s=0&v={old}").status_code == 204
    record(event, 2, went_out=2)
    announce(event, version(event))
    response = client.get(f"/events/kingston/rounds/1/tables/1/live/?s=0&v={old}")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert "Now playing <strong>hand 3 of 9</strong>" in fragment
    assert 'data-hand="2"' in fragment and poll_version(fragment) == old + 1


def test_the_round_and_projector_pages_poll_too(client, event):
    record(event, 1)
    for path in ("/events/kingston/rounds/1/", "/events/kingston/projector/"):
        html = client.get(path).content.decode()
        live = re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
        assert client.get(live).status_code == 204
        assert client.get(live.replace("v=1", "v=0")).status_code == 200


def test_a_page_load_after_an_announced_rebuild_shows_the_new_standings(client, event, announce):
    record(event, 1)
    assert '<td class="num points">0</td>' in client.get("/events/kingston/").content.decode()
    record(event, 2, went_out=2)
    announce(event, version(event))
    html = client.get("/events/kingston/").content.decode()
    assert '<td class="num points">12</td>' in html
    assert poll_version(html) == 2


def test_an_event_made_private_is_gone_once_its_cached_row_expires(client, event):
    assert client.get("/events/kingston/").status_code == 200
    Event.objects.filter(pk=event.pk).update(public=False)
    cache.delete(live.event_key("kingston"))  # after EVENT_TTL seconds
    caching.forget_process_copies()  # ...this process's copy of the row expires with it
    assert client.get("/events/kingston/").status_code == 404


def test_an_anonymous_visitor_gets_the_cached_page_compressed(client, event):
    record(event, 1)
    plain = client.get("/events/kingston/")
    packed = client.get("/events/kingston/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert {"Accept-Encoding", "Cookie"} <= {v.strip() for v in packed["Vary"].split(",")}
    # Nothing personal in a page shared by every visitor: no CSRF token, no cookie.
    assert b'"X-CSRFToken": ""' in plain.content
    assert "csrftoken" not in plain.cookies


def test_a_signed_in_director_gets_their_own_frame_around_the_cached_content(client, event):
    record(event, 1)
    anonymous = client.get("/events/kingston/").content.decode()
    assert "Sign out" not in anonymous and "Director sign-in" in anonymous
    client.force_login(make_user("alice"))
    signed_in = client.get("/events/kingston/", HTTP_ACCEPT_ENCODING="gzip")
    html = gzip.decompress(signed_in.content).decode()
    assert "Sign out" in html and "Director sign-in" not in html
    assert '<td class="num points">0</td>' in html


def test_a_lost_announcement_heals_at_the_next_read(client, event, announce):
    record(event, 1)
    announce(event, 0)  # the rebuild to version 1 never announced itself
    assert client.get("/events/kingston/live/?s=0&v=0").status_code == 204  # stale, for now
    assert poll_version(client.get("/events/kingston/").content.decode()) == 1
    assert caching.unchanged("kingston", 1, 0)
    assert client.get("/events/kingston/live/?s=0&v=0").status_code == 200


def test_an_event_made_private_stops_answering_polls_after_the_next_read(client, event, announce):
    record(event, 1)
    announce(event, 1)
    Event.objects.filter(pk=event.pk).update(public=False)
    client.force_login(make_user("root", superuser=True))
    assert client.get("/events/kingston/live/?s=0&v=0").status_code == 200  # read as a superuser
    client.logout()
    assert client.get("/events/kingston/live/?s=0&v=1").status_code == 404


def test_a_version_another_process_announces_reaches_this_one_within_the_recheck(
    client, event, announce, monkeypatch
):
    announce(event, 5)
    poll = "/events/kingston/live/?s=0&v=5"
    now = [1000.0]
    monkeypatch.setattr(caching.time, "monotonic", lambda: now[0])
    caching.ANNOUNCED.clear()
    assert client.get(poll).status_code == 204  # read now: kept from here on
    # A rebuild in another process commits and announces in the shared cache alone.
    Event.objects.filter(pk=event.pk).update(standings_version=6)
    cache.set(caching.version_key("kingston"), (6, True))
    now[0] += caching.RECHECK / 2
    assert client.get(poll).status_code == 204  # this process read the versions just now
    now[0] += caching.RECHECK
    assert client.get(poll).status_code == 200  # ...and asks again once RECHECK passed


def test_this_processs_own_announcement_is_seen_at_once(client, event, announce):
    announce(event, 5)
    poll = "/events/kingston/live/?s=0&v=5"
    assert client.get(poll).status_code == 204
    announce(event, 6)
    assert client.get(poll).status_code == 200


def test_a_page_another_process_cached_is_then_served_from_this_ones_copies(
    client, event, monkeypatch, django_assert_num_queries
):
    record(event, 1)
    assert client.get("/events/kingston/").status_code == 200  # read, rendered, shared
    caching.forget_process_copies()  # as a web process that has served nothing yet
    counting = CountingCache(cache)
    monkeypatch.setattr(caching, "cache", counting)
    monkeypatch.setattr(live, "cache", counting)
    with django_assert_num_queries(0):
        assert client.get("/events/kingston/").status_code == 200  # from the shared cache
    assert counting.calls == ["get_many"]
    counting.calls.clear()
    with django_assert_num_queries(0):
        assert client.get("/events/kingston/").status_code == 200
    assert counting.calls == []  # the event, the page and the versions all kept here


def test_a_poll_after_a_new_version_is_then_answered_from_this_processs_copies(
    client, event, announce, monkeypatch, django_assert_num_queries
):
    """The 1,000 open leaderboards of a national championship all poll with the version
    before the last save: one poll a process reads the event and builds the region,
    the rest are answered from that process's copies, with no query and no round trip
    while the versions it read are fresh."""
    record(event, 1)
    old = poll_version(client.get("/events/kingston/").content.decode())
    record(event, 2, went_out=2)
    announce(event, version(event))
    monkeypatch.setattr(caching.time, "monotonic", lambda: 1000.0)  # within the recheck
    poll = f"/events/kingston/live/?s=0&v={old}"
    first = client.get(poll)
    assert first.status_code == 200 and poll_version(first.content.decode()) == old + 1
    counting = CountingCache(cache)
    monkeypatch.setattr(caching, "cache", counting)
    monkeypatch.setattr(live, "cache", counting)
    with django_assert_num_queries(0):
        again = client.get(poll)
    assert again.status_code == 200 and again.content == first.content
    assert counting.calls == ["get_many"]  # the versions, read again after the event was
    counting.calls.clear()
    with django_assert_num_queries(0):
        assert client.get(poll).content == first.content
    assert counting.calls == []


def test_a_new_region_is_compressed_once_for_every_poll_that_brings_it(
    client, event, announce, monkeypatch
):
    record(event, 1)
    old = poll_version(client.get("/events/kingston/").content.decode())
    record(event, 2, went_out=2)
    announce(event, version(event))
    compressed = []
    real = views.compress_string
    monkeypatch.setattr(views, "compress_string", lambda s: compressed.append(1) or real(s))
    poll = f"/events/kingston/live/?s=0&v={old}"
    plain = client.get(poll)
    answers = [client.get(poll, HTTP_ACCEPT_ENCODING="gzip, br") for _ in range(3)]
    assert compressed == [1]
    for answer in answers:
        assert answer.status_code == 200 and answer["Content-Encoding"] == "gzip"
        assert gzip.decompress(answer.content) == plain.content
        assert "Accept-Encoding" in answer["Vary"] and answer["X-Server-Time"]
    assert "Content-Encoding" not in plain


def test_an_events_default_language_is_asked_of_the_cache_once_per_recheck(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    """A phone whose browser names no language the site has polls in the event's
    default: the language is kept in the process, and a change of the event's settings
    reaches this process at once."""
    assert caching.event_language("kingston") == event.language
    counting = CountingCache(cache)
    monkeypatch.setattr(caching, "cache", counting)
    assert caching.event_language("kingston") == event.language
    assert counting.calls == []
    Event.objects.filter(pk=event.pk).update(language="ru")
    with django_capture_on_commit_callbacks(execute=True):
        caching.announce_screen(event, 1)
    assert caching.event_language("kingston") == "ru"


@pytest.mark.parametrize(
    "how",
    [{}, {"warm": True}, {"round_number": 1}],
    ids=["a director's recalculation", "the background job", "a round of a bulk load"],
)
def test_every_rebuild_announces_its_version_once_it_commits(
    client, event, django_capture_on_commit_callbacks, how
):
    """Open pages poll with the version they show and are answered 204 while the cache
    announces the same: a rebuild that did not announce its own would leave them on the
    old standings (the version announced before holds for a day)."""
    with django_capture_on_commit_callbacks(execute=True):
        shown = services.refresh_standings(event=event)
    assert cache.get(caching.version_key("kingston"))[0] == shown
    record_hand_only(event, 1)
    with django_capture_on_commit_callbacks(execute=True) as committed:
        rebuilt = services.refresh_standings(event=event, **how)
        assert cache.get(caching.version_key("kingston"))[0] == shown  # not before it commits
    assert committed and rebuilt > shown
    assert cache.get(caching.version_key("kingston"))[0] == rebuilt
    answer = client.get(f"/events/kingston/live/?v={shown}")
    assert answer.status_code == 200 and poll_version(answer.content.decode()) == rebuilt
