"""What every service shares: recording who changed a row, and the model checks as a
service error."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.throttling import BaseThrottle

from core.errors import InvalidInput


def with_history_user(obj: Any, user: AbstractBaseUser | None, reason: str | None = None) -> Any:
    """Tell django-simple-history who makes the next change to `obj` (and, for a change
    no signed-in user makes, such as players confirming a hand, why)."""
    obj._history_user = user if user is not None and user.is_authenticated else None
    if reason is not None:
        obj._change_reason = reason
    return obj


def the_row(queryset: QuerySet) -> Any:
    """The one row a lookup by a unique key finds, or None: `.first()` without its
    ORDER BY. Ordering a single row changes nothing, and costs: to compile any ordered
    query, Django 5.2 first makes a lookup of every column it selects, about a fifth of
    the time of an event's row with its annotations, or of a table's seats with their
    event (`bench/one_row.py`; docs/benchmarks.md, "Where the suite's CPU goes")."""
    return next(iter(queryset.order_by()[:1]), None)


def full_clean_or_raise(obj: Any, *, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as error:
        raise InvalidInput.from_validation_error(error) from error


# Characters no one types into a name, a reason, the cards or an announcement: control
# characters (a tab and line breaks are text) and lone surrogates, which are no
# character at all and cannot be stored or sent as UTF-8.
UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why `value` cannot be taken as text (None when it can)."""
    found = UNREADABLE.search(value)
    if found is None:
        return None
    char = found.group()
    if char == "\x00":
        return _("Text may not contain NUL characters.")
    if "\ud800" <= char <= "\udfff":
        return _("Text may not contain an unpaired surrogate (U+%(code)s).") % {
            "code": f"{ord(char):04X}"
        }
    return _("Text may not contain control characters (U+%(code)s).") % {"code": f"{ord(char):04X}"}


# An imported history row's author is a name from the archive, never a user here (a
# username in an archive proves nothing): it is kept as text in the row's reason,
# "alice (imported): the reason", and read back from there when the event is exported.
IMPORTED_AUTHOR = re.compile(r"(?P<name>.+?) \(imported\)(?:: (?P<reason>.*))?", re.DOTALL)


def imported_reason(author: str | None, reason: str | None, max_length: int | None) -> str | None:
    """The reason an imported history row keeps: the archive's author named in it."""
    if author is None:
        return reason
    note = f"{author} (imported)" + (f": {reason}" if reason else "")
    return note[:max_length] if max_length else note


def author_and_reason(stored: str | None) -> tuple[str | None, str | None]:
    """(author, reason) of a history row with no user, as `imported_reason` wrote them;
    (None, the reason) for any other."""
    found = IMPORTED_AUTHOR.fullmatch(stored or "")
    if found is None:
        return None, stored
    return found["name"], found["reason"]


def client_address(request) -> str | None:
    """The client's address, read one way for every limit the site keeps (sign-in
    lockouts through django-axes, wrong players' codes, the API's throttles): the
    address DRF's throttles count a request by, `X-Forwarded-For` read past the
    `NUM_PROXIES` proxies in front of the site and `REMOTE_ADDR` when there are none (a
    header the client sends itself is then ignored). Anything that is not an address
    falls back to `REMOTE_ADDR`: the lockouts store it as one."""
    found = BaseThrottle().get_ident(request)
    try:
        return str(ipaddress.ip_address(found))
    except ValueError:
        return request.META.get("REMOTE_ADDR")


# A CSV file opens right in Excel on Windows only with a byte-order mark before it
# (without one, "Zoë" shows as "ZoÃ«"); a script may ask for plain UTF-8 (`?bom=0`).
BYTE_ORDER_MARK = "\ufeff"


def csv_bytes(text: str, *, plain: bool = False) -> bytes:
    """A CSV file's bytes: UTF-8 with a byte-order mark, or plain UTF-8."""
    return (text if plain else BYTE_ORDER_MARK + text).encode("utf-8")


def plain_csv_asked(query: Any) -> bool:
    """Whether a download's query asks for plain UTF-8 (`bom=0`)."""
    return query.get("bom") in ("0", "false", "no")
