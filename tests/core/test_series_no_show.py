"""A player who withdrew before playing a set in a leg: no place, no series points, no
leg played, and no result of that leg on their page."""

from __future__ import annotations

import pytest
from django.test import Client

from core import services
from scoring.models import SeriesStanding, Standing
from tests.core.test_series import leg
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def series(root):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 8, 6, 4, 2],
              "qualifiers": 2, "public": True},
        by=root,
    )  # fmt: skip


def no_show_leg(series, players: list[Player], *, no_show: Player, day: int = 1):
    """A one-round leg of five entries: `no_show` withdraws before round 1, the rest
    play at one table and finish in the order given."""
    return leg(series, players, day=day, no_show=no_show)


def test_a_player_who_played_no_set_in_a_leg_earns_nothing_from_it(series):
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    absent = Player.objects.create(name="Absent")
    event = no_show_leg(series, players, no_show=absent)
    # The event itself still lists the withdrawn entry (sets played 0) ...
    assert Standing.objects.filter(event=event, entry__player=absent, sets_played=0).exists()
    # ... but the series gives them no place, no points and no leg played.
    rows = {s.player.name: s for s in SeriesStanding.objects.filter(series=series)}
    assert set(rows) == {"P0", "P1", "P2", "P3"}
    assert [rows[f"P{i}"].points for i in range(4)] == [10, 8, 6, 4]
    assert all(rows[f"P{i}"].events_played == 1 for i in range(4))


def page_of(player: Player) -> str:
    return " ".join(Client().get(f"/players/{player.pk}/").content.decode().split())


def test_a_leg_they_did_not_play_is_no_series_result_on_their_page(series):
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    absent = Player.objects.create(name="Absent")
    no_show_leg(series, players, no_show=absent)
    assert "Series: <a" not in page_of(absent)
    shown = page_of(players[3])
    assert "Series: <a" in shown and "place 4, 4 points" in shown


def test_a_leg_they_did_not_play_is_no_best_result_on_their_page(series):
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    absent = Player.objects.create(name="Absent")
    no_show_leg(series, players, no_show=absent)
    assert "finished 5th" not in page_of(absent)
