"""A player's code on the table's entry pages: the table it opens (at an event this
reader may not see too), and the signed cookie that keeps it for that table's pages
only, so a player gives it once."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from core import selectors, services
from core.errors import Missing, ServiceError
from core.table_entry import codes
from public import live
from tournaments.models import Seat, Table

COOKIE = "kalooki_player_code"
SALT = "kalooki.player-code"
COOKIE_AGE = 24 * 60 * 60


def table_of_code(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """A table of a public round (404 otherwise, as on the public pages); at an event
    this reader may not see (a private one), the table whose player's code this browser
    keeps (`core.services.open_table`: 404 without it)."""
    try:
        # As a page load takes it: no query while the event is cached at the announced
        # versions (each phone's request asked the database for it: a sixth of the
        # players' entry's CPU under a national championship's load, bench/national.py).
        event = live.lookup(request.user, slug)[0]
    except Missing:
        try:
            return opened_by_code(request, slug, number, table, cookie_code(request), proven=True)
        except ServiceError as error:  # a code no longer good here opens nothing
            raise Missing("No such event.") from error
    return kept_table(request, event, number, table)


def kept_table(request: HttpRequest, event, number: int, table: int) -> Table:
    """The table of a public round of `event`, the event as a page load takes it
    (`live.lookup`, kept until its versions move); a round published since it was kept
    (every player scanning the new table's code at once) is found with the event read
    afresh."""
    try:
        return selectors.public_table(event, number, table)
    except Missing:
        fresh = selectors.public_event(request.user, event.slug)
        return selectors.public_table(fresh, number, table)


def opened_by_code(
    request: HttpRequest, slug: str, number: int, table: int, code: str, *, proven: bool
) -> Table:
    found = services.open_table(
        slug=slug,
        round_number=number,
        table_number=table,
        code=code,
        client=codes.client_of(request),
        proven=proven,
    )
    found.opened_by_code = True  # the event is not this reader's to see: link nowhere
    return found


def table_entry_url(table: Table) -> str:
    round_ = table.round
    return reverse("public-table-entry", args=[round_.event.slug, round_.number, table.number])


def cookie_code(request: HttpRequest) -> str:
    return request.get_signed_cookie(COOKIE, default="", salt=SALT)


def remembered(request: HttpRequest, table: Table) -> tuple[list[Seat], Seat | None]:
    """The seats of `table` (each with its entry and player) and among them the seat of
    the player whose code this browser gave for it, if still good: one query, none
    (no seats, no seat) when this browser gave no code."""
    code = codes.normalize(cookie_code(request))
    return selectors.seats_and_coded(table, code) if code else ([], None)


def signed_in(response: HttpResponse, table: Table, code: str) -> HttpResponse:
    """Keep the player's code for the table's entry pages only."""
    response.set_signed_cookie(
        COOKIE,
        codes.normalize(code),
        salt=SALT,
        max_age=COOKIE_AGE,
        path=table_entry_url(table),
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
