"""Every public page runs a fixed number of SQL queries, whatever the event's size."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.demo import DemoOptions, generate_demo_event
from core.services import refresh_standings
from tests.fixtures import kept_for_the_module
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# The most each page may run with nothing cached.
# (The event, its standings or seating, and the screens: the round clock, announcements.
# The standings once a player has withdrawn, as one has here: whether a substitute
# replaced them. A round's or a table's players: the event's namesakes, to tell apart.)
PAGES = {
    "/": 1,
    "/events/{slug}/": 7,
    "/events/{slug}/?page=2": 7,
    "/events/{slug}/?q=a": 7,
    "/events/{slug}/live/?v=0": 7,
    "/events/{slug}/projector/": 7,
    "/events/{slug}/projector/live/?v=0": 7,
    "/events/{slug}/rounds/1/": 10,  # closed: 9, and its adjusted scores
    "/events/{slug}/rounds/2/live/?v=0": 9,
    "/events/{slug}/rounds/2/tables/{table}/": 9,
    "/events/{slug}/rounds/2/tables/{table}/live/?v=0": 9,
    "/players/{player}/": 9,  # 8, and their series results
    "/players/{player}/?vs={opponent}": 11,
    "/ratings/?all=1": 2,
}
# A public event's pages, once cached, run none: the event and the page come from the cache.
CACHED = [
    "/events/{slug}/",
    "/events/{slug}/?page=2",
    "/events/{slug}/projector/",
    "/events/{slug}/rounds/1/",
    "/events/{slug}/rounds/2/tables/{table}/",
]


def demo(players: int) -> Event:
    event = generate_demo_event(
        DemoOptions(players=players, rounds=2, seed=3, live=True, slug=f"demo-{players}")
    )
    refresh_standings(event=event)
    return event


@pytest.fixture(scope="module")
def demos(django_db_setup, django_db_blocker):
    """The demo events of 8 and 64 players, made once for the module's tests (which
    only read them): their slugs."""
    yield from kept_for_the_module(django_db_blocker, lambda: [demo(8).slug, demo(64).slug])


def url(path: str, event: Event) -> str:
    player = event.entries.order_by("seed_number").first().player_id
    # A table with hands recorded: an empty one skips the queries for hands it lacks.
    table = (
        event.rounds.get(number=2)
        .tables.filter(hands__isnull=False)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    first = event.rounds.get(number=1).seats.get(entry__player_id=player)
    opponent = (
        first.table.seats.exclude(pk=first.pk).values_list("entry__player_id", flat=True).first()
    )
    return path.format(slug=event.slug, player=player, table=table, opponent=opponent)


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured)


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_runs_as_many_queries_for_64_players_as_for_8(
    client, path, django_assert_max_num_queries, small, large
):
    cache.clear()
    counts = [queries(client, url(path, small)), queries(client, url(path, large))]
    assert counts[0] == counts[1], f"{path}: {counts}"
    cache.clear()
    address = url(path, large)
    with django_assert_max_num_queries(PAGES[path]):
        client.get(address)


@pytest.mark.parametrize("path", CACHED)
def test_a_cached_page_of_a_public_event_runs_no_query(
    client, path, django_assert_num_queries, still_clock, large
):
    cache.clear()
    address = url(path, large)
    first = client.get(address).content
    with django_assert_num_queries(0):
        response = client.get(address)
    assert response.status_code == 200
    assert response.content.split(b"<main")[1] == first.split(b"<main")[1]
