"""Who wins what: an event's prize table applied to its final standings (players tied
on every score before the draw share, or the draw decides, as the event says). Read
by the public pages, the results PDF and the CSV export. 2 queries."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from core.series.selectors import event_prizes, prize_text
from scoring.models import Standing
from tournaments.models import Event, Round


@dataclass(frozen=True)
class PrizeWinner:
    rank: int
    player_id: int
    name: str
    amount: Decimal
    item: str
    shared_with: tuple[int, ...]
    currency: str = ""

    @property
    def text(self) -> str:
        return prize_text(self.amount, self.item, self.shared_with, self.currency)


def event_prize_winners(event: Event) -> list[PrizeWinner]:
    """The prizes of a finished event by rank (none before it is finished)."""
    if not event.prizes or event.status != Event.Status.FINISHED:
        return []
    last = (
        Round.objects.filter(event=event, status=Round.Status.CLOSED)
        .order_by("-number")
        .values_list("pk", flat=True)
        .first()
    )
    if last is None:
        return []
    rows = list(
        Standing.objects.filter(round_id=last)
        .order_by("rank")
        .select_related("entry__player")
        .only("rank", "tiebreaks", "entry__player__name")
    )
    lines = event_prizes(event, rows)
    by_rank = {row.rank: row for row in rows}
    return [
        PrizeWinner(
            rank=rank,
            player_id=by_rank[rank].entry.player_id,
            name=by_rank[rank].entry.player.name,
            amount=line.amount,
            item=line.item,
            shared_with=line.shared_with,
            currency=line.currency,
        )
        for rank, line in sorted(lines.items())
        if rank in by_rank
    ]
