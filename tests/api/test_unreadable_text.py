"""Text no field can take (a lone surrogate, a control character) is refused with a 400
naming the field, wherever it is in a body: a hand's reason or cards, a player's name,
an announcement, an event's or a series' name, a player's own entry at the table.
Nothing is written, and nothing answers 500."""

from __future__ import annotations

import json

import pytest

from scoring.models import Hand
from tests.api.conftest import GOOD_HAND, hand_url
from tests.fixtures import codes_of
from tournaments.models import Announcement, Event, Player

pytestmark = pytest.mark.django_db

SURROGATE = "\ud800"
CONTROL = "\x1b[2J"


def send(client, method: str, url: str, body) -> object:
    # json.dumps escapes the surrogate as \ud800, as a hostile client would send it.
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


def with_cards(cards: str) -> dict:
    scores = [dict(score) for score in GOOD_HAND["scores"]]
    scores[2] = {"seat": 3, "cards": cards}
    return {**GOOD_HAND, "scores": scores}


@pytest.mark.parametrize("bad", [SURROGATE, CONTROL])
def test_a_hands_reason_is_refused_naming_it(api, alice, playing, bad):
    response = send(api.as_(alice), "put", hand_url(), {**GOOD_HAND, "reason": f"typo{bad}"})
    assert response.status_code == 400
    assert list(response.json()) == ["reason"]
    assert not Hand.objects.exists()


@pytest.mark.parametrize("bad", [SURROGATE, CONTROL])
def test_a_hands_cards_are_refused_naming_the_scores(api, alice, playing, bad):
    response = send(api.as_(alice), "put", hand_url(), with_cards(f"JK AS{bad}"))
    assert response.status_code == 400
    body = response.json()
    assert list(body) == ["scores"] and "scores[2].cards" in body["scores"][0]
    assert not Hand.objects.exists()


def test_a_players_entry_at_the_table_is_refused_too(api, playing):
    Event.objects.filter(pk=playing.pk).update(table_entry=Event.TableEntry.PLAYERS)
    code = codes_of(playing.rounds.get(number=1))[(1, 1)]
    client = api.as_()
    client.credentials(HTTP_X_PLAYER_CODE=code)
    response = send(client, "put", hand_url() + "proposal/", with_cards(f"JK{SURROGATE}"))
    assert response.status_code == 400
    assert list(response.json()) == ["scores"]


@pytest.mark.parametrize(
    ("url", "field", "body"),
    [
        ("/api/v1/players/", "name", {"name": f"Ann{SURROGATE}"}),
        ("/api/v1/players/", "club", {"name": "Ann", "club": f"Club{CONTROL}"}),
        ("/api/v1/events/", "name", {"slug": "new-one", "name": f"Open{SURROGATE}"}),
        ("/api/v1/series/", "name", {"slug": "circuit", "name": f"C{CONTROL}", "season": "27"}),
    ],
)
def test_names_are_refused_naming_the_field(api, root, url, field, body):
    players = Player.objects.count()
    response = send(api.as_(root), "post", url, body)
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert Player.objects.count() == players
    assert not Event.objects.filter(slug="new-one").exists()


def test_an_announcement_is_refused_naming_its_text(api, alice, event):
    url = "/api/v1/events/kingston/announcements/"
    response = send(api.as_(alice), "post", url, {"text": f"Round 2 {SURROGATE}"})
    assert response.status_code == 400 and list(response.json()) == ["text"]
    assert not Announcement.objects.exists()


def test_a_key_that_is_no_text_is_refused_without_echoing_it(api, root):
    response = send(api.as_(root), "post", "/api/v1/players/", {f"na{SURROGATE}me": "Ann"})
    assert response.status_code == 400
    assert list(response.json()) == ["na?me"]


def test_tabs_and_line_breaks_are_text(api, alice, event):
    url = "/api/v1/events/kingston/announcements/"
    response = send(api.as_(alice), "post", url, {"text": "Round 2\r\nstarts\tat 3"})
    assert response.status_code == 201


def test_a_nul_is_still_named(api, root):
    response = send(api.as_(root), "post", "/api/v1/players/", {"name": "A\x00B"})
    assert response.status_code == 400
    assert "NUL" in response.json()["name"][0]
