"""Players' codes at the table: the seat a code opens (at a table, or anywhere in the
event's round in play), the table a code may open whoever may see its event, and every
seat's code for a round's slips."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef

from core.common import the_row
from core.entries.selectors import namesakes_of
from core.events.selectors import round_with_seating
from core.table_entry.codes import shown
from tournaments.models import PLAYED_ROUND_STATUSES, Event, PlayerCode, Round, Seat, Table


def seat_with_code(table: Table, code: str) -> Seat | None:
    """The seat at `table` of the player whose code for the table's round is `code`
    (already in its stored form), or None: one query."""
    if not code:
        return None
    return the_row(
        Seat.objects.filter(
            table=table, entry__codes__round_id=table.round_id, entry__codes__code=code
        ).select_related("entry__player")
    )


def seats_and_coded(table: Table, code: str) -> tuple[list[Seat], Seat | None]:
    """The seats of `table` by position, each with its entry and player, and among them
    the seat of the player whose code for the table's round is `code` (already in its
    stored form; None: nobody's, as `seat_with_code` says): one query."""
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    if not code:
        return list(seats), None
    coded = PlayerCode.objects.filter(entry_id=OuterRef("entry_id"), round_id=table.round_id)
    found = list(seats.annotate(coded=Exists(coded.filter(code=code))))
    return found, next((seat for seat in found if seat.coded), None)


def players_table(slug: str, round_number: int, table_number: int) -> Table | None:
    """A table of a published or closed round of the event `slug`, whoever may see the
    event (or None): for its players, whose codes open it even at a private event. One
    query; nothing here says whether the caller may see it."""
    return the_row(
        Table.objects.filter(
            round__event__slug=slug,
            round__number=round_number,
            round__status__in=PLAYED_ROUND_STATUSES,
            number=table_number,
        ).select_related("round__event")
    )


def event_by_slug(slug: str) -> Event | None:
    """The event `slug`, whoever may see it (for its players' codes): one query."""
    return the_row(Event.objects.filter(slug=slug))


def seat_for_code(event: Event, code: str) -> Seat | None:
    """The seat, in a round of `event` in play, of the player whose code it is: one
    query (the page where a player types their code to find their table)."""
    if not code:
        return None
    return the_row(
        Seat.objects.filter(
            round__event=event,
            round__status=Round.Status.PUBLISHED,
            entry__codes__round_id=F("round_id"),
            entry__codes__code=code,
        ).select_related("table__round", "entry__player")
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
    """Every table of round `number` with each seat's player (namesakes told apart, as
    every list of the event shows them) and code: 5 queries."""
    round_ = round_with_seating(event, number)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    names = namesakes_of(event)
    return [
        TableCodes(
            number=table.number,
            seats=tuple(
                SeatCode(
                    seat=seat.position,
                    player=seat.entry.player_id,
                    name=names.get(seat.entry.player_id, seat.entry.player.name),
                    code=codes.get(seat.entry_id, ""),
                )
                for seat in table.seats.all()
            ),
        )
        for table in round_.tables.all()
    ]
