"""Players' personal codes for a round: what they look like, how a typed one is read
back, and how many wrong ones a client may try.

A code is eight letters from an alphabet without look-alikes (no B, I, L, O, Q, S, U
or V), drawn with `secrets`: 18**8, about 11 billion codes, of which four open a given
table. It is printed as ABCD-EFGH and read back whatever the case, spaces or dashes.

Wrong codes are counted per client (its address) and per place they are tried at (a
table, or an event's find-your-table page) in the cache, which every web process shares
in production (Redis), so the limit holds however many processes serve the site (and
while Redis is down, in each process: `core.counters`): after
`TABLE_CODE_ATTEMPTS` wrong codes within `TABLE_CODE_WINDOW` seconds, every code from
that client at that place is refused until the window ends. Per place, because at a
venue every phone on its Wi-Fi shares one public address: a few typos at one table must
not stop every other table entering its hands. A guesser gains nothing from it: ten
tries at a table whose four codes are among 11 billion. Only typed codes are refused
so: a code the site signed for a browser once it was right (the entry page's cookie,
the API's pass) proves itself, and its phone keeps entering whatever guessers sharing
its address do (`core.table_entry.services.identify_player`).
"""

from __future__ import annotations

import re
import secrets
import time

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import npgettext

from core.common import client_address
from core.counters import counters
from core.errors import TooManyAttempts

ALPHABET = "ACDEFGHJKMNPRTWXYZ"
LENGTH = 8
FIELD = "code"
NOT_LETTERS = re.compile(r"[^A-Z]")
PREFIX = "kalooki:codes"


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: object) -> str:
    """A code as typed ("abcd efgh", "ABCD-EFGH") in its stored form ("ABCDEFGH")."""
    if not isinstance(text, str):
        return ""
    return NOT_LETTERS.sub("", text.upper())[: LENGTH * 2]


def shown(code: str) -> str:
    """How a code is printed and read out: two groups of four."""
    return f"{code[: LENGTH // 2]}-{code[LENGTH // 2 :]}" if len(code) == LENGTH else code


# --- wrong codes, counted per client ----------------------------------------------------


def client_of(request: HttpRequest) -> str:
    """Who is trying codes: the client's address (`client_address`, as the lockouts and
    the API's throttles read it, so a client cannot choose its own)."""
    return client_address(request) or "unknown"


def attempts_allowed() -> int:
    return settings.TABLE_CODE_ATTEMPTS


def window_seconds() -> int:
    return settings.TABLE_CODE_WINDOW


def _keys(client: str, place: str) -> tuple[str, str]:
    return f"{PREFIX}:wrong:{place}:{client}", f"{PREFIX}:since:{place}:{client}"


def check_allowed(client: str, place: str = "") -> None:
    """Refuse (429) a client that gave too many wrong codes at `place` lately."""
    count_key, since_key = _keys(client, place)
    found = counters.get_many([count_key, since_key])
    if found.get(count_key, 0) < attempts_allowed():
        return
    since = found.get(since_key) or time.time()
    wait = max(1, int(since + window_seconds() - time.time()))
    raise TooManyAttempts(
        _(
            "Too many wrong codes from your address here. Wait %(wait)s, then try again "
            "(or ask the director for your code)."
        )
        % {"wait": minutes(wait)},
        field=FIELD,
        retry_after=wait,
    )


def count_wrong(client: str, place: str = "") -> None:
    """One more wrong code from `client` at `place`; the window starts at its first one."""
    count_key, since_key = _keys(client, place)
    window = window_seconds()
    if counters.add(count_key, 0, window):
        counters.set(since_key, time.time(), window)
    try:
        counters.incr(count_key)
    except ValueError:  # the window ended between add and incr
        counters.add(count_key, 1, window)


def minutes(seconds: int) -> str:
    if seconds < 90:
        return npgettext("wait", "%(count)s seconds", "%(count)s seconds", seconds) % {
            "count": seconds
        }
    count = round(seconds / 60)
    return npgettext("wait", "%(count)s minutes", "%(count)s minutes", count) % {"count": count}
