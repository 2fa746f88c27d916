"""The players' entries at a table settled lately, and how: confirmed by a player and
recorded, or recorded by a director (a dispute settled). The pages that follow a
table's entries live (the players' phones, the director's panel on the sheet) say so
for a few minutes, rather than let the hand vanish from the list. Two queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from core.table_entry.selectors import SeatName
from scoring.models import Hand, Proposal
from tournaments.models import Table

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
    latest: dict[int, Proposal] = {}
    recent = (
        Proposal.objects.filter(table=table, updated_at__gte=since)
        .select_related("confirmed_by__player")
        .order_by("number", "-created_at", "-pk")
    )
    for proposal in recent:
        latest.setdefault(proposal.number, proposal)
    closed = {n: p for n, p in latest.items() if p.state not in Proposal.OPEN}
    if not closed:
        return []
    hands = {
        hand.number: hand
        for hand in Hand.objects.filter(
            table=table, number__in=list(closed), outcome=Hand.Outcome.SCORED
        ).select_related("recorded_by")
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
        saved_by=hand.recorded_by.get_username() if hand and hand.recorded_by else "",
    )
