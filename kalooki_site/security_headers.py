"""The Content-Security-Policy headers (django-csp), built once per process.

django-csp builds its headers again for every response (the policy copied, then
written out), which took a fifth of a trivial view's work here (docs/benchmarks.md,
"A national championship, seventh pass"). The site's policy is the same for every
response that has none of its own: no page uses a nonce, and no view sets its own
policy with django-csp's decorators. So those responses are given the headers built
once from the settings; a response with a policy of its own, or a request that used
its nonce, is built by django-csp as before. A change of either setting (a test's
`override_settings`) builds them again.
"""

from __future__ import annotations

import http.client
from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

SETTINGS = {
    False: ("CONTENT_SECURITY_POLICY", HEADER, "_csp_exempt"),
    True: ("CONTENT_SECURITY_POLICY_REPORT_ONLY", HEADER_REPORT_ONLY, "_csp_exempt_ro"),
}
UNSET = PolicyParts()
DEBUG_CODES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)


@cache
def site_headers() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """Each header of the site's own policy that is not empty: its name, its value, the
    response attribute that exempts a response from it, and the addresses it skips."""
    built = []
    for report_only, (name, header, exempt) in SETTINGS.items():
        value = build_policy(report_only=report_only)
        if value:
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            built.append((header, value, exempt, tuple(prefixes)))
    return tuple(built)


@receiver(setting_changed)
def _policy_changed(*, setting: str, **kwargs) -> None:
    if setting in (name for name, _header, _exempt in SETTINGS.values()):
        site_headers.cache_clear()


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the site's own policy built once (above)."""

    def process_response(self, request, response):
        if (
            self.get_policy_parts(request, response) != UNSET
            or self.get_policy_parts(request, response, report_only=True) != UNSET
        ):
            return super().process_response(request, response)  # a policy of its own
        if response.status_code in DEBUG_CODES and settings.DEBUG:
            return response
        for header, value, exempt, prefixes in site_headers():
            if (
                header not in response
                and getattr(response, exempt, False) is False  # as django-csp reads it
                and not request.path_info.startswith(prefixes)
            ):
                response[header] = value
        # As django-csp does: a nonce asked for once the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
