"""Sign-in lockouts follow the real client: behind the proxies NUM_PROXIES counts, the
address is read from X-Forwarded-For, so one client's wrong passwords never lock out
another; with no proxy configured, a forged header changes nothing."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client, override_settings

from tests.fixtures import make_root

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT
PROXY = "10.0.0.1"


def behind(num_proxies: int):
    return override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": num_proxies})


def sign_in(password: str, forwarded_for: str, remote: str = PROXY):
    return Client().post(
        "/accounts/login/",
        {"username": "root", "password": password, "next": "/director/"},
        REMOTE_ADDR=remote,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def test_one_clients_wrong_passwords_do_not_lock_out_another_behind_the_proxy():
    make_root()
    with behind(1):
        for _ in range(LIMIT):
            sign_in("wrong", "6.6.6.6")
        assert sign_in("pw", "6.6.6.6").status_code == 429
        assert sign_in("pw", "7.7.7.7").status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) <= {"6.6.6.6"}


def test_the_address_is_read_past_the_proxies_only():
    make_root()
    with behind(1):
        for _ in range(LIMIT):
            sign_in("wrong", "1.2.3.4, 6.6.6.6")  # the client claimed 1.2.3.4 itself
        assert sign_in("pw", "1.2.3.4").status_code == 302
        assert sign_in("pw", "9.9.9.9, 6.6.6.6").status_code == 429


def test_without_a_proxy_a_forged_header_is_ignored():
    make_root()
    with behind(0):
        for _ in range(LIMIT):
            sign_in("wrong", "6.6.6.6", remote="203.0.113.5")
        # Another header from the same address does not escape the lockout...
        assert sign_in("pw", "7.7.7.7", remote="203.0.113.5").status_code == 429
        # ...and another address is not locked out by it.
        assert sign_in("pw", "6.6.6.6", remote="203.0.113.6").status_code == 302


def test_a_forwarded_value_that_is_no_address_falls_back_to_the_proxys():
    make_root()
    with behind(1):
        response = sign_in("wrong", "not-an-address")
    assert response.status_code == 200
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [PROXY]
