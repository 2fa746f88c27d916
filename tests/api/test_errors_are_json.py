"""Every error under /api/ is JSON, including those raised before a view runs: a body
larger than a request may carry (413), a database that refuses connections (503 with
Retry-After), an error no view answered (500). The pages keep their own."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client

from api import events as events_api

pytestmark = pytest.mark.django_db


def client() -> Client:
    return Client(raise_request_exception=False)


def test_a_body_over_the_limit_is_a_json_413(settings, api, root):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = b'{"name": "' + b"x" * 5000 + b'"}'
    response = api.as_(root).post("/api/v1/players/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert "1,000 bytes" in response.json()["detail"]


def test_a_form_over_the_limit_on_a_page_is_a_413_too(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client().post("/accounts/login/", {"username": "x" * 5000, "password": "x"})
    assert response.status_code == 413


def test_a_database_refusing_connections_is_a_json_503_with_retry_after():
    refused = OperationalError("FATAL: sorry, too many clients already")
    with mock.patch.object(events_api.EventList, "get", side_effect=refused):
        response = client().get("/api/v1/events/")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"].isdigit()
    assert "database" in response.json()["detail"]


def test_an_error_no_view_answered_is_a_json_500():
    with mock.patch.object(events_api.EventList, "get", side_effect=RuntimeError("boom")):
        response = client().get("/api/v1/events/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "boom" not in response.content.decode()


def test_the_pages_keep_their_own_error_pages():
    with mock.patch("public.views.selectors.public_event_list", side_effect=RuntimeError("boom")):
        response = client().get("/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_the_pages_tell_of_a_database_refusing_connections_with_retry_after():
    refused = OperationalError("FATAL: sorry, too many clients already")
    with mock.patch("public.views.selectors.public_event_list", side_effect=refused):
        response = client().get("/")
    assert response.status_code == 503 and response["Retry-After"].isdigit()
