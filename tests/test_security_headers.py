"""The Content-Security-Policy headers, built once per process for the site's own policy
(kalooki_site.security_headers), say exactly what django-csp's own middleware says."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from kalooki_site.security_headers import ContentSecurityPolicyMiddleware, site_headers

POLICY = {"DIRECTIVES": {"default-src": ["'self'"], "img-src": ["'self'", "https://x.example"]}}


def answered(middleware_class, *, use_nonce: bool = False, **attributes):
    """A request through `middleware_class`, to a view whose response carries
    `attributes` (as django-csp's decorators set them); the request and the response."""
    request = RequestFactory().get("/events/")

    def view(request):
        if use_nonce:
            request.nonce_seen = str(request.csp_nonce)
        response = HttpResponse("ok")
        for name, value in attributes.items():
            setattr(response, name, value)
        return response

    return request, middleware_class(view)(request)


def headers(response) -> dict[str, str | None]:
    return {name: response.get(name) for name in (HEADER, HEADER_REPORT_ONLY)}


@pytest.mark.parametrize(
    "attributes",
    [
        {},
        {"_csp_update": {"img-src": ["https://maps.example"]}},
        {"_csp_replace": {"script-src": ["'self'", "https://cdn.example"]}},
        {"_csp_config": {"default-src": ["'none'"]}},
        {"_csp_exempt": True},
        {"_csp_exempt": None},  # django-csp exempts any value but False
    ],
    ids=["the site's own", "updated", "replaced", "its own", "exempt", "exempt, None"],
)
def test_each_response_has_the_headers_django_csp_gives_it(attributes):
    _request, ours = answered(ContentSecurityPolicyMiddleware, **attributes)
    _request, theirs = answered(CSPMiddleware, **attributes)
    assert headers(ours) == headers(theirs)
    assert (ours.get(HEADER) is None) == ("_csp_exempt" in attributes)


def test_the_site_policy_is_built_once_and_its_header_is_the_settings():
    site_headers.cache_clear()
    first = answered(ContentSecurityPolicyMiddleware)[1][HEADER]
    assert site_headers.cache_info().misses == 1
    assert answered(ContentSecurityPolicyMiddleware)[1][HEADER] == first
    assert site_headers.cache_info().misses == 1  # not built again
    assert "default-src 'self'" in first and "frame-ancestors 'none'" in first


def test_a_request_that_used_its_nonce_has_it_in_a_policy_that_names_it():
    policy = {"DIRECTIVES": {"default-src": ["'self'"], "script-src": ["'self'", NONCE]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        request, response = answered(ContentSecurityPolicyMiddleware, use_nonce=True)
        assert f"'nonce-{request.nonce_seen}'" in response[HEADER]
        assert "nonce" not in answered(ContentSecurityPolicyMiddleware)[1][HEADER]


def test_a_nonce_asked_for_after_the_header_is_written_is_refused():
    request, _response = answered(ContentSecurityPolicyMiddleware)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


def test_a_changed_setting_changes_the_headers():
    before = answered(ContentSecurityPolicyMiddleware)[1]
    with override_settings(
        CONTENT_SECURITY_POLICY=POLICY, CONTENT_SECURITY_POLICY_REPORT_ONLY=POLICY
    ):
        changed = answered(ContentSecurityPolicyMiddleware)[1]
        assert headers(changed) == headers(answered(CSPMiddleware)[1])
        assert "https://x.example" in changed[HEADER]
        assert "https://x.example" in changed[HEADER_REPORT_ONLY]
    after = answered(ContentSecurityPolicyMiddleware)[1]
    assert headers(after) == headers(before)
    assert after.get(HEADER_REPORT_ONLY) is None


def test_an_address_the_policy_excludes_has_no_header():
    policy = {**POLICY, "EXCLUDE_URL_PREFIXES": ["/events/"]}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert answered(ContentSecurityPolicyMiddleware)[1].get(HEADER) is None
        assert answered(CSPMiddleware)[1].get(HEADER) is None


def test_every_page_of_the_site_is_answered_with_the_policy(client):
    response = client.get("/healthz")
    assert response[HEADER] == headers(answered(CSPMiddleware)[1])[HEADER]
