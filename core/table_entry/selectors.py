"""Reads of the players' entries (proposals) at tables: what each would record, who
entered, confirmed or disputed it, and each table's entries for the director, in a
fixed number of queries whatever the event's size. A proposal keeps the hand as
entered, in the API's shape (`entry_document`); what it would record is worked out
again by the rules engine whenever shown, as `core.services.record_hand` will once it
is confirmed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.hands.selectors import HandView, PenaltyView, ResultView
from core.hands.sheet_form import PENALTY_LABELS
from core.words import translated
from game import rules
from scoring.models import Hand, Proposal
from tournaments.models import Event, Seat, Table

# --- the hand as entered, kept as JSON ------------------------------------------------


def entry_document(entry: rules.HandEntry) -> dict[str, Any]:
    """A hand entry as the API's body spells it (the values the engine accepted)."""
    if entry.redeal:
        return {"redeal": True}
    return {
        "went_out": entry.went_out,
        "down_and_out": bool(entry.down_and_out),
        "scores": [
            _given({"seat": s.seat, "points": s.points, "cards": s.cards}) for s in entry.scores
        ],
        "penalties": [
            _given(
                {"seat": p.seat, "kind": p.kind, "extra_calls": p.extra_calls, "points": p.points}
            )
            for p in entry.penalties
        ],
    }


def _given(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def entry_from_document(document: Mapping[str, Any]) -> rules.HandEntry:
    return rules.HandEntry(
        redeal=bool(document.get("redeal", False)),
        went_out=document.get("went_out"),
        down_and_out=bool(document.get("down_and_out", False)),
        scores=tuple(rules.SeatEntry(**score) for score in document.get("scores", ())),
        penalties=tuple(rules.PenaltyEntry(**p) for p in document.get("penalties", ())),
    )


# --- what a proposal shows --------------------------------------------------------------


@dataclass(frozen=True)
class SeatName:
    seat: int
    name: str


@dataclass(frozen=True)
class HandLine:
    """One seat's line in a hand as a page shows it: who, what they score, and how."""

    seat: int
    name: str
    score: int
    card_points: int
    cards: str | None
    penalty_points: int
    doubled: bool  # down and out: the card points count double
    out: bool  # this seat went out
    sat_out: bool


def hand_lines(hand: HandView | None, names: Mapping[int, str]) -> list[HandLine]:
    """A scored hand seat by seat (nothing for a redeal)."""
    if hand is None or hand.outcome != Hand.Outcome.SCORED:
        return []
    return [
        HandLine(
            seat=r.seat,
            name=names.get(r.seat, ""),
            score=r.score,
            card_points=r.card_points,
            cards=r.cards,
            penalty_points=r.penalty_points,
            doubled=hand.down_and_out and r.seat != hand.went_out,
            out=r.seat == hand.went_out,
            sat_out=r.sat_out,
        )
        for r in hand.results
    ]


def penalty_lines(hand: HandView | None) -> list[str]:
    """Each penalty charged, in words: "Seat 4: over-call, 100 (1 extra call)"."""
    if hand is None:
        return []
    lines = []
    for p in hand.penalties:
        label = str(PENALTY_LABELS.get(p.kind, p.kind)).lower()
        values = {"seat": p.seat, "penalty": label, "points": p.points, "count": p.extra_calls}
        if p.extra_calls:
            line = ngettext(
                "Seat %(seat)s: %(penalty)s, %(points)s (%(count)s extra call)",
                "Seat %(seat)s: %(penalty)s, %(points)s (%(count)s extra calls)",
                p.extra_calls,
            )
        else:
            line = _("Seat %(seat)s: %(penalty)s, %(points)s")
        lines.append(line % values)
    return lines


@dataclass(frozen=True)
class Version:
    """One version of a hand, as a page puts it beside another."""

    label: str
    hand: HandView | None
    names: Mapping[int, str]
    entry: Mapping[str, Any]  # as entered (the API's shape)

    @property
    def lines(self) -> list[HandLine]:
        return hand_lines(self.hand, self.names)

    @property
    def penalties(self) -> list[str]:
        return penalty_lines(self.hand)


@dataclass(frozen=True)
class ProposalView:
    """A player's entry for a hand, as the API and the pages show it."""

    id: int
    number: int
    version: int  # which entry of the hand at the table (a confirmation names it)
    state: str
    entry: dict[str, Any]  # as entered (to fill a form with it)
    hand: HandView | None  # what it would record (None: the rules no longer accept it)
    entered: SeatName
    confirmed: SeatName | None
    disputed: SeatName | None
    alternative_entry: dict[str, Any] | None
    alternative: HandView | None  # the disputing player's version, when they gave one
    created_at: datetime
    updated_at: datetime
    problems: tuple[str, ...] = field(default=())  # why `hand` is None
    names: Mapping[int, str] = field(default_factory=dict)  # the table's players by seat

    @property
    def entered_by(self) -> int:
        return self.entered.seat

    @property
    def confirmed_by(self) -> list[int]:
        return [self.confirmed.seat] if self.confirmed else []

    @property
    def disputed_by(self) -> int | None:
        return self.disputed.seat if self.disputed else None

    @property
    def open(self) -> bool:
        return self.state in Proposal.OPEN

    @property
    def as_entered(self) -> Version:
        """The hand as entered, as it would be recorded."""
        label = _("Entered by seat %(seat)s · %(name)s") % {
            "seat": self.entered.seat,
            "name": self.entered.name,
        }
        return Version(label, self.hand, self.names, self.entry)

    @property
    def versions(self) -> list[Version]:
        """The versions side by side: as entered, and the disputing player's."""
        shown = [self.as_entered]
        if self.disputed is not None:
            label = _("Disputed by seat %(seat)s · %(name)s") % {
                "seat": self.disputed.seat,
                "name": self.disputed.name,
            }
            other = self.alternative_entry or {}
            shown.append(Version(label, self.alternative if other else None, self.names, other))
        return shown


def scored_view(
    scored: rules.ScoredHand, players: Mapping[int, int], version: int, deals: int
) -> HandView:
    """A hand the engine scored but nobody recorded, as the API's hand document."""
    return HandView(
        number=scored.number,
        contract=scored.contract,
        cards_dealt=scored.cards_dealt,
        outcome=scored.outcome,
        went_out=scored.went_out,
        down_and_out=scored.down_and_out,
        version=version,
        deals=deals,
        results=tuple(
            ResultView(
                seat=r.seat,
                player=players.get(r.seat, 0),
                card_points=r.card_points,
                penalty_points=r.penalty_points,
                score=r.score,
                cards=" ".join(str(c) for c in r.cards) if r.cards is not None else None,
                sat_out=r.sat_out,
            )
            for r in scored.results
        ),
        penalties=tuple(
            PenaltyView(seat=p.seat, kind=p.kind, points=p.points, extra_calls=p.extra_calls)
            for p in scored.penalties
        ),
    )


def would_record(
    table: Table,
    seats: list[Seat],
    number: int,
    document: Mapping[str, Any],
    version: int,
    deals: int,
) -> tuple[HandView | None, tuple[str, ...]]:
    """What `document` records at `table` now, or why the engine refuses it. As a hand
    document: `version` is the hand's version it was entered against, `deals` the
    deals of the hand recorded so far."""
    event = table.round.event
    playing = [seat for seat in seats if seat.plays_hand(number)]
    try:
        scored = rules.score_hand(
            ruleset=event.rules,
            deck=event.deck,
            number=number,
            seats=[seat.position for seat in playing],
            entry=entry_from_document(document),
            table_rules=event.table_rules,
        )
    except (rules.HandInvalid, TypeError, ValueError) as invalid:
        return None, (translated(invalid),)
    players = {seat.position: seat.entry.player_id for seat in playing}
    return scored_view(scored, players, version, deals), ()


@dataclass(frozen=True)
class TableNow:
    """What showing a table's proposals needs: its seats, and the deals recorded of
    each hand number."""

    table: Table
    seats: list[Seat]
    deals: dict[int, int]

    @classmethod
    def of(cls, table: Table) -> TableNow:
        """2 queries. `table` comes with its round and event."""
        seats = list(
            Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
        )
        deals = dict(
            Hand.objects.filter(table=table)
            .values("number")
            .annotate(n=Count("pk"))
            .values_list("number", "n")
            .order_by()
        )
        return cls(table, seats, deals)


def proposal_view(proposal: Proposal, now: TableNow) -> ProposalView:
    """`proposal` (with `entered_by`, `confirmed_by` and `disputed_by` and their players
    loaded) at its table as it is `now`."""
    number = proposal.number
    deals = now.deals.get(number, 0)

    def record(document: Mapping[str, Any]) -> tuple[HandView | None, tuple[str, ...]]:
        return would_record(now.table, now.seats, number, document, proposal.base_version, deals)

    hand, problems = record(proposal.entry)
    alternative = record(proposal.alternative)[0] if proposal.alternative is not None else None

    def who(entry, seat: int | None) -> SeatName | None:
        return None if entry is None or seat is None else SeatName(seat, entry.player.name)

    return ProposalView(
        id=proposal.pk,
        number=number,
        version=proposal.version,
        state=proposal.state,
        entry=proposal.entry,
        hand=hand,
        entered=SeatName(proposal.entered_seat, proposal.entered_by.player.name),
        confirmed=who(proposal.confirmed_by, proposal.confirmed_seat),
        disputed=who(proposal.disputed_by, proposal.disputed_seat),
        alternative_entry=proposal.alternative,
        alternative=alternative,
        created_at=proposal.created_at,
        updated_at=proposal.updated_at,
        problems=problems,
        names={seat.position: seat.entry.player.name for seat in now.seats},
    )


def _proposals(table: Table) -> Any:
    return Proposal.objects.filter(table=table).select_related(
        "entered_by__player", "confirmed_by__player", "disputed_by__player"
    )


def open_proposals(table: Table) -> dict[int, ProposalView]:
    """The players' entries still open at `table` (waiting, or disputed), by hand
    number: 3 queries (1 when there are none). `table` comes with its round and event."""
    found = list(_proposals(table).filter(state__in=Proposal.OPEN).order_by("number"))
    if not found:
        return {}
    now = TableNow.of(table)
    return {p.number: proposal_view(p, now) for p in found}


def latest_proposal(table: Table, number: int) -> ProposalView | None:
    """The latest entry for hand `number` at `table`, whatever became of it: 3 queries."""
    proposal = _proposals(table).filter(number=number).order_by("-created_at", "-pk").first()
    if proposal is None:
        return None
    return proposal_view(proposal, TableNow.of(table))


def proposal_history(table: Table, number: int) -> list[ProposalView]:
    """Every entry the players made for hand `number` at `table`, oldest first: 3 queries."""
    found = list(_proposals(table).filter(number=number).order_by("created_at", "pk"))
    if not found:
        return []
    now = TableNow.of(table)
    return [proposal_view(p, now) for p in found]


# --- each table's entries, for the director ------------------------------------------


@dataclass
class TableEntries:
    """The players' entries at one table: the hands waiting for confirmation, those
    disputed, and those confirmed and recorded."""

    number: int
    pending: list[int] = field(default_factory=list)
    disputed: list[int] = field(default_factory=list)
    confirmed: list[int] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.pending or self.disputed or self.confirmed)


def round_entries(event: Event, number: int) -> list[TableEntries]:
    """Every table of round `number` with its players' entries, in table order: one
    query."""
    tables: dict[int, TableEntries] = {}
    states = {
        Proposal.State.PENDING: "pending",
        Proposal.State.DISPUTED: "disputed",
        Proposal.State.RECORDED: "confirmed",
    }
    rows = (
        Table.objects.filter(round__event=event, round__number=number)
        .values_list("number", "proposals__number", "proposals__state")
        .order_by("number", "proposals__number")
    )
    for table_number, hand, state in rows:
        entries = tables.setdefault(table_number, TableEntries(table_number))
        if state in states:
            target = getattr(entries, states[state])
            if hand not in target:
                target.append(hand)
    return list(tables.values())


def entry_counts(tables: Iterable[TableEntries]) -> dict[str, int]:
    tables = list(tables)
    return {
        "pending": sum(len(t.pending) for t in tables),
        "disputed": sum(len(t.disputed) for t in tables),
        "confirmed": sum(len(t.confirmed) for t in tables),
    }
