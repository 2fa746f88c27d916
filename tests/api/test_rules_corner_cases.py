"""The rules' corner cases through the REST API (the game's own are in
tests/game/test_rules_corner_cases.py): card notation, refused penalties and the
deck's bound through a hand's PUT, and the agreed variants as event settings, refused
by field when they cannot work."""

from __future__ import annotations

import pytest

from tests.api.conftest import hand_url
from tests.api.test_incomplete_sets import body, sender
from tests.fixtures import make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(api, alice, django_capture_on_commit_callbacks):
    """Alice's client; each request's committed work (the standings) runs at once."""
    return sender(api.as_(alice), django_capture_on_commit_callbacks)


@pytest.fixture
def organiser(api, root, django_capture_on_commit_callbacks):
    """A client that may create events."""
    return sender(api.as_(root), django_capture_on_commit_callbacks)


def test_card_notation_accepts_t_suit_symbols_and_joker(client, playing):
    hand = body([1, 2, 3, 4])
    hand["scores"][1] = {"seat": 2, "cards": "joker A\u2660 T\u2665 7\u2666"}
    response = client("put", hand_url(), hand)
    assert response.status_code == 200, response.json()
    seat_2 = next(r for r in response.json()["results"] if r["seat"] == 2)
    assert (seat_2["cards"], seat_2["card_points"]) == ("JK AS 10H 7D", 82)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"penalties": [{"seat": 2, "kind": "overcall", "extra_calls": 40000}]},
            "seat 2: 40000 extra calls is more than the deck allows",
        ),
        (
            {"penalties": [{"seat": 2, "kind": "false_laydown", "points": 150}]},
            "seat 2: this event's agreed penalty is 100 points, not 150",
        ),
    ],
)
def test_refused_penalties_are_400_never_500(client, playing, change, message):
    response = client("put", hand_url(), {**body([1, 2, 3, 4]), **change})
    assert response.status_code == 400
    assert response.json()["penalties"][0].startswith(message)


def test_three_seats_at_400_in_hand_9_are_refused(client, playing):
    hand = {"went_out": 1, "scores": [{"seat": s, "points": 400} for s in (2, 3, 4)]}
    response = client("put", hand_url(hand=9), hand)
    assert response.status_code == 400
    assert "add up to 1200, more than the 66 cards" in response.json()["scores"][0]


def test_the_agreed_variants_are_event_settings(organiser):
    client = organiser
    created = client(
        "post", "/api/v1/events/", {"slug": "tt", "name": "Port of Spain", "ruleset": "trinidad"}
    ).json()
    # "In a Trinidad set the remedy for over-calling is the challenge; the director's
    # over-call penalty applies there only when the event agrees to it." (RULES.md)
    assert (
        created["overcall_penalty"],
        created["trinidad_doubling"],
        created["penalty_per_hand"],
    ) == (False, False, False)
    patched = client(
        "patch",
        "/api/v1/events/tt/",
        {"trinidad_doubling": True, "overcall_penalty": False, "penalty_per_hand": True},
    )
    assert patched.status_code == 200
    make_round(Event.objects.get(slug="tt"), table_sizes=(4,))
    hand = body([1, 2, 3, 4], down_and_out=True)
    put = client("put", hand_url(slug="tt"), hand)
    assert put.status_code == 200 and put.json()["results"][1]["score"] == 24  # doubled
    frozen = client("patch", "/api/v1/events/tt/", {"overcall_penalty": True})
    assert frozen.status_code == 409 and "overcall_penalty" in frozen.json()


@pytest.mark.parametrize(
    ("settings", "field", "words"),
    [
        # One pack, no jokers, tables of four (the odd players at threes): too few cards.
        (
            {"packs": 1, "jokers": 0, "odd_tables": "threes"},
            "packs",
            "hand 6 deals 13 cards to each of 4 players (52) and needs at least one more",
        ),
        # Tables of five absorb the odd players by default: the deck must deal them too.
        ({"packs": 1, "jokers": 4}, "packs", "hand 4 deals 12 cards to each of 5 players (60)"),
        ({"trinidad_doubling": True}, "trinidad_doubling", "for a Trinidad set"),
    ],
)
def test_settings_that_cannot_work_are_refused_by_field(organiser, settings, field, words):
    response = organiser("post", "/api/v1/events/", {"slug": "small", "name": "Small", **settings})
    assert response.status_code == 400
    assert words in response.json()[field][0]
