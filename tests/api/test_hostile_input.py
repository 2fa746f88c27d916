"""Never a 500 for any input, and permission checks before the body is read, with
draft seating private."""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import GOOD_HAND, hand_url
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db

NESTED = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/v1/events/"),
        ("post", "/api/v1/players/"),
        ("patch", "/api/v1/events/kingston/"),
        ("put", hand_url()),
        ("post", "/api/v1/events/kingston/rounds/1/close/"),
    ],
)
def test_deeply_nested_json_is_refused_with_400(api, root, playing, method, url):
    response = getattr(api.as_(root), method)(url, NESTED, content_type="application/json")
    assert response.status_code == 400
    assert "nested deeper" in response.json()["detail"]


def test_json_nested_beyond_the_limit_is_refused_even_when_python_could_read_it(api, root):
    body = {"name": "x", "club": [[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]}
    response = api.as_(root).post("/api/v1/players/", body, format="json")
    assert response.status_code == 400


@pytest.mark.parametrize("text", ["NaN", "Infinity", '{"name": NaN}'])
def test_nan_and_infinity_are_not_json(api, root, text):
    response = api.as_(root).post("/api/v1/players/", text, content_type="application/json")
    assert response.status_code == 400


def test_a_nul_character_in_a_body_is_refused(api, root):
    response = api.as_(root).post("/api/v1/players/", {"name": "A\x00B"}, format="json")
    assert response.status_code == 400
    assert "NUL" in response.json()["name"][0]


@pytest.mark.parametrize(
    "url",
    ["/api/v1/players/?search=%00", "/api/v1/events/?status=%00x", "/events/?q=a%00b"],
)
def test_a_nul_character_in_the_address_is_refused(client, url):
    assert client.get(url).status_code == 400


def test_the_nul_refusal_speaks_the_readers_language(client):
    english = client.get("/events/?q=a%00b").content.decode()
    russian = client.get("/events/?q=a%00b", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert english == "The address may not contain a NUL character (written %00)."
    assert russian == "Адрес не может содержать символ NUL (записывается как %00)."


@pytest.mark.parametrize(
    "query",
    ["limit=9223372036854775808", "offset=9223372036854775808", "limit=5&offset=99999999999"],
)
def test_huge_page_numbers_are_bounded(api, event, query):
    response = api.as_().get(f"/api/v1/events/?{query}")
    assert response.status_code == 200


def test_a_page_holds_at_most_a_thousand_rows(api, event):
    make_entries(event, 1005)
    body = api.as_().get("/api/v1/events/kingston/entries/?limit=5000").json()
    assert body["count"] == 1005 and len(body["results"]) == 1000


# --- permission first, then the body --------------------------------------------------


def test_an_anonymous_writer_learns_nothing_of_a_private_events_slug(api):
    make_event(slug="secret", public=False)
    response = api.as_().post("/api/v1/events/", {"slug": "secret", "name": "x"}, format="json")
    assert response.status_code == 401
    assert "exists" not in json.dumps(response.json())


def test_a_writer_who_may_not_create_events_is_refused_before_validation(api, bob):
    make_event(slug="secret", public=False)
    response = api.as_(bob).post("/api/v1/events/", {"slug": "secret", "name": "x"}, format="json")
    assert response.status_code == 403


def test_another_events_director_gets_403_not_a_validation_error(api, bob, playing):
    for method, url, body in [
        ("put", hand_url(), {"went_out": "bogus"}),
        ("patch", "/api/v1/events/kingston/", {"packs": "many"}),
        ("post", "/api/v1/events/kingston/entries/", {"player": "nobody"}),
        ("post", "/api/v1/events/kingston/rounds/1/move/", {"table": -5}),
    ]:
        response = getattr(api.as_(bob), method)(url, body, format="json")
        assert response.status_code == 403, (method, url, response.content)


def test_an_anonymous_player_write_is_401_before_validation(api):
    assert api.as_().post("/api/v1/players/", {"name": ""}, format="json").status_code == 401


@pytest.fixture
def draft(event):
    entries = make_entries(event, 4)
    make_round(event, table_sizes=(4,), entries=entries, status=Round.Status.DRAFT)
    return event


def test_a_draft_rounds_seating_is_private_to_its_directors(api, alice, bob, draft):
    for reader in (None, bob):
        client = api.as_(reader)
        assert client.get("/api/v1/events/kingston/rounds/1/").status_code == 404
        assert client.get("/api/v1/events/kingston/rounds/").json() == []
        assert client.get("/api/v1/events/kingston/rounds/1/tables/1/").status_code == 404
        assert client.get(hand_url()).status_code == 404
    director = api.as_(alice)
    assert director.get("/api/v1/events/kingston/rounds/1/").json()["status"] == "draft"
    assert len(director.get("/api/v1/events/kingston/rounds/").json()) == 1
    assert director.get("/api/v1/events/kingston/rounds/1/tables/1/").status_code == 200


def test_a_published_round_is_public(api, playing):
    assert api.as_().get("/api/v1/events/kingston/rounds/1/").status_code == 200
    assert api.as_().put(hand_url(), GOOD_HAND, format="json").status_code == 401
    assert Event.objects.get(slug="kingston").public


@pytest.mark.parametrize(
    "url", ["/api/v1/events/kingston/entries/null%2Cnull/", "/api/v1/nowhere/", "/api/v2/"]
)
def test_an_address_no_route_matches_is_a_json_404_under_the_api(api, event, url):
    response = api.as_().get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_a_renamed_event_would_break_printed_qr_codes_so_a_started_one_keeps_its_slug(
    api, alice, playing
):
    response = api.as_(alice).patch("/api/v1/events/kingston/", {"slug": "moved"}, format="json")
    assert response.status_code == 409
    assert "QR codes" in response.json()["slug"][0]
    assert Event.objects.filter(slug="kingston").exists()


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/events/kingston/rounds/1/swap/", {"first": 2**63, "second": -(2**70)}),
        ("/api/v1/events/kingston/rounds/1/move/", {"player": 2**64, "table": 1}),
        ("/api/v1/events/kingston/entries/", {"player": 2**63, "seed_number": 2**40}),
        ("/api/v1/players/", {"name": "Big", "rating": 2**63}),
    ],
)
def test_integers_beyond_any_column_are_refused_not_a_crash(api, alice, playing, url, body):
    response = api.as_(alice).post(url, body, format="json")
    assert response.status_code == 400, response.content


HUGE = "9" * 25


@pytest.mark.parametrize(
    "url",
    [
        f"/api/v1/events/kingston/rounds/{HUGE}/",
        f"/api/v1/events/kingston/rounds/1/tables/{HUGE}/",
        f"/api/v1/events/kingston/rounds/1/tables/1/hands/{HUGE}/",
        f"/api/v1/events/kingston/entries/{HUGE}/",
        f"/players/{HUGE}/",
        f"/events/kingston/rounds/{HUGE}/",
        f"/events/kingston/rounds/1/tables/{HUGE}/",
    ],
)
def test_huge_numbers_in_the_address_are_not_found(client, playing, url):
    assert client.get(url).status_code == 404


def test_huge_numbers_in_a_directors_address_are_not_found(api, alice, playing):
    url = f"/api/v1/events/kingston/rounds/1/tables/1/hands/{HUGE}/"
    assert api.as_(alice).put(url, GOOD_HAND, format="json").status_code in (400, 404)
    assert api.as_(alice).delete(url).status_code == 404
    url = f"/api/v1/events/kingston/rounds/{HUGE}/close/"
    assert api.as_(alice).post(url, {}, format="json").status_code == 404
