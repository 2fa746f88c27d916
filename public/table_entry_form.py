"""The hand form of the players' entry page: the boxes of the seats that play the hand,
who went out, down and out, redeal, penalties, read with the director's sheet's form
(`core.hands.sheet_form.HandRowForm`) and refused in its words; and what the form offers
for a hand the players entered already (`form_mode`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core import selectors
from core.errors import HandRejected, ServiceError
from core.hands.sheet_form import (
    HandRowForm,
    PenaltySlot,
    RowProblem,
    row_fields,
    service_problems,
    sheet_problem,
)
from core.table_entry.selectors import ProposalView
from scoring.models import Proposal
from tournaments.models import Seat, Table

BLANK_PENALTIES = 2


@dataclass
class SeatBox:
    seat: int
    name: str
    value: str = ""
    invalid: bool = False


@dataclass
class ProposalForm:
    """A hand as the player types it: the boxes of the seats that play it, who went
    out, down and out, redeal, penalties; with what is wrong, after a refusal."""

    number: int
    contract: str
    cards_dealt: int
    boxes: list[SeatBox]
    went_out: str = ""
    down_and_out: bool = False
    redeal: bool = False
    penalties: list[PenaltySlot] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)

    @property
    def fields(self) -> set[str]:
        return {p.field for p in self.problems}


def blank_form(table: Table, hand: int, seats: list[Seat] | None = None) -> ProposalForm:
    """Hand `hand`'s empty form at `table`, given its `seats` (each with its entry and
    player) or reading them (one query)."""
    spec = table.round.event.rules.hand(hand)
    if seats is None:
        seats = selectors.seats_and_coded(table, "")[0]
    boxes = [
        SeatBox(seat.position, seat.entry.player.name) for seat in seats if seat.plays_hand(hand)
    ]
    return ProposalForm(hand, spec.contract, spec.cards_dealt, sorted(boxes, key=lambda b: b.seat))


def with_slots(form: ProposalForm) -> ProposalForm:
    numbered = [
        PenaltySlot(i, s.seat, s.kind, s.calls, s.points) for i, s in enumerate(form.penalties, 1)
    ]
    extra = [PenaltySlot(len(numbered) + i) for i in range(1, BLANK_PENALTIES + 1)]
    form.penalties = numbered + extra
    return form


def form_from_proposal(form: ProposalForm, document: dict[str, Any]) -> ProposalForm:
    """The form filled with an entry already made (to correct it)."""
    typed = HandRowForm(row_fields(document), seats=[box.seat for box in form.boxes])
    return typed_form(form, typed, [])


def typed_form(form: ProposalForm, typed: HandRowForm, problems: list[RowProblem]) -> ProposalForm:
    """The form as the player typed it, with what is wrong marked: nothing is lost."""
    bad = {seat for p in problems if p.field == "scores" for seat in p.seats}
    for box in form.boxes:
        box.value = typed.values.get(box.seat, "")
        box.invalid = box.seat in bad
    form.went_out, form.down_and_out, form.redeal = typed.went_out, typed.down_and_out, typed.redeal
    form.penalties = typed.penalties
    form.problems = problems
    return form


def worded(error: ServiceError, typed: HandRowForm | None) -> list[RowProblem]:
    """A refusal in the words the director's sheet uses for it."""
    if isinstance(error, HandRejected):
        went_out = typed.went_out_seat if typed is not None else None
        return [sheet_problem(p, went_out) for p in error.problems]
    return service_problems(error.errors)


def form_mode(waiting: ProposalView | None, seat: Seat) -> str:
    """What the hand form offers for a hand with the players' entry `waiting`: a "new"
    entry; the player's own entry "again"; to "replace" another's entry or dispute it
    with this version; the disputing player's own version for the director
    ("my-version"); or, for a hand another player disputed, nothing ("disputed": the
    page says the director decides it, before anyone types)."""
    if waiting is None:
        return "new"
    if waiting.state == Proposal.State.DISPUTED:
        return "my-version" if waiting.disputed_by == seat.position else "disputed"
    return "again" if waiting.entered_by == seat.position else "replace"
