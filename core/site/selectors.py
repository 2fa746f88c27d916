"""The installation's public address, as the QR codes use it: the one a director set
on the pages, else the SITE_URL setting, else the address the request came to."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournaments.models import SiteSetting


def stored_site_url() -> str:
    return SiteSetting.objects.filter(pk=1).values_list("site_url", flat=True).first() or ""


def site_url(request_base: str = "") -> str:
    """Where the public site lives (no trailing slash): 1 query."""
    chosen = stored_site_url() or getattr(settings, "SITE_URL", "") or request_base
    return chosen.rstrip("/")


def site_url_source() -> str:
    """Where the address comes from, in words for the page."""
    if stored_site_url():
        return _("set on these pages")
    if getattr(settings, "SITE_URL", ""):
        return _("the SITE_URL setting")
    return _("the address this page was opened at")


def is_loopback(url: str) -> bool:
    """An address only this computer reaches (127.x, localhost, ::1): QR codes that point
    there open nothing on a player's phone."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
