"""Every list endpoint honours its page size: the ratings list takes `limit` and
`offset` as the standings do (the whole list by default, `count` giving its length),
and refuses a page size beyond the API's bound naming the field."""

from __future__ import annotations

import pytest

from api.guards import MAX_LIMIT
from core import services
from tests.core.ratings_world import closed_round, players
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    cast = players(8)
    closed_round(make_event(slug="a"), [cast[0:4], cast[4:8]])
    services.refresh_ratings()


def test_the_ratings_list_pages_with_limit_and_offset(api, rated):
    whole = api.as_().get("/api/v1/ratings/").json()
    assert whole["count"] == len(whole["ratings"]) == 8
    page = api.as_().get("/api/v1/ratings/?limit=3&offset=2").json()
    assert page["count"] == 8
    assert page["ratings"] == whole["ratings"][2:5]


@pytest.mark.parametrize("query", [f"limit={MAX_LIMIT + 1}", "limit=0", "offset=-1", "limit=x"])
def test_a_page_size_out_of_bounds_is_refused_naming_the_field(api, rated, query):
    response = api.as_().get(f"/api/v1/ratings/?{query}")
    assert response.status_code == 400
    assert set(response.json()) == {query.split("=")[0]}
