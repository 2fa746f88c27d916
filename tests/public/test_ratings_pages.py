"""The public ratings page and what a player's page shows of ratings: the chart, best
results, head-to-head; only public events' data for anonymous readers."""

from __future__ import annotations

import pytest

from core import services
from tests.core.ratings_world import closed_round, players
from tests.fixtures import kept_for_the_module, make_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def rate() -> list:
    """Event A: three rounds of two tables (player 0 always wins); a private event where
    players 0 and 4 met."""
    cast = players(8)
    a = make_event(slug="a", name="Event A")
    for n in range(1, 4):
        closed_round(a, [cast[0:4], cast[4:8]], number=n)
    hidden = make_event(slug="hidden", name="Hidden Cup", public=False)
    closed_round(hidden, [[cast[4], cast[0], cast[5], cast[6]]])
    services.refresh_ratings()
    return cast


@pytest.fixture(scope="module")
def rated(django_db_setup, django_db_blocker):
    """The players of `rate`, made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, rate)


def test_the_ratings_page_lists_players_with_enough_sets_only_by_default(client, rated, settings):
    page = client.get("/ratings/").content.decode()
    assert "mu − 3σ" in page
    assert "Nobody has 6 rated sets yet" in page
    everyone = client.get("/ratings/?all=1").content.decode()
    assert rated[0].name in everyone and rated[7].name in everyone
    # The winners of every set lead.
    assert everyone.index(rated[0].name) < everyone.index(rated[1].name)


def test_the_ratings_page_shows_each_players_movement(client, rated):
    page = client.get("/ratings/?all=1").content.decode()
    assert "▲ +" in page and "▼ -" in page


def test_a_players_page_draws_their_rating_history_as_an_svg_line(client, rated):
    page = client.get(f"/players/{rated[0].pk}/").content.decode()
    assert "<svg" in page and 'class="rating-line"' in page
    assert page.count("<circle") == 3  # one point per rated round
    assert "Rating after each of 3 rated rounds" in page
    assert "Best results" in page and "Event A" in page


def test_head_to_head_lists_the_sets_the_two_played_at_one_table(client, rated):
    page = client.get(f"/players/{rated[0].pk}/?vs={rated[1].pk}").content.decode()
    assert f">{rated[1].name}</a>: 3 won" in page
    assert "3 won, 0 lost, 0 tied" in page
    assert page.count(">won<") == 3


def test_anonymous_readers_see_nothing_of_private_events_on_a_players_page(client, rated, alice):
    page = client.get(f"/players/{rated[0].pk}/?vs={rated[4].pk}").content.decode()
    assert "Hidden Cup" not in page
    assert "0 won, 0 lost" not in page  # never met in a public event: not offered
    assert f'value="{rated[4].pk}"' not in page
    Event.objects.get(slug="hidden").directors.add(alice)
    client.force_login(alice)
    seen = client.get(f"/players/{rated[0].pk}/?vs={rated[4].pk}").content.decode()
    assert "Hidden Cup" in seen
    assert "0 won, 1 lost, 0 tied" in seen


def test_an_unrated_player_is_told_how_a_rating_comes(client):
    cast = players(4)
    closed_round(make_event(slug="b"), [cast])  # closed, not yet rated
    page = client.get(f"/players/{cast[0].pk}/").content.decode()
    assert "Not rated yet" in page
