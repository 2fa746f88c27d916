"""The round clock as plain data: when time runs out, pauses and each table's extra time.

A clock is an end time, not a counter: `ends_at` is when the round's time runs out if
nothing changes, `paused_at` is set while it is paused (resuming moves `ends_at` on by
the length of the pause), and a table given extra time (a late start, a long redeal)
keeps `extra_s` seconds beyond `ends_at`. Every reading is worked out from these and
the time now, so any number of processes and screens agree, and a restart loses
nothing. No Django here: the service stores a `Clock`, the pages and the API read one.

The rules a director meets:
- start: from stopped, paused or over (starting again restarts the round's time and
  drops every table's extra time); refused while running (pause first, so a stray
  Enter cannot restart a round).
- Running means some table still plays: the round's time, or a table's extra time, is
  not over. pause: only while running (it stops every table). resume: only while paused.
- extend: every table, or one; refused before the clock starts. Minutes added to time
  that has run out count from now ("five more minutes" means five from now); negative
  minutes take time back (a mistyped extension), never a table's extra below zero.
- close (the round is closed, not a director's clock action): over from then on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from math import ceil

from game.words import Said, say, say_plural

STOPPED, RUNNING, PAUSED, OVER = "stopped", "running", "paused", "over"
STATES = (STOPPED, RUNNING, PAUSED, OVER)
ACTIONS = ("start", "pause", "resume", "extend")
MAX_MINUTES = 600  # a round of ten hours is already more than any event plays
MAX_EXTENSION = 120  # minutes given (or taken back) at once


class ClockError(ValueError):
    """An action the clock refuses, naming the field at fault."""

    def __init__(self, message: Said, *, field: str = "action") -> None:
        super().__init__(message)
        self.field = field


class ClockConflict(ClockError):
    """The action is well formed but the clock's state forbids it (pause a stopped clock)."""


class ClockInvalid(ClockError):
    """The action's values are wrong (minutes out of range)."""


@dataclass(frozen=True)
class Reading:
    """The clock as a screen shows it at one moment (of the round, or of one table)."""

    state: str
    remaining_s: int
    # When the time runs out if nothing changes; None while stopped or paused.
    ends_at: datetime | None


@dataclass(frozen=True)
class Clock:
    minutes: int  # the length it was started with (before it starts: the event's default)
    ends_at: datetime | None = None  # None: not started
    paused_at: datetime | None = None
    # Table number -> seconds that table plays beyond `ends_at`.
    extra_s: Mapping[int, int] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.ends_at is not None

    def table_end(self, table: int | None) -> datetime | None:
        if self.ends_at is None:
            return None
        return self.ends_at + timedelta(seconds=self.extra_s.get(table, 0) if table else 0)

    def read(self, now: datetime, table: int | None = None) -> Reading:
        """The round's clock (or table `table`'s, with its extra time) at `now`."""
        end = self.table_end(table)
        if end is None:
            return Reading(STOPPED, self.minutes * 60, None)
        moment = self.paused_at or now
        remaining = max(0, ceil((end - moment).total_seconds()))
        if self.paused_at is not None:
            return Reading(PAUSED, remaining, None)
        return Reading(RUNNING if remaining > 0 else OVER, remaining, end)

    def state(self, now: datetime) -> str:
        """The clock as a whole: running while the round or any table has time left."""
        state = self.read(now).state
        if state == OVER and any(self.read(now, t).state == RUNNING for t in self.extra_s):
            return RUNNING
        return state

    # --- The director's actions: each returns the clock it leaves ---------------------

    def start(self, now: datetime, minutes: int) -> Clock:
        if not _minutes_within(minutes, 1, MAX_MINUTES):
            raise ClockInvalid(
                say_plural(
                    "A round's time is %(least)s to %(most)s minutes.",
                    "A round's time is %(least)s to %(most)s minutes.",
                    MAX_MINUTES,
                    least=1,
                    most=MAX_MINUTES,
                ),
                field="minutes",
            )
        if self.state(now) == RUNNING:
            raise ClockConflict(say("The clock is running: pause it first to start it again."))
        return Clock(minutes=minutes, ends_at=now + timedelta(minutes=minutes))

    def pause(self, now: datetime) -> Clock:
        state = self.state(now)
        if state != RUNNING:
            raise ClockConflict(
                {
                    STOPPED: say("The clock has not started."),
                    PAUSED: say("The clock is already paused."),
                    OVER: say("Time is up: extend the clock to give more time."),
                }[state]
            )
        return replace(self, paused_at=now)

    def resume(self, now: datetime) -> Clock:
        if self.paused_at is None or self.ends_at is None:
            raise ClockConflict(say("The clock is not paused."))
        return replace(self, ends_at=self.ends_at + (now - self.paused_at), paused_at=None)

    def extend(self, now: datetime, minutes: int, table: int | None = None) -> Clock:
        """Give every table (or table `table`) `minutes` more; negative takes them back."""
        if not _minutes_within(minutes, -MAX_EXTENSION, MAX_EXTENSION):
            raise ClockInvalid(
                say_plural(
                    "An extension is %(least)s to %(most)s minutes.",
                    "An extension is %(least)s to %(most)s minutes.",
                    MAX_EXTENSION,
                    least=-MAX_EXTENSION,
                    most=MAX_EXTENSION,
                ),
                field="minutes",
            )
        if minutes == 0:
            raise ClockInvalid(say("Give a number of minutes other than 0."), field="minutes")
        if self.ends_at is None:
            raise ClockConflict(say("Start the clock before extending it."))
        moment = self.paused_at or now
        delta = timedelta(minutes=minutes)
        if table is None:
            if minutes < 0 or self.ends_at >= moment:
                return replace(self, ends_at=self.ends_at + delta)
            # The round's time is over: it restarts from now, and each table keeps what
            # it had left on top, so every table gets exactly `minutes` more.
            over_s = (moment - self.ends_at).total_seconds()
            left = {t: ceil(s - over_s) for t, s in self.extra_s.items()}
            extras = {t: s for t, s in left.items() if s > 0}
            return replace(self, ends_at=moment + delta, extra_s=extras)
        extra = self.extra_s.get(table, 0)
        if minutes > 0:
            end = max(self.ends_at + timedelta(seconds=extra), moment) + delta
            seconds = ceil((end - self.ends_at).total_seconds())
        else:
            seconds = extra + minutes * 60
            if seconds < 0:
                raise ClockInvalid(
                    say_plural(
                        "Table %(table)s has %(extra)s of extra time; %(minutes)s minutes "
                        "cannot be taken back.",
                        "Table %(table)s has %(extra)s of extra time; %(minutes)s minutes "
                        "cannot be taken back.",
                        -minutes,
                        table=table,
                        extra=format_duration(extra),
                        minutes=-minutes,
                    ),
                    field="minutes",
                )
        extras = {**self.extra_s, table: seconds}
        return replace(self, extra_s={t: s for t, s in extras.items() if s})

    def close(self, at: datetime) -> Clock:
        """The clock of a round closed at `at`: no table plays on, so from then on it
        reads over, each table's time having ended when it ran out or at `at`."""
        if self.ends_at is None:
            return Clock(minutes=self.minutes, ends_at=at)
        # A paused clock kept its time left: as if resumed at `at`.
        end = self.ends_at + (at - self.paused_at if self.paused_at is not None else timedelta())
        ends_at = min(end, at)
        # Rounded down: no table's time may end after the round closed.
        extras = {
            t: int((min(end + timedelta(seconds=s), at) - ends_at).total_seconds())
            for t, s in self.extra_s.items()
        }
        return Clock(self.minutes, ends_at, extra_s={t: s for t, s in extras.items() if s > 0})

    def act(self, now: datetime, action: str, minutes: int | None, table: int | None) -> Clock:
        """One director action, as the API names it (`ACTIONS`)."""
        if action not in ACTIONS:
            raise ClockInvalid(say("Choose one of: %(actions)s.", actions=", ".join(ACTIONS)))
        if table is not None and action != "extend":
            raise ClockInvalid(say("Only an extension is given to one table."), field="table")
        if action == "start":
            return self.start(now, self.minutes if minutes is None else minutes)
        if minutes is not None and action != "extend":
            refused = {
                "pause": say("Minutes are not given to pause the clock."),
                "resume": say("Minutes are not given to resume the clock."),
            }
            raise ClockInvalid(refused[action], field="minutes")
        if action == "pause":
            return self.pause(now)
        if action == "resume":
            return self.resume(now)
        if minutes is None:
            raise ClockInvalid(
                say("Give the minutes to add (or, negative, to take back)."), field="minutes"
            )
        return self.extend(now, minutes, table)


def _minutes_within(minutes: object, low: int, high: int) -> bool:
    return isinstance(minutes, int) and not isinstance(minutes, bool) and low <= minutes <= high


def format_duration(seconds: int) -> str:
    """'1:05:00', '12:34' or '0:09': how a clock shows a number of seconds."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
