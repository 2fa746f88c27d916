"""The client's address, read one way for every limit the site keeps: sign-in lockouts
(django-axes), wrong players' codes and the API's throttles."""

from __future__ import annotations

import ipaddress

from rest_framework.throttling import BaseThrottle


def client_address(request) -> str | None:
    """The address DRF's throttles count a request by: `X-Forwarded-For` read past the
    `NUM_PROXIES` proxies in front of the site, and `REMOTE_ADDR` when there are none
    (a header the client sends itself is then ignored). Anything that is not an
    address falls back to `REMOTE_ADDR`: the lockouts store it as one."""
    found = BaseThrottle().get_ident(request)
    try:
        return str(ipaddress.ip_address(found))
    except ValueError:
        return request.META.get("REMOTE_ADDR")
