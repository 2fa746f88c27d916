"""What runs an event's day besides the seating: the players' codes for entering their
own hands, a round's clock, the announcements on the venue screens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from game.clock import MAX_MINUTES
from game.clock import Clock as GameClock
from tournaments.models.events import Event
from tournaments.models.players import Entry
from tournaments.models.rounds import Round


class PlayerCode(models.Model):
    """A seated player's personal code for one round: it lets them enter and confirm
    their own table's hands (`core.table_entry.services`). Directors see and print it;
    the public never does."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="codes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="codes")
    code = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="code_one_per_player"),
            models.UniqueConstraint(fields=["round", "code"], name="code_unique_in_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} in {self.round}"


class RoundClock(models.Model):
    """A round's clock, once a director starts it (`game.clock` does the arithmetic):
    the end time, the moment it was paused, each table's extra seconds. Kept in the
    database so every web process and screen reads the same clock, whatever restarts."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveSmallIntegerField()
    ends_at = models.DateTimeField()
    paused_at = models.DateTimeField(null=True, blank=True)
    # {"3": 300}: table number -> seconds it plays beyond `ends_at` (JSON keys are text).
    table_extra_s = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes__gte=1) & Q(minutes__lte=MAX_MINUTES),
                name="clock_minutes_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} clock"

    def as_clock(self) -> GameClock:
        return GameClock(
            minutes=self.minutes,
            ends_at=self.ends_at,
            paused_at=self.paused_at,
            extra_s={int(table): int(s) for table, s in (self.table_extra_s or {}).items()},
        )

    def store(self, clock: GameClock) -> None:
        """Take the state of `clock` (not saved here)."""
        self.minutes = clock.minutes
        self.ends_at = clock.ends_at
        self.paused_at = clock.paused_at
        self.table_extra_s = {str(table): s for table, s in sorted(clock.extra_s.items())}


ANNOUNCEMENT_MAX = 200


class Announcement(models.Model):
    """A short line a director puts on the venue screens ("Round 3 starts at 14:30"),
    shown until removed; removed ones stay, as the event's history."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=ANNOUNCEMENT_MAX)
    posted_at = models.DateTimeField()
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "-posted_at", "-id"]
        indexes = [models.Index(fields=["event", "removed_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(removed_at__isnull=True) | Q(removed_at__gte=models.F("posted_at")),
                name="announcement_removed_after_posted",
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def current(self) -> bool:
        return self.removed_at is None
