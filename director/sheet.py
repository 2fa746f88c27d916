"""The director's table sheet: a grid like the paper sheet, one form per hand row, saved
through HTMX (the row and the running totals change in place), and each hand's history.

Thin by design: `core.services.record_hand` judges every entry (through the rules
engine) and refuses a stale or locked write; this module only reads the sheet, hands
the typed row to the service, and shows the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core import selectors, services
from core.errors import (
    Busy,
    HandRejected,
    InvalidInput,
    ServiceError,
    StaleVersion,
    StateConflict,
    with_retry_after,
)
from core.hands.services import CORRECTION_REASON_MAX
from core.hands.sheet_form import (
    PENALTY_LABELS,
    HandRowForm,
    PenaltySlot,
    RowProblem,
    RowVerdict,
    service_problems,
    sheet_problem,
)
from core.selectors import TableSheet
from core.table_entry.decide import record_proposal
from director.common import director_table, is_htmx, read_only_reason
from director.table_entry import sheet_panel
from game import rules
from tournaments.models import Round, Table


@dataclass
class SeatCell:
    position: int
    name: str
    playing: bool  # False once the player has left the table (withdrew mid-round)
    value: str = ""  # what the box shows: the points or the cards
    note: str = ""  # how the score was made, when it is not just the points typed
    score: int | None = None
    running: int | None = None  # the seat's total after this hand
    invalid: bool = False


@dataclass
class HandRow:
    number: int
    contract: str
    cards_dealt: int
    version: int = 0
    outcome: str | None = None  # None: not recorded yet
    deals: int = 0
    went_out: str = ""
    down_and_out: bool = False
    redeal: bool = False
    cells: list[SeatCell] = field(default_factory=list)
    penalties: list[PenaltySlot] = field(default_factory=list)
    verdict: RowVerdict = field(default_factory=RowVerdict)
    typed: bool = False  # shows what the director typed, not what is stored
    reason: str = ""  # the reason typed for a correction (kept when the save is refused)

    @property
    def recorded(self) -> bool:
        return self.outcome == "scored"

    @property
    def redealt(self) -> int:
        """How many deals of this hand were void (the stock ran out twice)."""
        return self.deals - 1 if self.outcome == "scored" else self.deals

    @property
    def playing(self) -> list[SeatCell]:
        return [cell for cell in self.cells if cell.playing]

    @property
    def state(self) -> str:
        if self.verdict.stale:
            return "stale"
        if self.verdict.problems:
            return "error"
        if self.verdict.saved and self.outcome == "redeal":
            # The deal was void: the hand is dealt again and still needs its scores,
            # so the row stays open for them (the cursor stays on it).
            return "redealt"
        if self.verdict.saved:
            return "saved"
        return "recorded" if self.recorded else "open"


@dataclass
class Sheet:
    """Everything the sheet page shows, read in a fixed number of queries."""

    stored: TableSheet
    rows: list[HandRow]
    penalty_kinds: list[tuple[str, str]]
    down_and_out_allowed: bool
    why_read_only: str  # the service's reason this table takes no writes ("": it does)

    @cached_property
    def table_count(self) -> int:
        """How many tables the round has (the whole page links to the next one; a row
        saved and shown again does not need it)."""
        return selectors.table_count(self.table.round)

    @property
    def table(self) -> Table:
        return self.stored.table

    @property
    def event(self):
        return self.table.round.event

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def seats(self):
        return self.stored.seats

    @property
    def hands_needed(self) -> int:
        return self.stored.hands_needed

    @property
    def hands_scored(self) -> int:
        return self.stored.hands_scored

    @property
    def complete(self) -> bool:
        return self.hands_scored >= self.hands_needed

    @property
    def editable(self) -> bool:
        return not self.why_read_only

    @property
    def reason_max(self) -> int:
        """The longest reason a correction may carry (the history keeps that much)."""
        return CORRECTION_REASON_MAX

    @property
    def columns(self) -> int:
        """Cells in a hand row, for the messages row that spans it."""
        return len(self.seats) + (6 if self.down_and_out_allowed else 5)

    @property
    def rest_columns(self) -> int:
        """Cells after the seats' columns: went out, (down and out), redeal, penalty, save."""
        return self.columns - 1 - len(self.seats)

    @property
    def total_cells(self) -> list[dict[str, Any]]:
        """Each seat's set total; with the set complete, its place (lowest total wins)."""
        return [
            {
                "seat": seat.seat,
                "name": seat.shown,
                "total": total,
                "place": place if self.complete else None,
            }
            for seat, total, place in self.stored.totals_row
        ]

    @property
    def first_open(self) -> int | None:
        """The first hand still to enter: where the cursor starts."""
        return next((row.number for row in self.rows if not row.recorded), None)

    def row(self, number: int) -> HandRow:
        for row in self.rows:
            if row.number == number:
                return row
        raise Http404("No such hand.")


def score_note(result: selectors.HandView, seat_result, down_and_out: bool) -> str:
    """How a seat's score was made: '82 pts ×2 +100 = 264' (points as typed: no note)."""
    parts = []
    points = _("%(points)s pts") % {"points": seat_result.card_points}
    if seat_result.cards:
        parts.append(points)
    if seat_result.sat_out:
        parts.append(_("sat out"))
    if down_and_out and seat_result.seat != result.went_out:
        parts.append("×2")
    if seat_result.penalty_points:
        parts.append(f"+{seat_result.penalty_points}")
    if parts and parts != [points]:
        parts.append(f"= {seat_result.score}")
    return " ".join(parts)


def stored_penalties(hand: selectors.HandView, table_rules: rules.TableRules) -> list[PenaltySlot]:
    slots = []
    for i, penalty in enumerate(hand.penalties, start=1):
        kind, calls, points = penalty.kind, penalty.extra_calls, penalty.points
        default = rules.default_penalty_points(kind, table_rules)
        slots.append(
            PenaltySlot(
                index=i,
                seat=str(penalty.seat),
                kind=kind,
                calls=str(calls) if calls and kind != rules.FALSE_LAYDOWN else "",
                points="" if points == default else str(points),
            )
        )
    return slots


def with_blank_slot(slots: list[PenaltySlot]) -> list[PenaltySlot]:
    """The row's penalty lines plus an empty one to charge another."""
    numbered = [replace(slot, index=i) for i, slot in enumerate(slots, start=1)]
    return [*numbered, PenaltySlot(index=len(numbered) + 1)]


def hand_row(stored: selectors.TableSheet, row, table_rules: rules.TableRules) -> HandRow:
    """One row of the sheet as stored."""
    hand = row.hand
    out = HandRow(number=row.number, contract=row.contract, cards_dealt=row.cards_dealt)
    if hand is not None:
        out.version, out.outcome, out.deals = hand.version, hand.outcome, hand.deals
        if hand.scored:
            out.went_out = str(hand.went_out)
            out.down_and_out = hand.down_and_out
            out.penalties = stored_penalties(hand, table_rules)
    for seat in stored.seats:
        cell = SeatCell(position=seat.seat, name=seat.shown, playing=seat.plays(row.number))
        result = hand.result_for(seat.seat) if hand is not None and hand.scored else None
        if result is not None:
            cell.value = result.cards or str(result.card_points)
            cell.score = result.score
            cell.note = score_note(hand, result, out.down_and_out)
        if out.recorded:
            cell.running = hand.totals.get(seat.seat)
        out.cells.append(cell)
    out.penalties = with_blank_slot(out.penalties)
    return out


def build_sheet(table: Table, seats=None, names: dict[int, str] | None = None, hands=None) -> Sheet:
    """The sheet as stored: every hand of the set, recorded or not, with running totals
    (`seats` and `hands`: the table's seats and every attempt at it, when a save has
    just read and written them; `names`: the event's namesakes, read when not given)."""
    event = table.round.event
    ruleset = event.rules
    stored = selectors.table_sheet(table, seats, names, hands)
    kinds = [rules.OVERCALL, rules.FALSE_LAYDOWN]
    if ruleset.challenge_allowed:
        kinds.append(rules.CHALLENGE)
    return Sheet(
        stored=stored,
        rows=[hand_row(stored, row, event.table_rules) for row in stored.rows],
        penalty_kinds=[(kind, PENALTY_LABELS[kind]) for kind in kinds],
        down_and_out_allowed=event.table_rules.doubles(ruleset),
        why_read_only=read_only_reason(table),
    )


def typed_row(stored: HandRow, form: HandRowForm, verdict: RowVerdict) -> HandRow:
    """The row as the director typed it, with what is wrong marked: nothing is lost."""
    bad_seats = verdict.seats_for("scores")
    bad_penalty_seats = verdict.seats_for("penalties")
    cells = [
        replace(
            cell,
            value=form.values.get(cell.position, ""),
            note="",
            score=None,
            invalid=cell.position in bad_seats,
        )
        for cell in stored.cells
    ]
    penalties = [
        replace(slot, invalid=slot.seat in {str(s) for s in bad_penalty_seats} or not slot.seat)
        if "penalties" in verdict.fields
        else slot
        for slot in form.penalties
    ]
    return replace(
        stored,
        # The version the director edited, so that saving again is judged against it.
        version=form.version if form.version is not None else stored.version,
        went_out=form.went_out,
        down_and_out=form.down_and_out,
        redeal=form.redeal,
        cells=cells,
        penalties=with_blank_slot(penalties),
        verdict=verdict,
        typed=True,
        reason=form.reason,
    )


def sheet_url(table: Table) -> str:
    return reverse(
        "director:sheet",
        args=[table.round.event.slug, table.round.number, table.number],
    )


def sheet_context(sheet: Sheet) -> dict[str, Any]:
    return {"sheet": sheet, "event": sheet.event, "round": sheet.round, "table": sheet.table}


def page_context(sheet: Sheet) -> dict[str, Any]:
    """The whole page: the cursor starts on the first hand still to enter."""
    return {**sheet_context(sheet), "focus_hand": sheet.first_open}


@login_required
def table_sheet(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    sheet = build_sheet(director_table(request, slug, number, table))
    context = {**page_context(sheet), **sheet_panel(sheet.table)}
    return render(request, "director/sheet.html", context)


def refused(error: ServiceError, form: HandRowForm, table: Table, number: int) -> RowVerdict:
    if isinstance(error, StaleVersion):
        now = selectors.hand_version(table, number)
        text = _(
            "Someone else saved this hand meanwhile (now version %(version)s); your change was "
            "not saved. Show the saved hand, then enter your change again."
        ) % {"version": now}
        return RowVerdict(problems=[RowProblem(text, "version")], stale=True)
    if isinstance(error, HandRejected):
        went_out = form.went_out_seat
        return RowVerdict(problems=[sheet_problem(p, went_out) for p in error.problems])
    return RowVerdict(problems=service_problems(error.errors))


def check_hand_number(table: Table, hand: int) -> None:
    """A hand the event's set does not have is a 404 (the row has no page)."""
    if not table.round.event.rules.has_hand(hand):
        raise Http404("No such hand.")


@login_required
@require_http_methods(["GET", "POST"])
def hand_row_view(
    request: HttpRequest, slug: str, number: int, table: int, hand: int
) -> HttpResponse:
    """GET: the row as stored (after a refused stale edit). POST: save the row."""
    found = director_table(request, slug, number, table)
    check_hand_number(found, hand)
    if request.method == "GET":
        if not is_htmx(request):
            return redirect(f"{sheet_url(found)}#hand-{hand}")
        sheet = build_sheet(found)
        context = {**sheet_context(sheet), "row": sheet.row(hand)}
        return render(request, "director/_hand_row.html", context)

    # The row's boxes are read with the seats the save reads under the table's lock.
    form = HandRowForm(request.POST)
    try:
        recorded = services.record_hand(
            table=found,
            number=hand,
            entry=form.entry_at,
            by=request.user,
            expected_version=form.version,
            reason=services.correction_reason(form.reason),
        )
    except (InvalidInput, StaleVersion, StateConflict, Busy) as error:
        if not form.seated:  # refused before the save read the seats
            form.seat(selectors.playing_seats(found, hand))
        sheet = build_sheet(found)
        row = sheet.row(hand)
        failed = typed_row(row, form, refused(error, form, found, hand))
        if is_htmx(request):
            context = {**sheet_context(sheet), "row": failed}
            response = render(request, "director/_hand_row.html", context, status=error.status_code)
            return with_retry_after(response, error)
        sheet.rows[sheet.rows.index(row)] = failed
        context = {**sheet_context(sheet), **sheet_panel(found)}
        response = render(request, "director/sheet.html", context, status=error.status_code)
        return with_retry_after(response, error)

    if not is_htmx(request):
        messages.success(request, _("Hand %(hand)s saved.") % {"hand": hand})
        return redirect(f"{sheet_url(found)}#hand-{hand}")
    # The saved row is drawn again, and the others' running totals, from the seats and
    # the hands as the save read and wrote them: no query. It names its seats as they
    # are (their numbers tell two namesakes at one table apart).
    sheet = build_sheet(found, recorded.seats or None, names={}, hands=recorded.hands or None)
    saved = sheet.row(hand)
    saved.verdict = RowVerdict(saved=True)
    context = {**sheet_context(sheet), "row": saved}
    return render(request, "director/_hand_saved.html", context)


@login_required
@require_POST
def record_players_version(
    request: HttpRequest, slug: str, number: int, table: int, hand: int
) -> HttpResponse:
    """The panel's "Record this version": one of the players' versions of the hand as it
    stands, through the service the sheet's rows use. Refused (the hand recorded
    meanwhile, entered again), the sheet shows why in the panel; nothing is written."""
    found = director_table(request, slug, number, table)
    check_hand_number(found, hand)
    disputed = request.POST.get("which") == "disputed"
    try:
        entry = request.POST.get("entry", "")
        if not (entry.isascii() and entry.isdigit() and len(entry) < 10):
            raise InvalidInput(_("Reload the sheet: that entry is not one of this hand's."))
        record_proposal(
            table=found, number=hand, version=int(entry), disputed=disputed, by=request.user
        )
    except ServiceError as error:
        problem = next(msg for msgs in error.errors.values() for msg in msgs)
        context = {**page_context(build_sheet(found)), **sheet_panel(found, problem=problem)}
        response = render(request, "director/sheet.html", context, status=error.status_code)
        return with_retry_after(response, error)
    if disputed:
        done = _(
            "Hand %(hand)s recorded: the disputing player's version. The players' entries are "
            "settled."
        )
    else:
        done = _(
            "Hand %(hand)s recorded: the version as entered. The players' entries are settled."
        )
    messages.success(request, done % {"hand": hand})
    return redirect(f"{sheet_url(found)}#hand-{hand}")


@login_required
@require_POST
def delete_hand(request: HttpRequest, slug: str, number: int, table: int, hand: int):
    found = director_table(request, slug, number, table)
    version = HandRowForm.read_version(request.POST.get("version", ""))
    try:
        removed = services.delete_hand(
            table=found, number=hand, by=request.user, expected_version=version
        )
    except (StaleVersion, StateConflict, Busy) as error:
        for text in (msg for msgs in error.errors.values() for msg in msgs):
            messages.error(request, text)
        return redirect("director:hand-history", slug, number, table, hand)
    if removed:
        messages.success(request, _("Hand %(hand)s deleted; its history is kept.") % {"hand": hand})
    return redirect(f"{sheet_url(found)}#hand-{hand}")


@login_required
def hand_history(request: HttpRequest, slug: str, number: int, table: int, hand: int):
    found = director_table(request, slug, number, table)
    check_hand_number(found, hand)
    context = {
        "event": found.round.event,
        "round": found.round,
        "table": found,
        "number": hand,
        "spec": found.round.event.rules.hand(hand),
        "entries": selectors.hand_history(found, hand),
        "version": selectors.hand_version(found, hand),
        "editable": not read_only_reason(found),
        "proposals": selectors.proposal_history(found, hand),
    }
    return render(request, "director/hand_history.html", context)
