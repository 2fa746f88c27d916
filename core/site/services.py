"""The installation's public address (the QR codes' target), set from the director's
pages; stored in the database so every web process prints the same, with history."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from core.common import with_history_user
from core.errors import Forbidden, InvalidInput
from core.locks import for_request
from tournaments.models import SiteSetting


def may_set_site_url(user: AbstractBaseUser | None) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_superuser or user.has_perm("tournaments.change_sitesetting"))
    )


HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$", re.IGNORECASE)


def is_host(name: str) -> bool:
    """An IP address, or a host name a phone can look up (letters, digits and hyphens
    in dot-separated labels, accented names as IDNA)."""
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    try:
        ascii_name = name.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    labels = ascii_name.removesuffix(".").split(".")
    return len(ascii_name) <= 253 and all(HOST_LABEL.match(label) for label in labels)


def check_site_url(value: str) -> str:
    """`value` as the site's address (scheme and host, no path), or why it cannot be.
    Empty: use the SITE_URL setting."""
    value = (value or "").strip()
    if not value:
        return ""
    if "://" not in value:
        value = "http://" + value
    try:
        parts = urlsplit(value)
        port = parts.port  # raises for a port that is not a number
    except ValueError as error:
        raise InvalidInput(
            _("%(value)s is not an address: %(error)s.") % {"value": repr(value), "error": error},
            field="site_url",
        ) from error
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(
            _(
                "%(value)s is not a web address; give one like https://kalooki.example.org "
                "or http://192.168.1.20:8000."
            )
            % {"value": repr(value)},
            field="site_url",
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise InvalidInput(
            _("Give the site's address only (scheme, host and port), without a path."),
            field="site_url",
        )
    if not is_host(parts.hostname):
        raise InvalidInput(
            _("%(host)s is not a host name or an IP address.") % {"host": repr(parts.hostname)},
            field="site_url",
        )
    netloc = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if port is not None:
        netloc += f":{port}"
    return f"{parts.scheme}://{netloc}"  # at most 8 + 253 + 6 characters: it fits


@for_request("site's setting")
def set_site_url(*, site_url: str, by: AbstractBaseUser | None = None) -> SiteSetting:
    """Set (or, empty, clear) the site's public address. Only a superuser or a user
    given the right to change the site's settings may."""
    if not may_set_site_url(by):
        raise Forbidden(_("Only an administrator may change the site's address."), field="site_url")
    value = check_site_url(site_url)
    setting = SiteSetting.objects.select_for_update().filter(pk=1).first() or SiteSetting(pk=1)
    if setting.pk and setting.site_url == value and not setting._state.adding:
        return setting
    setting.site_url = value
    with_history_user(setting, by).save()
    return setting
