"""Reads for the venue screens: a round's clock, the announcements, the seating board
("find your table") and the field before the first round. A fixed number of queries
each, whatever the event's size.

What is read here holds no time of day: a clock is its end time and pauses
(`game.clock.Clock`), so a cached copy stays right; `read(now)` and `face(now)` give
what a screen shows at a moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from core.common import the_row
from core.entries.names import shown_names
from core.entries.selectors import namesakes_of, replacements
from core.errors import Missing
from game.clock import Clock, Reading, format_duration
from game.collation import sort_key
from tournaments.models import Announcement, Entry, Event, Round, RoundClock, Seat, Table

# --- The round clock ------------------------------------------------------------------


@dataclass(frozen=True)
class TableClock:
    number: int
    extra_s: int
    reading: Reading


@dataclass(frozen=True)
class ClockReading:
    """A round's clock at one moment, for every table (API.md, "The round clock")."""

    round: int
    minutes: int
    reading: Reading
    time_rule: str
    tables: tuple[TableClock, ...]


@dataclass(frozen=True)
class ClockFace:
    """What a screen shows of a clock, worked out at `now`: the state, the time left,
    and (while it runs) the end time the page's script counts down to."""

    label: str
    reading: Reading
    extra_s: int = 0

    @property
    def state(self) -> str:
        return self.reading.state

    @property
    def ticking(self) -> bool:
        """Running or over: the page's script counts to `ends_ms` (and past it)."""
        return self.reading.ends_at is not None

    @property
    def ends_ms(self) -> int | None:
        ends = self.reading.ends_at
        return None if ends is None else int(ends.timestamp() * 1000)

    @property
    def remaining(self) -> str:
        return format_duration(self.reading.remaining_s)

    @property
    def extra(self) -> str:
        return format_duration(self.extra_s)


@dataclass(frozen=True)
class RoundClockView:
    round: int
    clock: Clock
    time_rule: str
    tables: tuple[int, ...] = ()  # every table of the round (read for the API only)
    closed: bool = False
    # When the round was closed; a closed round's clock is over from then (`Clock.close`).
    closed_at: datetime | None = None

    @property
    def started(self) -> bool:
        return self.clock.started

    def at(self, now: datetime) -> tuple[Clock, datetime]:
        """The clock to read at `now`, and the moment to read it at: a closed round's is
        over from its closing (even on a server whose time lags the one that closed it)."""
        if not self.closed:
            return self.clock, now
        closed_at = self.closed_at or now
        return self.clock.close(closed_at), max(now, closed_at)

    def read(self, now: datetime) -> ClockReading:
        clock, now = self.at(now)
        return ClockReading(
            round=self.round,
            minutes=clock.minutes,
            reading=clock.read(now),
            time_rule=self.time_rule,
            tables=tuple(
                TableClock(number, clock.extra_s.get(number, 0), clock.read(now, number))
                for number in self.tables
            ),
        )

    def face(self, now: datetime, table: int | None = None) -> ClockFace:
        clock, now = self.at(now)
        label = (
            _("Table %(table)s") % {"table": table}
            if table
            else _("Round %(round)s") % {"round": self.round}
        )
        extra = clock.extra_s.get(table, 0) if table else 0
        return ClockFace(label, clock.read(now, table), extra)

    def extra_faces(self, now: datetime) -> tuple[ClockFace, ...]:
        """The tables given extra time, each with its own clock."""
        return tuple(self.face(now, table) for table in sorted(self.at(now)[0].extra_s))


def clock_of(event: Event, stored: RoundClock | None) -> Clock:
    return stored.as_clock() if stored is not None else Clock(minutes=event.round_minutes)


def round_clock(event: Event, number: int) -> RoundClockView:
    """Round `number`'s clock with every table's extra time: 2 queries."""
    round_ = the_row(Round.objects.filter(event=event, number=number).select_related("clock"))
    if round_ is None:
        raise Missing(_("No such round."))
    stored = getattr(round_, "clock", None)
    tables = Table.objects.filter(round=round_).order_by("number").values_list("number", flat=True)
    return RoundClockView(
        round=number,
        clock=clock_of(event, stored),
        time_rule=event.time_rule_text,
        tables=tuple(tables),
        closed=round_.status == Round.Status.CLOSED,
        closed_at=round_.closed_at,
    )


# --- Announcements --------------------------------------------------------------------


@dataclass(frozen=True)
class AnnouncementView:
    id: int
    text: str
    posted_at: datetime
    removed_at: datetime | None


def announcements(event: Event, *, current: bool | None = None, limit: int | None = None):
    """The event's announcements, newest first: those showing (`current=True`), those
    removed (False) or all; one query."""
    found = Announcement.objects.filter(event=event).order_by("-posted_at", "-id")
    if current is not None:
        found = found.filter(removed_at__isnull=current)
    if limit is not None:
        found = found[:limit]
    return found


def announcement_of(event: Event, announcement_id: int) -> Announcement:
    found = Announcement.objects.filter(event=event, pk=announcement_id).first()
    if found is None:
        raise Missing(_("No such announcement."))
    return found


# --- What the screens show besides the standings --------------------------------------


@dataclass(frozen=True)
class Screen:
    """The latest round's clock while it is in play, and the announcements showing."""

    clock: RoundClockView | None
    announcements: tuple[AnnouncementView, ...]
    time_rule: str


def screen(event: Event) -> Screen:
    """For the public pages: at most 2 queries. `event` comes from `public_event`."""
    shown = tuple(
        AnnouncementView(a.pk, a.text, a.posted_at, a.removed_at)
        for a in announcements(event, current=True)
    )
    clock = None
    if event.latest_status == Round.Status.PUBLISHED:
        stored = RoundClock.objects.filter(
            round__event=event, round__number=event.latest_round
        ).first()
        clock = RoundClockView(
            round=event.latest_round,
            clock=clock_of(event, stored),
            time_rule=event.time_rule_text,
        )
    return Screen(clock=clock, announcements=shown, time_rule=event.time_rule_text)


# --- The seating board, and the field before the first round ---------------------------


@dataclass(frozen=True)
class SeatingRow:
    player: int
    name: str
    table: int
    seat: int
    left: bool  # withdrew after the round was published


def seating_board(event: Event, number: int) -> tuple[SeatingRow, ...]:
    """Every player of round `number`, A to Z, with their table and seat (namesakes told
    apart, `core.entries.names`): 2 queries."""
    rows = Seat.objects.filter(round__event=event, round__number=number).values_list(
        "entry__player_id", "entry__player__name", "table__number", "position", "left_after_hand"
    )
    names = namesakes_of(event)
    found = [
        SeatingRow(p, names.get(p, name), t, s, left is not None) for p, name, t, s, left in rows
    ]
    return tuple(sorted(found, key=lambda r: (sort_key(r.name), r.player)))


@dataclass(frozen=True)
class FieldRow:
    player: int
    name: str
    club: str
    country: str
    withdrawn: bool
    seed: int | None = None
    carried: int = 0  # a series final's carried-over score
    replaced_by: str = ""  # a no-show's substitute, as the field shows them
    carry_source: str = ""  # where a series final's carry comes from, in words


def field_of(event: Event) -> tuple[FieldRow, ...]:
    """The players entered, A to Z, before any round is seated, namesakes told apart
    (`core.entries.names`): one query, 2 once a player has withdrawn (whether a
    substitute replaced them)."""
    rows = list(
        Entry.objects.filter(event=event).values_list(
            "player_id",
            "player__name",
            "player__club",
            "player__country",
            "status",
            "seed_number",
            "carried_points",
        )
    )
    shown = shown_names((p, name, club) for p, name, club, *_ in rows)
    withdrawn = any(row[4] == Entry.Status.WITHDRAWN for row in rows)
    subs = replacements(event) if withdrawn else {}
    found = [
        FieldRow(
            p,
            shown[p],
            club,
            str(country or ""),
            status == Entry.Status.WITHDRAWN,
            seed,
            carried,
            replaced_by=shown.get(subs.get(p, 0), "") if status == Entry.Status.WITHDRAWN else "",
        )
        for p, name, club, country, status, seed, carried in rows
    ]
    return tuple(sorted(found, key=lambda r: (r.withdrawn, sort_key(r.name), r.player)))
