"""Two players of one name are told apart on every public page that lists players: by
their club, and by a number where the club is the same too (tests/namesakes.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.fixtures import make_event
from tests.namesakes import SHOWN, enter_namesakes, namesakes_event, seat_round_2
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return namesakes_event()


def page(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def names_all(html: str) -> bool:
    return all(name in html for name in SHOWN)


def test_the_leaderboard_and_projector_tell_the_three_andre_browns_apart(event):
    assert names_all(page(f"/events/{event.slug}/"))
    assert names_all(page(f"/events/{event.slug}/projector/"))
    # A search finds them all, each under the name the board gives them.
    assert names_all(page(f"/events/{event.slug}/?q=andre"))


def test_a_rounds_tables_and_a_tables_sheet_tell_them_apart(event):
    assert names_all(page(f"/events/{event.slug}/rounds/1/"))
    assert names_all(page(f"/events/{event.slug}/rounds/1/tables/1/"))


def test_the_seating_board_tells_them_apart(event):
    seat_round_2(event)
    html = page(f"/events/{event.slug}/")
    assert "Find your table: round 2" in html
    assert names_all(html)


def test_the_field_before_the_first_round_tells_them_apart():
    event = make_event(slug="field", status=Event.Status.REGISTRATION)
    enter_namesakes(event)
    html = page(f"/events/{event.slug}/")
    assert "The field" in html and names_all(html)


def test_a_players_head_to_head_tells_their_opponents_apart(event):
    first, spanish_town = Player.objects.filter(name="Andre Brown").order_by("pk")[:2]
    html = page(f"/players/{first.pk}/?vs={spanish_town.pk}")
    # Among the players of this page (the player and those they met at table 1), the
    # three Andre Browns: each named as the event's lists name them.
    selected = f'<option value="{spanish_town.pk}" selected>'
    assert selected + "Andre Brown (Spanish Town Card Players)" in html
    assert ">Andre Brown (Kingston Kalooki Club, 1)</th>" in html
    assert ">Andre Brown (Kingston Kalooki Club, 2)</option>" in html


def test_a_name_nobody_else_has_is_shown_as_it_is(event):
    html = page(f"/events/{event.slug}/")
    assert ">Lorna Bailey</a>" in html
    assert "Lorna Bailey (Mandeville" not in html
