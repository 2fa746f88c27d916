"""On the public pages, a no-show a substitute replaced is listed as replaced, by whom
(with a link to them), not as a player who withdrew with no sets."""

from __future__ import annotations

import pytest
from django.test import Client

from core import services
from tests.fixtures import make_event, named_entries
from tests.substitutes import NAMES, NO_SHOW, play_round
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(slug="kingston", rounds_planned=2)
    entries = named_entries(event, NAMES)
    services.substitute_entry(entry=entries[NO_SHOW], name="Jane Doe")
    return event


def page(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def row_html(html: str, name: str) -> str:
    """The leaderboard's row (<tr>...</tr>) of the player called `name`."""
    at = html.index(f">{name}</a>")
    return html[html.rindex("<tr", 0, at) : html.index("</tr>", at)]


def test_the_field_says_who_replaced_the_no_show(event):
    html = page(f"/events/{event.slug}/")
    errol = row_html(html, "Errol Ferguson")
    assert "did not play: replaced by Jane Doe" in errol
    assert "badge withdrawn" not in errol


def test_the_leaderboard_lists_the_no_show_as_replaced_without_a_place_or_sets(event):
    play_round(event, 1)
    html = page(f"/events/{event.slug}/")
    errol = row_html(html, "Errol Ferguson")
    jane = Player.objects.get(name="Jane Doe")
    assert f'did not play: replaced by <a href="/players/{jane.pk}/">Jane Doe</a>' in errol
    assert '<span class="badge replaced">replaced</span>' in errol
    assert "badge withdrawn" not in errol
    # No rank, points, sets or hands of his own: dashes.
    assert '<td class="rank">–</td>' in errol
    assert '<td class="num">0</td>' not in errol
    projector = page(f"/events/{event.slug}/projector/")
    assert "did not play: replaced by Jane Doe" in projector
