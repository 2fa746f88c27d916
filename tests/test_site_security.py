"""A Content-Security-Policy on every page, and password reset only where mail is
configured."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/api/docs/", "/admin/login/"])
def test_every_page_carries_a_strict_content_security_policy(url):
    response = Client().get(url)
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@override_settings(PASSWORD_RESET_ENABLED=False)
@pytest.mark.parametrize(
    "url",
    ["/accounts/password_reset/", "/accounts/reset/MQ/set-password/", "/accounts/reset/done/"],
)
def test_password_reset_does_not_exist_without_a_mail_server(url):
    assert Client().get(url).status_code == 404


@override_settings(
    PASSWORD_RESET_ENABLED=True, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"
)
def test_password_reset_is_offered_when_mail_is_configured():
    assert Client().get("/accounts/password_reset/").status_code == 200
