"""Two rating rebuilds at the same moment, and a round closing while one runs: they
take turns on the rating book's row lock, so the ratings are exactly those of a full
recomputation and every round is applied once. PostgreSQL only."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from core import services
from scoring.models import PlayerRating, RatedRound
from tests.concurrency.threads import together
from tests.core.ratings_world import closed_round, players
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def current() -> list[tuple]:
    return list(
        PlayerRating.objects.order_by("player_id").values_list("player_id", "mu", "sigma", "sets")
    )


def test_two_rebuilds_at_once_apply_each_round_once():
    cast = players(8)
    for slug in ("a", "b", "c"):
        closed_round(make_event(slug=slug), [cast[0:4], cast[4:8]])
    results = together(services.refresh_ratings, services.refresh_ratings)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert list(RatedRound.objects.values_list("sequence", flat=True)) == [1, 2, 3]
    assert all(sets == 3 for *_, sets in current())
    before = current()
    call_command("recompute_ratings", stdout=io.StringIO())
    assert current() == before


def test_a_round_closing_beside_a_rebuild_is_rated_by_the_next_one():
    cast = players(8)
    first = make_event(slug="first")
    closed_round(first, [cast[0:4]])
    second = make_event(slug="second")
    results = together(services.refresh_ratings, lambda: closed_round(second, [cast[4:8]]))
    assert not [r for r in results if isinstance(r, Exception)], results
    services.refresh_ratings()
    assert RatedRound.objects.count() == 2
    assert PlayerRating.objects.count() == 8
