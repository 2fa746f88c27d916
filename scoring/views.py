"""The director's table sheet: a grid like the paper sheet, one form per hand row, saved
through HTMX (the row and the running totals change in place), and each hand's history.

Thin by design: `scoring.services.record_hand` judges every entry (through the rules
engine) and refuses a stale or locked write; this module only reads the sheet, hands
the typed row to the service, and shows the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from scoring import rules, selectors, services
from scoring.forms import (
    PENALTY_LABELS,
    HandRowForm,
    PenaltySlot,
    RowProblem,
    RowVerdict,
    director_problems,
)
from scoring.rulesets import get_ruleset
from tournaments.errors import InvalidInput, ServiceError, StaleVersion, StateConflict
from tournaments.models import Round, Table
from tournaments.views import director_table, is_htmx


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
        if self.verdict.saved:
            return "saved"
        return "recorded" if self.recorded else "open"


@dataclass
class Sheet:
    """Everything the sheet page shows, read in a fixed number of queries."""

    table: Table
    rows: list[HandRow]
    seats: list[dict[str, Any]]
    totals: list[dict[str, Any]]
    hands_needed: int
    hands_scored: int
    penalty_kinds: list[tuple[str, str]]
    down_and_out_allowed: bool
    table_count: int

    @property
    def event(self):
        return self.table.round.event

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def complete(self) -> bool:
        return self.hands_scored >= self.hands_needed

    @property
    def editable(self) -> bool:
        return self.round.status == Round.Status.PUBLISHED and not self.table.locked

    @property
    def why_read_only(self) -> str:
        if self.round.status == Round.Status.CLOSED:
            return f"Round {self.round.number} is closed: its hands can no longer change."
        if self.round.status != Round.Status.PUBLISHED:
            return f"Round {self.round.number} is not published yet: publish the seating first."
        if self.table.locked:
            return f"Table {self.table.number} is locked: unlock it to correct a hand."
        return ""

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
        names = {seat["seat"]: seat["name"] for seat in self.seats}
        totals = {t["seat"]: t["total"] for t in self.totals}
        result = rules.set_result(totals) if self.complete and totals else None
        return [
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "total": total,
                "place": result.place_of(seat) if result else None,
            }
            for seat, total in totals.items()
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


def score_note(result: dict[str, Any], down_and_out: bool, went_out: int | None) -> str:
    """How a seat's score was made: '82 pts ×2 +100 = 264' (points as typed: no note)."""
    parts = []
    if result["cards"]:
        parts.append(f"{result['card_points']} pts")
    if result["sat_out"]:
        parts.append("sat out")
    if down_and_out and result["seat"] != went_out:
        parts.append("×2")
    if result["penalty_points"]:
        parts.append(f"+{result['penalty_points']}")
    if parts and parts != [f"{result['card_points']} pts"]:
        parts.append(f"= {result['score']}")
    return " ".join(parts)


def penalty_default(kind: str, director_penalty: int) -> int:
    return rules.CHALLENGE_POINTS if kind == rules.CHALLENGE else director_penalty


def stored_penalties(document: dict[str, Any], director_penalty: int) -> list[PenaltySlot]:
    slots = []
    for i, penalty in enumerate(document["penalties"], start=1):
        kind, calls = penalty["kind"], penalty["extra_calls"]
        points = penalty["points"]
        slots.append(
            PenaltySlot(
                index=i,
                seat=str(penalty["seat"]),
                kind=kind,
                calls=str(calls) if calls and kind != rules.FALSE_LAYDOWN else "",
                points="" if points == penalty_default(kind, director_penalty) else str(points),
            )
        )
    return slots


def with_blank_slot(slots: list[PenaltySlot]) -> list[PenaltySlot]:
    """The row's penalty lines plus an empty one to charge another."""
    numbered = [replace(slot, index=i) for i, slot in enumerate(slots, start=1)]
    return [*numbered, PenaltySlot(index=len(numbered) + 1)]


def build_sheet(table: Table) -> Sheet:
    """The sheet as stored: every hand of the set, recorded or not, with running totals."""
    event = table.round.event
    ruleset = get_ruleset(event.ruleset)
    document = selectors.table_sheet(table)
    seats = document["seats"]
    by_number = {hand["number"]: hand for hand in document["hands"]}
    rows = []
    running: dict[int, int] | None = None
    for spec in ruleset.hands:
        hand = by_number.get(spec.number)
        row = HandRow(number=spec.number, contract=spec.contract, cards_dealt=spec.cards_dealt)
        results: dict[int, dict[str, Any]] = {}
        if hand is not None:
            row.contract, row.cards_dealt = hand["contract"], hand["cards_dealt"]
            row.version, row.outcome, row.deals = hand["version"], hand["outcome"], hand["deals"]
            if hand["outcome"] == "scored":
                row.went_out = str(hand["went_out"])
                row.down_and_out = hand["down_and_out"]
                results = {r["seat"]: r for r in hand["results"]}
                running = hand["totals"]
                row.penalties = stored_penalties(hand, event.director_penalty)
        for seat in seats:
            left = seat["left_after_hand"]
            cell = SeatCell(
                position=seat["seat"],
                name=seat["name"],
                playing=left is None or spec.number <= left,
            )
            result = results.get(seat["seat"])
            if result is not None:
                cell.value = result["cards"] or str(result["card_points"])
                cell.score = result["score"]
                cell.note = score_note(result, row.down_and_out, hand and hand["went_out"])
            if row.recorded and running is not None:
                cell.running = running.get(seat["seat"])
            row.cells.append(cell)
        row.penalties = with_blank_slot(row.penalties)
        rows.append(row)
    kinds = [rules.OVERCALL, rules.FALSE_LAYDOWN]
    if ruleset.challenge_allowed:
        kinds.append(rules.CHALLENGE)
    return Sheet(
        table=table,
        rows=rows,
        seats=seats,
        totals=document["totals"],
        hands_needed=document["hands_needed"],
        hands_scored=document["hands_scored"],
        penalty_kinds=[(kind, PENALTY_LABELS[kind]) for kind in kinds],
        down_and_out_allowed=ruleset.down_and_out_allowed,
        table_count=Table.objects.filter(round_id=table.round_id).count(),
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
    return render(request, "director/sheet.html", page_context(sheet))


def refused(error: ServiceError, form: HandRowForm, table: Table, number: int) -> RowVerdict:
    if isinstance(error, StaleVersion):
        now = selectors.hand_version(table, number)
        text = (
            f"Someone else saved this hand meanwhile (now version {now}); your change was "
            "not saved. Show the saved hand, then enter your change again."
        )
        return RowVerdict(problems=[RowProblem(text, "version")], stale=True)
    if isinstance(error, StateConflict):
        return RowVerdict(
            problems=[RowProblem(msg, key) for key, msgs in error.errors.items() for msg in msgs]
        )
    return RowVerdict(problems=director_problems(error.errors, went_out=form.went_out_seat))


@login_required
@require_http_methods(["GET", "POST"])
def hand_row(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    """GET: the row as stored (after a refused stale edit). POST: save the row."""
    found = director_table(request, slug, number, table)
    if not get_ruleset(found.round.event.ruleset).has_hand(hand):
        raise Http404("No such hand.")
    if request.method == "GET":
        if not is_htmx(request):
            return redirect(f"{sheet_url(found)}#hand-{hand}")
        sheet = build_sheet(found)
        context = {**sheet_context(sheet), "row": sheet.row(hand)}
        return render(request, "director/_hand_row.html", context)

    form = HandRowForm(request.POST, seats=selectors.playing_seats(found, hand))
    try:
        services.record_hand(
            table=found,
            number=hand,
            entry=form.entry(),
            by=request.user,
            expected_version=form.version,
        )
    except (InvalidInput, StaleVersion, StateConflict) as error:
        sheet = build_sheet(found)
        row = sheet.row(hand)
        failed = typed_row(row, form, refused(error, form, found, hand))
        if is_htmx(request):
            context = {**sheet_context(sheet), "row": failed}
            return render(request, "director/_hand_row.html", context, status=error.status_code)
        sheet.rows[sheet.rows.index(row)] = failed
        return render(
            request, "director/sheet.html", sheet_context(sheet), status=error.status_code
        )

    if not is_htmx(request):
        messages.success(request, f"Hand {hand} saved.")
        return redirect(f"{sheet_url(found)}#hand-{hand}")
    sheet = build_sheet(found)
    saved = sheet.row(hand)
    saved.verdict = RowVerdict(saved=True)
    context = {**sheet_context(sheet), "row": saved}
    return render(request, "director/_hand_saved.html", context)


@login_required
@require_POST
def delete_hand(request: HttpRequest, slug: str, number: int, table: int, hand: int):
    found = director_table(request, slug, number, table)
    version = HandRowForm.read_version(request.POST.get("version", ""))
    try:
        removed = services.delete_hand(
            table=found, number=hand, by=request.user, expected_version=version
        )
    except (StaleVersion, StateConflict) as error:
        for text in (msg for msgs in error.errors.values() for msg in msgs):
            messages.error(request, text)
        return redirect("director:hand-history", slug, number, table, hand)
    if removed:
        messages.success(request, f"Hand {hand} deleted; its history is kept.")
    return redirect(f"{sheet_url(found)}#hand-{hand}")


@login_required
def hand_history(request: HttpRequest, slug: str, number: int, table: int, hand: int):
    found = director_table(request, slug, number, table)
    ruleset = get_ruleset(found.round.event.ruleset)
    if not ruleset.has_hand(hand):
        raise Http404("No such hand.")
    context = {
        "event": found.round.event,
        "round": found.round,
        "table": found,
        "number": hand,
        "spec": ruleset.hand(hand),
        "entries": selectors.hand_history(found, hand),
        "version": selectors.hand_version(found, hand),
        "editable": found.round.status == Round.Status.PUBLISHED and not found.locked,
    }
    return render(request, "director/hand_history.html", context)
