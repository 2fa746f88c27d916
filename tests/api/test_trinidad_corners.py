"""The Trinidad and penalty corners through the REST API, as a director's client records
them (RULES.md, "Decided for tournaments"; the rules engine's own tests quote each
sentence: tests/game/test_rules_trinidad_and_penalties.py)."""

from __future__ import annotations

import pytest

from tests.api.conftest import hand_url
from tests.api.test_incomplete_sets import sender
from tests.fixtures import make_entries, make_event, make_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(api, alice, django_capture_on_commit_callbacks):
    return sender(api.as_(alice), django_capture_on_commit_callbacks)


def table(alice, slug: str, **rules):
    event = make_event(slug=slug, **rules)
    event.directors.add(alice)
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))


def hand(points: tuple[int, int, int], penalties: list[dict], **more) -> dict:
    scores = [{"seat": seat, "points": p} for seat, p in zip((2, 3, 4), points, strict=True)]
    return {"went_out": 1, "scores": scores, "penalties": penalties, **more}


def test_a_challenge_score_is_never_doubled_by_a_down_and_out(client, alice):
    table(alice, "port-of-spain", ruleset="trinidad", trinidad_doubling=True)
    body = hand((55, 10, 7), [{"seat": 2, "kind": "challenge"}], down_and_out=True)
    saved = client("put", hand_url(slug="port-of-spain"), body)
    assert saved.status_code == 200, saved.json()
    scores = {row["seat"]: row["score"] for row in saved.json()["results"]}
    assert scores == {1: 0, 2: 55 + 50, 3: 20, 4: 14}  # not (55 x 2) + 50


def test_a_false_laydown_on_the_seat_that_went_out_is_refused_and_nothing_written(client, alice):
    table(alice, "san-fernando", ruleset="trinidad")
    body = hand((5, 10, 7), [{"seat": 1, "kind": "false_laydown"}])
    refused = client("put", hand_url(slug="san-fernando"), body)
    assert refused.status_code == 400
    assert "record who really went out" in str(refused.json())
    assert client("get", hand_url(slug="san-fernando")).status_code == 404


def test_extra_calls_beyond_what_the_deck_can_feed_are_refused(client, alice):
    table(alice, "kingston")
    too_many = hand((5, 10, 7), [{"seat": 2, "kind": "overcall", "extra_calls": 46}])
    refused = client("put", hand_url(slug="kingston"), too_many)
    assert refused.status_code == 400 and "at most 32" in str(refused.json())
    allowed = hand((5, 10, 7), [{"seat": 2, "kind": "overcall", "extra_calls": 32}])
    assert client("put", hand_url(slug="kingston"), allowed).status_code == 200
    # A typo of 900 for 90, with 45 calls claimed to cover it, is held by the seat's bound.
    typo = hand((900, 10, 7), [{"seat": 2, "kind": "overcall", "extra_calls": 45}])
    held = client("put", hand_url(slug="kingston", hand=2), typo)
    assert held.status_code == 400
    assert "45 extra calls is more than the deck allows" in held.json()["penalties"][0]
