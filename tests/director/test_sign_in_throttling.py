"""Sign-in throttling: wrong passwords lock the username out for
a while from that address, on the site's sign-in page, the admin's, and for API
tokens; the right password does not get through a lockout."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from tests.fixtures import make_alice, make_root

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT


def sign_in(client: Client, url: str, username: str, password: str):
    return client.post(url, {"username": username, "password": password, "next": "/director/"})


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_wrong_passwords_lock_the_username_out_and_the_right_one_no_longer_works(url):
    make_root()
    client = Client()
    for _ in range(LIMIT - 1):
        assert sign_in(client, url, "root", "wrong").status_code == 200  # the form again
    locked = sign_in(client, url, "root", "wrong")
    assert locked.status_code == 429
    assert "Too many sign-in attempts" in locked.content.decode()
    refused = sign_in(client, url, "root", "pw")
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_is_per_username_and_a_right_password_before_it_resets_the_count():
    make_root()
    make_alice()
    client = Client()
    for _ in range(LIMIT - 1):
        sign_in(client, "/accounts/login/", "root", "wrong")
    assert sign_in(client, "/accounts/login/", "root", "pw").status_code == 302
    assert not AccessAttempt.objects.filter(username="root").exists()
    for _ in range(LIMIT):
        sign_in(Client(), "/accounts/login/", "root", "wrong")
    assert sign_in(Client(), "/accounts/login/", "alice", "pw").status_code == 302


def test_guessing_api_tokens_is_answered_429_after_a_few_tries():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    codes = [client.get("/api/v1/events/").status_code for _ in range(25)]
    assert codes[0] == 401
    assert 429 in codes
    assert set(codes[codes.index(429) :]) == {429}
