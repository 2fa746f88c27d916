"""The pages' forms refuse control characters with a 400 naming the field, before any
form or service sees them (the API's parser does the same for JSON bodies)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.fixtures import make_alice, make_event
from tournaments.models import Announcement

pytestmark = pytest.mark.django_db


def test_an_announcement_with_a_control_character_is_refused_naming_the_field():
    alice = make_alice()
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    client = Client()
    client.force_login(alice)
    response = client.post("/director/kingston/announcements/", {"text": "Round\x1b2"})
    assert response.status_code == 400
    assert response.content.decode().startswith("text: ")
    assert "control characters" in response.content.decode()
    assert not Announcement.objects.exists()


def test_a_sign_in_with_a_control_character_is_refused_before_the_form():
    response = Client().post("/accounts/login/", {"username": "root\x07", "password": "x"})
    assert response.status_code == 400
    assert response.content.decode().startswith("username: ")


def test_line_breaks_and_tabs_are_text():
    response = Client().post("/accounts/login/", {"username": "root\t", "password": "a\r\nb"})
    assert response.status_code == 200  # the form again: a wrong password, not refused
