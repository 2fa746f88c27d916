from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_front_page_is_served(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Kalooki" in response.content


def test_admin_login_page_is_served(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert b"username" in response.content


def test_demo_director_can_sign_in(client):
    call_command("demo_director")
    signed_in = client.post("/accounts/login/", {"username": "director", "password": "kalooki"})
    assert signed_in.status_code == 302
    assert client.get("/admin/").status_code == 200


def test_api_docs_are_served_without_a_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"cdn" not in response.content.lower()
    assert client.get("/api/schema/").status_code == 200


def test_the_favicon_is_there():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.ico")
    assert 'rel="icon"' in Client().get("/").content.decode()
