"""The director's event-day toolkit pages: import players from CSV (upload, preview,
confirm or cancel), print a round's table cards, score sheets and player slips, print
the results, export CSV. Only the event's directors reach them; anyone else gets 404.

A pending import lives in the session (the file's text and a token) until the
director confirms or cancels it: nothing is written before the confirmation.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import importing, printing, selectors
from core.common import csv_bytes, plain_csv_asked
from core.entries.selectors import label_entries, namesakes_of
from core.errors import ServiceError
from core.site.selectors import site_url
from core.standings import exports
from director.common import director_event
from director.site import site_panel
from tournaments.models import Event, Round

SESSION_KEY = "toolkit-imports"
FILE_FIELD = "players"


paper = printing.requested_paper


def download(content: bytes | str, content_type: str, name: str, *, inline: bool) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{name}"'
    return response


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    rounds = selectors.rounds_of(event)
    return render(
        request,
        "toolkit/index.html",
        {
            "event": event,
            "rounds": rounds,
            "entries": selectors.entries_of(event, "active").count(),
            "entry_list": label_entries(
                selectors.entries_of(event, "active").order_by(
                    F("rating").desc(nulls_last=True), "seed_number", "player__name"
                ),
                namesakes_of(event),
            ),
            "site": site_panel(request),
        },
    )


# --- importing players ---------------------------------------------------------------


def pending(request: HttpRequest, event: Event) -> dict | None:
    return request.session.get(SESSION_KEY, {}).get(event.slug)


def set_pending(request: HttpRequest, event: Event, value: dict | None) -> None:
    imports = dict(request.session.get(SESSION_KEY, {}))
    if value is None:
        imports.pop(event.slug, None)
    else:
        imports[event.slug] = value
    request.session[SESSION_KEY] = imports


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    if request.method == "GET":
        return render(request, "toolkit/import_upload.html", {"event": event})
    upload = request.FILES.get(FILE_FIELD)
    if upload is None:
        return render(
            request,
            "toolkit/import_upload.html",
            {"event": event, "errors": [_("Choose a CSV file of players to upload.")]},
            status=400,
        )
    if upload.size > importing.MAX_BYTES:
        errors = [
            _("The file is larger than %(bytes)s bytes; split it.")
            % {"bytes": f"{importing.MAX_BYTES:,}"}
        ]
        return render(
            request, "toolkit/import_upload.html", {"event": event, "errors": errors}, status=400
        )
    data = upload.read()
    try:
        text, guessed = importing.decode_with_notice(data)
    except ServiceError as error:
        errors = [m for msgs in error.errors.values() for m in msgs]
        return render(
            request, "toolkit/import_upload.html", {"event": event, "errors": errors}, status=400
        )
    set_pending(
        request,
        event,
        {"token": secrets.token_urlsafe(16), "name": upload.name, "text": text, "guessed": guessed},
    )
    return redirect("toolkit-import-preview", slug=event.slug)


def choices_from(request: HttpRequest) -> dict[int, str | int]:
    """The director's choice for each duplicate row: fields named choice-<line>."""
    chosen: dict[int, str | int] = {}
    for key, value in request.POST.items():
        line = key.removeprefix("choice-")
        if line == key or not line.isdigit():
            continue
        try:
            chosen[int(line)] = importing.parse_choice(value)
        except ServiceError:
            continue
    return chosen


@login_required
@require_http_methods(["GET", "POST"])
def import_preview(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    waiting = pending(request, event)
    if waiting is None:
        messages.info(request, _("No import is waiting; upload a file of players."))
        return redirect("toolkit-import", slug=event.slug)
    data = waiting["text"].encode("utf-8")
    if request.method == "POST":
        if request.POST.get("token") != waiting["token"]:
            messages.error(request, _("That preview is out of date; check this one and confirm."))
            return redirect("toolkit-import-preview", slug=event.slug)
        if request.POST.get("action") == "cancel":
            set_pending(request, event, None)
            messages.info(request, _("Import cancelled: nothing was saved."))
            return redirect("toolkit-index", slug=event.slug)
        chosen = choices_from(request)
        try:
            result = importing.apply_import(event=event, data=data, choices=chosen, by=request.user)
        except ServiceError as error:
            preview = importing.build_preview(
                event=event, data=data, choices=chosen, viewer=request.user
            )
            problems = [m for msgs in error.errors.values() for m in msgs]
            return render(
                request,
                "toolkit/import_preview.html",
                {"event": event, "preview": preview, "waiting": waiting, "problems": problems},
                status=400,
            )
        set_pending(request, event, None)
        messages.success(
            request, _("Players imported: %(summary)s.") % {"summary": result.summary()}
        )
        return redirect("toolkit-index", slug=event.slug)
    preview = importing.preview_import(event=event, data=data, viewer=request.user)
    if waiting.get("guessed"):  # the file's encoding, guessed at upload
        preview.notices.insert(0, waiting["guessed"])
    return render(
        request,
        "toolkit/import_preview.html",
        {"event": event, "preview": preview, "waiting": waiting},
    )


# --- PDFs and CSV ---------------------------------------------------------------------


def printable_round(event: Event, number: int) -> Round:
    round_ = selectors.round_of(event, number)
    if round_.status == Round.Status.SEATING:
        raise Http404("This round is still being seated.")
    return round_


@login_required
def table_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = director_event(request, slug)
    round_ = printable_round(event, number)
    pdf = printing.table_cards_pdf(event=event, round_=round_, paper=paper(request))
    name = exports.filename(event, f"round-{number}-table-cards", "pdf")
    return download(pdf, "application/pdf", name, inline=True)


def round_pdf(request: HttpRequest, slug: str, number: int, build, name: str) -> HttpResponse:
    """A round's PDF whose QR codes lead to this site (the address the director uses)."""
    event = director_event(request, slug)
    round_ = printable_round(event, number)
    base_url = site_url(request.build_absolute_uri("/"))
    pdf = build(event=event, round_=round_, base_url=base_url, paper=paper(request))
    name = exports.filename(event, f"round-{number}-{name}", "pdf")
    return download(pdf, "application/pdf", name, inline=True)


@login_required
def find_your_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every seated player A to Z with table and seat, to pin up by the door."""
    event = director_event(request, slug)
    round_ = printable_round(event, number)
    pdf = printing.find_your_table_pdf(event=event, round_=round_, paper=paper(request))
    name = exports.filename(event, f"round-{number}-find-your-table", "pdf")
    return download(pdf, "application/pdf", name, inline=True)


@login_required
def score_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_pdf(request, slug, number, printing.score_sheets_pdf, "score-sheets")


@login_required
def player_slips(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One slip per seated player: name, table, seat, code, and a QR code to their
    table's entry page with the code filled in."""
    response = round_pdf(request, slug, number, printing.player_slips_pdf, "player-slips")
    response["Cache-Control"] = "private, no-store"  # the players' codes
    return response


@login_required
def results(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    pdf = printing.results_pdf(event=event, paper=paper(request))
    return download(pdf, "application/pdf", exports.filename(event, "results", "pdf"), inline=True)


@login_required
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    number = request.GET.get("round")
    if number is not None and not (number.isascii() and number.isdigit() and len(number) <= 4):
        raise Http404("No such round.")
    text = exports.standings_csv(event, int(number) if number else None)
    return csv_download(request, text, exports.filename(event, "standings", "csv"))


@login_required
def hands_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    return csv_download(request, exports.hands_csv(event), exports.filename(event, "hands", "csv"))


def csv_download(request: HttpRequest, text: str, name: str) -> HttpResponse:
    """A CSV file: with a byte-order mark for Excel, unless `?bom=0` asks for plain."""
    content = csv_bytes(text, plain=plain_csv_asked(request.GET))
    return download(content, "text/csv; charset=utf-8", name, inline=False)
