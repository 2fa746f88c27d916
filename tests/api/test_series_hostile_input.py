"""Never a 500 for any input to the series and ruleset endpoints: junk bodies get a 4xx
and write nothing."""

from __future__ import annotations

import pytest

from core import services
from tournaments.models import HouseRuleset, Series

pytestmark = pytest.mark.django_db

JUNK = [
    None,
    [],
    "text",
    12,
    {"slug": "x" * 300, "name": "X"},
    {"slug": "bad slug!", "name": "X"},
    {"slug": "ok", "name": "X", "points_scale": [True, False]},
    {"slug": "ok", "name": "X", "points_scale": [10**40]},
    {"slug": "ok", "name": "X", "points_scale": [[1]]},
    {"slug": "ok", "name": "X", "best_of": "all"},
    {"slug": "ok", "name": "X", "qualifiers": 10**12},
    {"slug": "ok", "name": "X", "prizes": "lots"},
    {"slug": "ok", "name": "X", "prizes": [{"place": 1, "amount": "1e400"}]},
    {"slug": "ok", "name": "X", "prizes": [{"place": 1, "amount": "NaN"}]},
    {"slug": "ok", "name": "X", "prizes": [{"place": 10**20, "amount": 1}]},
    {"slug": "ok", "name": "X", "prizes": [{"place": 1}, {"place": 1, "amount": 2}]},
    {"slug": "ok", "name": "X", "prizes": [None]},
    {"slug": "ok", "name": "X", "carry_over_step": -4},
    {"event": ["x"]},
    {"event": None},
]
RULESET_JUNK = [
    {"slug": "r", "name": "R", "hands": "ten"},
    {"slug": "r", "name": "R", "hands": [{"cards_dealt": 10**30, "threes": 1, "fours": 0}]},
    {"slug": "r", "name": "R", "hands": [{"cards_dealt": 10, "threes": -1, "fours": 0}]},
    {"slug": "r", "name": "R", "hands": [{"cards_dealt": 10}]},
    {"slug": "r", "name": "R", "hands": [{"cards_dealt": 10, "threes": 2, "fours": 0}] * 30},
    {"slug": "r", "name": "R", "jokers_per_pack": -1},
    {"slug": "r", "name": "R", "jokers_per_pack": 10**30},
    {"slug": "r", "name": "R", "overcall_penalty": "free"},
    {"slug": "r", "name": "R", "down_and_out_doubles": "maybe"},
]


@pytest.fixture
def series(root):
    return services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=root)


@pytest.mark.parametrize("body", JUNK)
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/v1/series/"),
        ("patch", "/api/v1/series/circuit/"),
        ("post", "/api/v1/series/circuit/events/"),
        ("post", "/api/v1/series/circuit/final/"),
    ],
)
def test_junk_for_a_series_is_a_4xx_and_writes_nothing(api, root, series, method, url, body):
    before = list(Series.objects.values())
    response = getattr(api.as_(root), method)(url, body, format="json")
    # A PATCH naming no setting of a series changes nothing, and says so with 200.
    low = 200 if method == "patch" else 400
    assert low <= response.status_code < 500, (url, body, response.content)
    assert list(Series.objects.values()) == before


@pytest.mark.parametrize("body", RULESET_JUNK + JUNK[:4])
def test_junk_for_a_ruleset_is_a_400_and_writes_nothing(api, root, body):
    response = api.as_(root).post("/api/v1/rulesets/", body, format="json")
    assert response.status_code == 400, (body, response.content)
    assert not HouseRuleset.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"custom_ruleset": 5},
        {"custom_ruleset": ["x"]},
        {"prizes": [{"place": 1, "amount": "abc"}]},
        {"prize_ties": None},
        {"ruleset": "custom"},
    ],
)
def test_junk_house_rules_or_prizes_on_an_event_are_a_400(api, root, body):
    response = api.as_(root).post(
        "/api/v1/events/", {"slug": "e", "name": "E", **body}, format="json"
    )
    assert response.status_code == 400, (body, response.content)
