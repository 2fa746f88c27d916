"""The table's entry page: the players at a table record their own hands (no login).

A player opens it with their code, typed or carried by the QR code on their player
slip; the code is then kept in a signed cookie scoped to that table's pages, so they
give it once. The page shows the table's sheet, the hands waiting for confirmation
(confirm or dispute is one tap and shows exactly what will be recorded) and a form to
enter a hand the way the director's sheet does, with the same messages (`core.
sheet_form`). Every action goes through `core.services`, which checks the code again:
the cookie grants nothing by itself, but a code read from it was right once for this
browser, so other phones' wrong codes from the same address never lock it out (only
typed codes are throttled). At a private event the code is the player's credential: it
opens their table's pages and nothing else, and to anyone without it the pages answer
as for an event that does not exist (a code form, 404). The sheet and the waiting
hands follow changes by themselves (htmx polls a small endpoint that answers 204 while
nothing changed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import selectors, services
from core.caching import stamps
from core.entries.selectors import event_namesakes
from core.errors import InvalidInput, Missing, ServiceError, with_retry_after
from core.hands.selectors import hands_of
from core.hands.sheet_form import PENALTY_LABELS, HandRowForm, RowProblem
from core.table_entry import codes
from core.table_entry.selectors import hand_lines, penalty_lines
from core.table_entry.settled import entries_now, open_or_lately
from game import rules
from public import live
from public.player_code import (
    COOKIE,
    cookie_code,
    kept_table,
    opened_by_code,
    remembered,
    signed_in,
    table_entry_url,
    table_of_code,
)
from public.table_entry_form import (
    ProposalForm,
    blank_form,
    form_from_proposal,
    form_mode,
    typed_form,
    with_slots,
    worded,
)
from tournaments.models import Event, Seat, Table

# --- finding the table and the player ---------------------------------------------------


def hidden_sign_in(
    request: HttpRequest, number: int, table: int, error: ServiceError | None = None
) -> HttpResponse:
    """The code form of a table at an event this reader may not see, or of no event at
    all: the same page for both (404 until a right code opens the table), naming
    nothing the address does not already say."""
    context = {
        "round_number": number,
        "table_number": table,
        "sign_in_error": first(error) if error is not None else "",
    }
    status = error.status_code if error is not None else 404
    response = render(request, "public/table_entry_code.html", context, status=status)
    if getattr(error, "retry_after", None):
        response["Retry-After"] = str(error.retry_after)
    return response


def event_shown(table: Table) -> bool:
    """Whether this reader may see the table's event (else only its code opened it)."""
    return not getattr(table, "opened_by_code", False)


def player(request: HttpRequest) -> dict[str, Any]:
    """The code and client every player's action is checked with: the code this
    browser keeps, signed by the site when it was right (`proven`)."""
    return {"code": cookie_code(request), "client": codes.client_of(request), "proven": True}


def first(error: ServiceError) -> str:
    return next(msg for msgs in error.errors.values() for msg in msgs)


def read_only_reason(table: Table) -> str:
    """Why this table's hands cannot change now, in the service's words ("": they can)."""
    try:
        services.check_table_open(table)
    except ServiceError as error:
        return first(error)
    return ""


def check_hand(table: Table, hand: int) -> None:
    if not table.round.event.rules.has_hand(hand):
        raise Http404("No such hand.")


# --- the page ---------------------------------------------------------------------------


def region_context(
    request: HttpRequest,
    table: Table,
    seat: Seat | None,
    *,
    seats: list[Seat] | None = None,
    signature: str | None = None,
) -> dict[str, Any]:
    """What the live region shows: 2 queries given the table's `seats` (each with its
    entry and player), 3 without; 2 more once hands are recorded (their scores and
    penalties), 1 more while the event's namesakes are not kept. The hands and entries
    (all but the seats and the namesakes) are read once per change of the table for
    all its phones (`stamps.table_rows`). `signature`: the table's, when the caller
    read it already; it is read before anything the region shows, so a change made
    meanwhile changes the next poll's."""
    event = table.round.event
    signature = signature or stamps.table_signature(table)
    if seats is None:
        seats = selectors.seats_and_coded(table, "")[0]
    attempts, found = stamps.table_rows(
        table, signature, lambda: (hands_of([table]), open_or_lately(table))
    )
    sheet = selectors.table_sheet(table, seats, event_namesakes(event), attempts)
    proposals, settled = entries_now(table, seats, attempts, found=found)
    waiting = list(proposals.values())
    names = {s.seat: s.shown for s in sheet.seats}
    return {
        "event": event,
        "table": table,
        "round": table.round,
        "seat": seat,
        "sheet": sheet,
        "names": names,
        "waiting": waiting,
        "settled": settled,
        "players_enter": event.table_entry == Event.TableEntry.PLAYERS,
        "event_shown": event_shown(table),
        "why_read_only": read_only_reason(table),
        "entry_url": table_entry_url(table),
        "poll_url": f"{table_entry_url(table)}live/?s={signature}",
        # The push server tells the page when the table changes (public/push.py): it
        # then polls once rather than every few seconds.
        "push_url": settings.LIVE_PUSH and f"{table_entry_url(table)}live/push/?s={signature}",
        "poll_seconds": settings.ENTRY_POLL_SECONDS,
    }


def choose_hand(table: Table, requested: int | None, region: dict[str, Any]) -> int | None:
    """The hand the form offers: the one asked for, else the first neither recorded nor
    waiting (then the first not recorded)."""
    sheet, waiting = region["sheet"], {p.number for p in region["waiting"]}
    open_rows = [row.number for row in sheet.rows if row.state != "scored"]
    if requested is not None and table.round.event.rules.has_hand(requested):
        return requested
    return next((n for n in open_rows if n not in waiting), open_rows[0] if open_rows else None)


def render_page(
    request: HttpRequest,
    table: Table,
    seated: tuple[list[Seat], Seat | None],
    *,
    status: int = 200,
    hand: int | None = None,
    form: ProposalForm | None = None,
    problems: list[RowProblem] | None = None,
    sign_in_error: str = "",
) -> HttpResponse:
    """The page for the player of `seated` (the table's seats and theirs, as `remembered`
    reads them; no seat: the code form)."""
    seats, seat = seated
    context: dict[str, Any] = {
        "event": table.round.event,
        "table": table,
        "round": table.round,
        "seat": seat,
        "sign_in_error": sign_in_error,
        "problems": problems or [],
        "entry_url": table_entry_url(table),
        "event_shown": event_shown(table),
    }
    if seat is not None:
        region = region_context(request, table, seat, seats=seats)
        context.update(region)
        number = form.number if form is not None else choose_hand(table, hand, region)
        waiting = next((p for p in region["waiting"] if p.number == number), None)
        mode = form_mode(waiting, seat)
        if form is None and number is not None:
            form = blank_form(table, number, seats)
            if waiting is not None:
                mine = waiting.alternative_entry if mode == "my-version" else None
                form = form_from_proposal(form, mine or waiting.entry)
        context["form"] = with_slots(form) if form is not None else None
        context["form_waiting"] = waiting
        context["form_mode"] = mode
        context["recorded"] = recorded_row(region["sheet"], number)
        context["hands"] = [row for row in region["sheet"].rows if row.state != "scored"]
        ruleset = table.round.event.rules
        kinds = [rules.OVERCALL, rules.FALSE_LAYDOWN]
        if ruleset.challenge_allowed:
            kinds.append(rules.CHALLENGE)
        context["penalty_kinds"] = [(kind, PENALTY_LABELS[kind]) for kind in kinds]
        context["down_and_out_allowed"] = table.round.event.table_rules.doubles(ruleset)
    return render(request, "public/table_entry.html", context, status=status)


def recorded_row(sheet, number: int | None) -> dict[str, Any] | None:
    """Hand `number` as recorded, when it is (a player's entry for it is refused)."""
    if number is None:
        return None
    row = sheet.row(number)
    if row.state != "scored":
        return None
    names = {s.seat: s.shown for s in sheet.seats}
    return {
        "number": number,
        "hand": row.hand,
        "lines": hand_lines(row.hand, names),
        "penalties": penalty_lines(row.hand),
    }


def refused(
    request: HttpRequest,
    table: Table,
    hand: int,
    error: ServiceError,
    typed: HandRowForm | None = None,
) -> HttpResponse:
    """A refused action: the page again with the reason in the sheet's words, and a
    typed hand as it was typed (nothing is lost)."""
    problems = worded(error, typed)
    seated = remembered(request, table)
    if typed is not None:
        form = typed_form(blank_form(table, hand, seated[0] or None), typed, problems)
        page = render_page(request, table, seated, status=error.status_code, form=form)
    else:
        page = render_page(
            request, table, seated, status=error.status_code, hand=hand, problems=problems
        )
    return with_retry_after(page, error)


@require_http_methods(["GET", "POST"])
@never_cache
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """GET: the page (the code form until the player gives theirs; `?code=` from the QR
    code gives it). POST: the player gives their code."""
    typed = request.POST.get("code") if request.method == "POST" else request.GET.get("code")
    try:
        # As a page load takes it (`table_of_code`): no query while the event is cached
        # at the announced versions; every proposal and confirmation brings its phone
        # back here.
        event = live.lookup(request.user, slug)[0]
    except Missing:
        return hidden_table_page(request, slug, number, table, typed)
    found = kept_table(request, event, number, table)
    if typed is not None:
        try:
            services.identify_player(table=found, code=typed, client=codes.client_of(request))
        except ServiceError as error:
            page = render_page(
                request, found, ([], None), status=error.status_code, sign_in_error=first(error)
            )
            return with_retry_after(page, error)
        return signed_in(redirect(table_entry_url(found)), found, typed)
    hand = request.GET.get("hand", "")
    chosen = int(hand) if hand.isascii() and hand.isdigit() and len(hand) < 3 else None
    return render_page(request, found, remembered(request, found), hand=chosen)


def hidden_table_page(
    request: HttpRequest, slug: str, number: int, table: int, typed: str | None
) -> HttpResponse:
    """`table_page` at an event this reader may not see: the code form until a right
    code (typed, or kept by this browser) opens the table."""
    try:
        if typed is not None:
            found = opened_by_code(request, slug, number, table, typed, proven=False)
            return signed_in(redirect(table_entry_url(found)), found, typed)
        found = opened_by_code(request, slug, number, table, cookie_code(request), proven=True)
    except ServiceError as error:
        return hidden_sign_in(request, number, table, None if isinstance(error, Missing) else error)
    hand = request.GET.get("hand", "")
    chosen = int(hand) if hand.isascii() and hand.isdigit() and len(hand) < 3 else None
    return render_page(request, found, remembered(request, found), hand=chosen)


@require_safe
@never_cache
def table_live(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The live region again, or 204 while nothing it shows changed."""
    shown = request.GET.get("s", "")
    cached = stamps.table_signature_cached(slug, number, table)
    if shown and shown == cached:
        return HttpResponse(status=204)
    try:
        found = table_of_code(request, slug, number, table)
    except Missing:
        if not cookie_code(request):
            raise
        return refresh()  # a private event's table this browser's code no longer opens
    # Read before anything the region shows (the one read first, where the cache had it).
    signature = stamps.table_signature(found, cached)
    if shown == signature:
        return HttpResponse(status=204)
    code = codes.normalize(cookie_code(request))
    seats, seat = selectors.seats_and_coded(found, code)
    if seat is None:  # the code is no longer good here: the page asks for it again
        return refresh()
    context = {
        **region_context(request, found, seat, seats=seats, signature=signature),
        "oob": True,
    }
    html = render_to_string("public/_table_entry_region.html", context, request=request)
    html += render_to_string("public/_table_entry_sheet.html", context, request=request)
    return HttpResponse(html)


def refresh() -> HttpResponse:
    """The live region's answer when the page must load again (and ask for the code)."""
    response = HttpResponse(status=204)
    response["HX-Refresh"] = "true"
    return response


@require_POST
def propose(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    found = table_of_code(request, slug, number, table)
    check_hand(found, hand)
    typed = HandRowForm(request.POST, seats=selectors.playing_seats(found, hand))
    try:
        services.propose_hand(table=found, number=hand, entry=typed.entry(), **player(request))
    except ServiceError as error:
        seated = remembered(request, found)
        form = typed_form(blank_form(found, hand, seated[0] or None), typed, worded(error, typed))
        page = render_page(request, found, seated, status=error.status_code, form=form)
        return with_retry_after(page, error)
    messages.success(
        request,
        _("Hand %(hand)s is entered: another player at the table confirms it.") % {"hand": hand},
    )
    return redirect(table_entry_url(found) + "#waiting")


def shown_version(request: HttpRequest) -> int | None:
    """The entry the Confirm button was shown with (None from a page older than versions)."""
    raw = request.POST.get("version", "")
    if not raw:
        return None
    if raw.isascii() and raw.isdigit() and len(raw) < 10:
        return int(raw)
    raise InvalidInput(
        _("Reload the page: the entry shown is not one of this hand's."), field="version"
    )


@require_POST
def confirm(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    """Confirm records the entry the player was shown; if the table entered the hand
    again meanwhile, nothing is recorded (409) and the page shows the new entry."""
    found = table_of_code(request, slug, number, table)
    check_hand(found, hand)
    try:
        version = shown_version(request)
        services.confirm_proposal(table=found, number=hand, version=version, **player(request))
    except ServiceError as error:
        page = render_page(
            request,
            found,
            remembered(request, found),
            status=error.status_code,
            hand=hand,
            problems=worded(error, None),
        )
        return with_retry_after(page, error)
    messages.success(request, _("Hand %(hand)s is recorded.") % {"hand": hand})
    return redirect(table_entry_url(found) + "#sheet")


@require_POST
def dispute(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    """One tap: nothing recorded, the director decides. From the hand form ("dispute,
    with this version"), the player's own version goes with it; the player who disputed
    may give it, or change it, afterwards the same way ("send my version")."""
    found = table_of_code(request, slug, number, table)
    check_hand(found, hand)
    typed = None
    if request.POST.get("with_version"):
        typed = HandRowForm(request.POST, seats=selectors.playing_seats(found, hand))
    try:
        services.dispute_proposal(
            table=found, number=hand, entry=typed.entry() if typed else None, **player(request)
        )
    except ServiceError as error:
        return refused(request, found, hand, error, typed)
    if typed is not None:
        done = _("Hand %(hand)s is disputed, with your version: the director decides it.") % {
            "hand": hand
        }
    else:
        done = _(
            "Hand %(hand)s is disputed: nothing is recorded, and the director decides it. "
            "You may give the director your version of the hand."
        ) % {"hand": hand}
    messages.success(request, done)
    return redirect(table_entry_url(found) + "#waiting")


@require_POST
def leave(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Forget this browser's code for the table (a shared phone passes to another)."""
    found = table_of_code(request, slug, number, table)
    response = redirect(table_entry_url(found))
    response.delete_cookie(COOKIE, path=table_entry_url(found))
    return response


@require_http_methods(["GET", "POST"])
@never_cache
def find_table(request: HttpRequest, slug: str) -> HttpResponse:
    """A player types their code here to find their table (when they have no QR code).
    At an event this reader may not see, the same form names no event (404 until a
    right code finds the table), whether a private event or none has this slug."""
    try:
        event = selectors.public_event(request.user, slug)
    except Missing:
        return seat_by_code(
            request,
            None,
            lambda code, client: services.find_seat_at(slug=slug, code=code, client=client),
        )
    return seat_by_code(
        request,
        event,
        lambda code, client: services.find_seat(event=event, code=code, client=client),
    )


def seat_by_code(
    request: HttpRequest, event: Event | None, find: Callable[[str, str], Seat]
) -> HttpResponse:
    """The find-your-table form: a right code signs the phone in at its table; a wrong
    one is refused in the form's words (with Retry-After when throttled). With no event
    the reader may see, the page is a 404 until a code finds a table."""
    context: dict[str, Any] = {"event": event, "error": ""}
    if request.method != "POST":
        status = 404 if event is None else 200
        return render(request, "public/table_entry_find.html", context, status=status)
    code = request.POST.get("code", "")
    try:
        seat = find(code, codes.client_of(request))
    except ServiceError as error:
        context["error"] = first(error)
        page = render(request, "public/table_entry_find.html", context, status=error.status_code)
        return with_retry_after(page, error)
    if event is not None:
        seat.table.round.event = event
    return signed_in(redirect(table_entry_url(seat.table)), seat.table, code)
