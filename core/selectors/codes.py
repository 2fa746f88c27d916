"""Reads of players' codes: whose seat a code opens, and a round's codes for its
directors (never for the public)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from core.codes import shown
from core.selectors.events import round_with_seating
from tournaments.models import Event, PlayerCode, Round, Seat, Table


def seat_with_code(table: Table, code: str) -> Seat | None:
    """The seat at `table` of the player whose code for the table's round is `code`
    (already in its stored form), or None: one query."""
    if not code:
        return None
    return (
        Seat.objects.filter(
            table=table, entry__codes__round_id=table.round_id, entry__codes__code=code
        )
        .select_related("entry__player")
        .first()
    )


def seat_for_code(event: Event, code: str) -> Seat | None:
    """The seat, in a round of `event` in play, of the player whose code it is: one
    query (the page where a player types their code to find their table)."""
    if not code:
        return None
    return (
        Seat.objects.filter(
            round__event=event,
            round__status=Round.Status.PUBLISHED,
            entry__codes__round_id=F("round_id"),
            entry__codes__code=code,
        )
        .select_related("table__round", "entry__player")
        .first()
    )


@dataclass(frozen=True)
class SeatCode:
    seat: int
    player: int
    name: str
    code: str  # "" when the round has issued none yet (a draft)

    @property
    def printed(self) -> str:
        """The code as a slip prints it (ABCD-EFGH)."""
        return shown(self.code) if self.code else ""


@dataclass(frozen=True)
class TableCodes:
    number: int
    seats: tuple[SeatCode, ...]


def round_codes(event: Event, number: int) -> list[TableCodes]:
    """Every table of round `number` with each seat's player and code: 4 queries."""
    round_ = round_with_seating(event, number)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    return [
        TableCodes(
            number=table.number,
            seats=tuple(
                SeatCode(
                    seat=seat.position,
                    player=seat.entry.player_id,
                    name=seat.entry.player.name,
                    code=codes.get(seat.entry_id, ""),
                )
                for seat in table.seats.all()
            ),
        )
        for table in round_.tables.all()
    ]
