"""GET /api/v1/events/{slug}/exports/standings.csv and .../hands.csv."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import Resolver404, path, resolve
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from api import exports as exports_api
from kalooki_site import urls as site_urls
from tests.core.shared_events import event_of, played_event_pk, user_named
from tests.fixtures import kept_for_the_module, make_user

EXPORTS = [
    path(
        "api/v1/events/<slug:slug>/exports/standings.csv",
        exports_api.StandingsCsv.as_view(),
        name="exports-standings",
    ),
    path(
        "api/v1/events/<slug:slug>/exports/hands.csv",
        exports_api.HandsCsv.as_view(),
        name="exports-hands",
    ),
]


def routed() -> bool:
    try:
        resolve("/api/v1/events/x/exports/hands.csv")
    except Resolver404:
        return False
    return True


# api/urls.py routes the exports; should it not, these tests put the two routes in front
# of the site's own (the schema test reads them alone either way).
urlpatterns = [*EXPORTS, *site_urls.urlpatterns]
pytestmark = [pytest.mark.django_db]
if not routed():
    pytestmark.append(pytest.mark.urls(__name__))

STANDINGS = "/api/v1/events/kingston/exports/standings.csv"
HANDS = "/api/v1/events/kingston/exports/hands.csv"


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> int:
    """alice's played event (its pk): made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, lambda: played_event_pk(director="alice"))


@pytest.fixture
def alice(kept, db):
    """The director of the module's played event."""
    return user_named("alice")


@pytest.fixture
def event(kept, db):
    return event_of(kept)


def as_(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def rows(response) -> list[dict[str, str]]:
    assert response.content.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_anyone_may_download_a_public_events_standings(event):
    response = as_().get(STANDINGS)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="kingston-standings.csv"' in response["Content-Disposition"]
    assert [r["rank"] for r in rows(response)] == [str(n) for n in range(1, 10)]


def test_anyone_may_download_every_hand_score_of_a_public_event(event):
    response = as_().get(HANDS, HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert {r["round"] for r in rows(response)} == {"1", "2"}


def test_a_round_can_be_chosen_and_a_bad_one_is_refused(event):
    assert {r["round"] for r in rows(as_().get(STANDINGS + "?round=1"))} == {"1"}
    bad = as_().get(STANDINGS + "?round=one")
    assert bad.status_code == 400
    assert bad.json() == {"round": ["Give a round number."]}
    assert as_().get(STANDINGS + "?round=9").status_code == 404
    for nonsense in ("-1", "²", "99999", "1.0", ""):
        assert as_().get(STANDINGS, {"round": nonsense}).status_code == 400, nonsense


def test_a_private_event_is_404_except_for_its_directors(event, alice):
    event.public = False
    event.save()
    for url in (STANDINGS, HANDS):
        assert as_().get(url).status_code == 404
        assert as_(make_user(f"mallory-{url[-9:-4]}")).get(url).status_code == 404
        assert as_(alice).get(url).status_code == 200


def test_an_unknown_event_is_404_in_json_even_when_csv_is_asked_for(db):
    response = as_().get("/api/v1/events/nowhere/exports/hands.csv", HTTP_ACCEPT="text/csv")
    assert response.status_code == 404
    assert b"No such event." in response.content


def test_the_openapi_schema_describes_csv_responses_without_warnings():
    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=EXPORTS).get_schema(request=None, public=True)
    assert not GENERATOR_STATS, "drf-spectacular warned about the export views"
    validate_schema(schema)
    for url in ("standings.csv", "hands.csv"):
        get = schema["paths"][f"/api/v1/events/{{slug}}/exports/{url}"]["get"]
        assert get["responses"]["200"]["content"] == {"text/csv": {"schema": {"type": "string"}}}


def test_a_script_may_ask_for_plain_utf8(event):
    response = as_().get(STANDINGS + "?bom=0")
    assert response.status_code == 200
    assert response.content.startswith(b"round,rank,")
