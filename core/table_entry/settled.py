"""The players' entries at a table settled lately, and how: confirmed by a player and
recorded, or recorded by a director (a dispute settled). The pages that follow a
table's entries live (the players' phones, the director's panel on the sheet) say so
for a few minutes, rather than let the hand vanish from the list. Two queries;
`entries_now` reads them with the entries still open in one, given the table's hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from core.hands.selectors import recorder
from core.table_entry.selectors import ProposalView, SeatName, TableNow, proposal_view
from scoring.models import Hand, Proposal
from tournaments.models import Seat, Table

# How long a page keeps saying a hand was settled: long enough for every phone at the
# table to see it, short enough that the list stays about the hands in play.
LATELY = timedelta(minutes=5)


@dataclass(frozen=True)
class Settled:
    number: int
    recorded: bool  # the hand stands recorded (else set aside: a redeal, or directors took over)
    version: int  # the hand's version now (0: not recorded)
    disputed: bool  # the entry had been disputed
    confirmed: SeatName | None  # the player whose confirmation recorded it
    saved_by: str  # the director who recorded it ("": the players did)


def settled_lately(table: Table, *, now: datetime | None = None) -> list[Settled]:
    """The hands at `table` whose latest players' entry was settled (confirmed, or
    overruled by a director's entry) within `LATELY`, in hand order."""
    since = (now or timezone.now()) - LATELY
    recent = (
        Proposal.objects.filter(table=table, updated_at__gte=since)
        .select_related("confirmed_by__player")
        .order_by("number", "-created_at", "-pk")
    )
    return settled_of(table, recent)


def settled_of(
    table: Table, recent: Iterable[Proposal], attempts: Iterable[Hand] | None = None
) -> list[Settled]:
    """`settled_lately` from the table's proposals updated within `LATELY` (each with
    its confirming player), by hand number and latest first: 1 query, none when none
    of them is settled or given every attempt at the table's hands (`hands_of`)."""
    latest: dict[int, Proposal] = {}
    for proposal in recent:
        latest.setdefault(proposal.number, proposal)
    closed = {n: p for n, p in latest.items() if p.state not in Proposal.OPEN}
    if not closed:
        return []
    if attempts is None:
        attempts = Hand.objects.filter(table=table, number__in=list(closed)).annotate(
            recorder=recorder()
        )
    hands = {
        hand.number: hand
        for hand in attempts
        if hand.number in closed and hand.outcome == Hand.Outcome.SCORED
    }
    return [settled(proposal, hands.get(number)) for number, proposal in sorted(closed.items())]


def settled(proposal: Proposal, hand: Hand | None) -> Settled:
    confirmed = None
    if proposal.state == Proposal.State.RECORDED and proposal.confirmed_by is not None:
        confirmed = SeatName(proposal.confirmed_seat, proposal.confirmed_by.player.name)
    return Settled(
        number=proposal.number,
        recorded=hand is not None,
        version=hand.version if hand is not None else 0,
        disputed=proposal.disputed_seat is not None,
        confirmed=confirmed,
        saved_by=(hand.recorder or "") if hand is not None else "",
    )


def open_or_lately(table: Table, *, now: datetime | None = None) -> list[Proposal]:
    """The table's entries still open or settled within `LATELY`, each with its players,
    by hand number and latest first: 1 query. What `entries_now` makes of them holds
    later too (it looks at the time again), as long as the table has not changed."""
    since = (now or timezone.now()) - LATELY
    return list(
        Proposal.objects.filter(table=table)
        .filter(Q(state__in=Proposal.OPEN) | Q(updated_at__gte=since))
        .select_related("entered_by__player", "confirmed_by__player", "disputed_by__player")
        .order_by("number", "-created_at", "-pk")
    )


def entries_now(
    table: Table,
    seats: Iterable[Seat],
    attempts: Iterable[Hand],
    *,
    now: datetime | None = None,
    found: list[Proposal] | None = None,
) -> tuple[dict[int, ProposalView], list[Settled]]:
    """`open_proposals(table)` and `settled_lately(table)` together, given the table's
    seats (each with its entry and player) and every attempt at its hands (`hands_of`):
    1 query, none given what `open_or_lately` read (at this time or before, the table
    unchanged since). `table` comes with its round and event."""
    since = (now or timezone.now()) - LATELY
    if found is None:
        found = open_or_lately(table, now=now)
    waiting: dict[int, ProposalView] = {}
    still_open = [proposal for proposal in found if proposal.state in Proposal.OPEN]
    if still_open:
        deals = Counter(hand.number for hand in attempts)
        at_table = TableNow(table, sorted(seats, key=lambda seat: seat.position), dict(deals))
        waiting = {p.number: proposal_view(p, at_table) for p in still_open}
    recent = [proposal for proposal in found if proposal.updated_at >= since]
    return waiting, settled_of(table, recent, attempts)
