"""Signing in: the login page, and landing on the director's pages afterwards."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.fixtures import make_world

pytestmark = pytest.mark.django_db


def test_the_login_page_has_labelled_fields():
    body = Client().get("/accounts/login/").content.decode()
    assert '<label for="id_username">Username</label>' in body
    assert '<label for="id_password">Password</label>' in body
    assert 'autocomplete="current-password"' in body


def test_signing_in_from_the_login_page_lands_on_the_directors_events():
    make_world()
    client = Client()
    form = client.get("/accounts/login/").content.decode()
    assert '<input type="hidden" name="next" value="/director/">' in form
    data = {"username": "alice", "password": "pw", "next": "/director/"}
    response = client.post("/accounts/login/", data)
    assert response.status_code == 302
    assert response["Location"] == "/director/"


def test_signing_in_from_a_page_goes_back_to_it():
    w = make_world()
    client = Client()
    target = w.sheet_url()
    login = client.get(target)["Location"]
    response = client.post(login, {"username": "alice", "password": "pw", "next": target})
    assert response["Location"] == target
    assert client.get(target).status_code == 200


def test_a_wrong_password_is_refused_in_words():
    make_world()
    response = Client().post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "That username and password do not match" in response.content.decode()
