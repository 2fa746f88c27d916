"""GET /api/v1/events/{slug}/standings/: rendered once per standings version, with an
ETag (If-None-Match -> 304), gzip for clients that accept it, and ?limit=&offset=
pages (the whole list stays the default)."""

from __future__ import annotations

import gzip
import json

import pytest

from api.standings import RENDERED
from core import services
from tests.api.conftest import GOOD_HAND, hand_url
from tests.fixtures import make_entries, make_round

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/events/kingston/standings/"


@pytest.fixture
def ranked(event):
    make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    services.refresh_standings(event=event)
    return event


def test_the_whole_list_is_the_default_and_counted(api, ranked):
    body = api.as_().get(URL).json()
    assert body["count"] == len(body["standings"]) == 12
    assert [row["rank"] for row in body["standings"]] == list(range(1, 13))
    assert set(body) >= {"version", "round", "final", "standings"}


def test_limit_and_offset_give_one_page(api, ranked):
    whole = api.as_().get(URL).json()["standings"]
    page = api.as_().get(URL, {"limit": 5, "offset": 10}).json()
    assert page["count"] == 12
    assert page["standings"] == whole[10:]
    assert api.as_().get(URL, {"limit": 3}).json()["standings"] == whole[:3]
    assert api.as_().get(URL, {"offset": 12}).json()["standings"] == []


@pytest.mark.parametrize(
    "params, field",
    [({"limit": "0"}, "limit"), ({"limit": "x"}, "limit"), ({"limit": "5000"}, "limit"),
     ({"offset": "-1"}, "offset"), ({"offset": "1e3"}, "offset")],
)  # fmt: skip
def test_a_bad_page_is_refused_naming_the_field(api, ranked, params, field):
    response = api.as_().get(URL, params)
    assert response.status_code == 400
    assert field in json.dumps(response.json())


def test_if_none_match_answers_304_until_the_standings_change(api, alice, ranked):
    first = api.as_().get(URL)
    tag = first["ETag"]
    assert tag.startswith('W/"') and str(first.json()["version"]) in tag
    again = api.as_().get(URL, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert api.as_().get(URL, {"limit": 2}, HTTP_IF_NONE_MATCH=tag).status_code == 200
    saved = api.as_(alice).put(hand_url(), GOOD_HAND, format="json")
    assert saved.status_code == 200
    changed = api.as_().get(URL, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["version"] > first.json()["version"]
    assert changed.json()["standings"][0]["points"] == 0


def test_gzip_when_accepted_the_same_document(api, ranked):
    plain = api.as_().get(URL)
    packed = api.as_().get(URL, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert json.loads(gzip.decompress(packed.content)) == plain.json()


def test_a_private_event_stays_private(api, bob, ranked):
    ranked.public = False
    ranked.save()
    assert api.as_().get(URL).status_code == 404
    assert api.as_(bob).get(URL).status_code == 404


def test_an_anonymous_repeat_read_needs_no_query(api, ranked, django_assert_num_queries):
    tag = api.as_().get(URL)["ETag"]  # reads the event's row once, and keeps it
    with django_assert_num_queries(0):
        assert api.as_().get(URL, HTTP_IF_NONE_MATCH=tag).status_code == 304
        assert api.as_().get(URL, HTTP_ACCEPT_ENCODING="gzip").status_code == 200


def test_the_fast_anonymous_read_answers_as_drf_does(api, ranked, django_assert_num_queries):
    first = api.as_().get(URL, HTTP_ACCEPT_ENCODING="gzip")  # DRF's path: keeps the event
    with django_assert_num_queries(0):
        again = api.as_().get(URL, HTTP_ACCEPT_ENCODING="gzip")  # answered before DRF
    assert again.status_code == first.status_code == 200
    assert again.content == first.content
    for header in ("ETag", "Cache-Control", "Vary", "Allow", "Content-Type", "Content-Encoding"):
        assert again[header] == first[header], header
    not_modified = api.as_().get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304 and not_modified["ETag"] == first["ETag"]
    # Anything the fast read does not know goes DRF's way, with its answer.
    assert api.as_().get(URL, {"limit": "0"}).status_code == 400
    assert api.as_().get(URL, {"round": "9"}).status_code == 404
    assert api.as_().get(URL, {"limit": "2"}).json()["count"] == 12


def test_the_fast_read_counts_each_request_once_against_the_throttle(api, ranked):
    from unittest import mock

    from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

    rates = {"anon": "3/minute", "user": "100/minute"}
    with (
        mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", rates),
        mock.patch.object(UserRateThrottle, "THROTTLE_RATES", rates),
    ):
        answers = [api.as_().get(URL, REMOTE_ADDR="10.9.8.7").status_code for _ in range(4)]
        other = api.as_().get(URL, REMOTE_ADDR="10.9.8.6")
        refused = api.as_().get(URL, REMOTE_ADDR="10.9.8.7")
    assert answers == [200, 200, 200, 429]
    assert other.status_code == 200
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "throttled" in refused.json()["detail"]


def test_behind_a_proxy_each_forwarded_client_is_counted_apart(api, ranked):
    """Behind the proxy NUM_PROXIES counts, the anonymous limit follows the address the
    proxy forwards, in the fast read too: one busy reader is refused, another reader
    behind the same proxy is not."""
    from unittest import mock

    from django.conf import settings
    from django.test.utils import override_settings
    from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

    rates = {"anon": "2/minute", "user": "100/minute"}
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    with (
        override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}),
        mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", rates),
        mock.patch.object(UserRateThrottle, "THROTTLE_RATES", rates),
    ):
        busy = [
            api.as_().get(URL, HTTP_X_FORWARDED_FOR="198.51.100.7", **proxy).status_code
            for _ in range(3)
        ]
        other = api.as_().get(URL, HTTP_X_FORWARDED_FOR="198.51.100.8", **proxy)
    assert busy == [200, 200, 429]
    assert other.status_code == 200


def test_this_process_keeps_only_the_latest_version_of_each_page(api, alice, ranked):
    """A new standings version replaces this process's copy of the old one (never read
    again) at once, page by page, rather than when the store is full."""
    api.as_().get(URL)
    api.as_().get(URL, {"limit": 5})
    assert len(RENDERED) == 2
    old = api.as_().get(URL).json()["version"]
    assert api.as_(alice).put(hand_url(), GOOD_HAND, format="json").status_code == 200
    assert api.as_().get(URL).json()["version"] > old
    api.as_().get(URL, {"limit": 5})
    assert len(RENDERED) == 2  # the two pages, each at the new version only
