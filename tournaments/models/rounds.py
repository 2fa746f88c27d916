"""A round and its seating: the tables, and each player's seat at one."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy, pgettext_lazy
from simple_history.models import HistoricalRecords

from game.sets import TABLE_MAX, TABLE_MIN
from tournaments.models.events import Event
from tournaments.models.players import Entry


class Round(models.Model):
    class Status(models.TextChoices):
        SEATING = "seating", gettext_lazy("Seating (being computed)")
        DRAFT = "draft", gettext_lazy("Draft seating")
        PUBLISHED = "published", gettext_lazy("Published (in play)")
        CLOSED = "closed", pgettext_lazy("round status", "Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SEATING)
    policy = models.CharField(max_length=12, default="random")
    seed = models.BigIntegerField(default=0)
    quality = models.JSONField(default=dict, blank=True)
    forced_close = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # When the round's adjusted scores were last made (closing it, marking a seat at
    # fault once closed, a full rebuild): what was read from its closed sets is stale
    # once it moves.
    adjusted_at = models.DateTimeField(null=True, blank=True)
    # Who closed, force-closed or reopened the round, and when.
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["seating", "draft", "published", "closed"]),
                name="round_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


# Rounds the public sees and the standings count: published (in play) or closed.
PLAYED_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.CLOSED)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    locked = models.BooleanField(default=False)
    # Players left mid-round and fewer than three were left for the next hand: the
    # table plays no hand after this one, and its sets are incomplete. Kept in step
    # with the seats' leave points by the services (`game.sets.ends_after`).
    closed_after_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


# How many players a table seats (game.sets).
MIN_SEATS, MAX_SEATS = TABLE_MIN, TABLE_MAX


class Seat(models.Model):
    """A player's place at a table in one round: position 1..6 clockwise."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round again, so the database itself keeps a player to one seat per round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    first_dealer = models.BooleanField(default=False)
    # A player who withdraws during the round plays no hand after this one; the
    # table plays on without them.
    left_after_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    # The director marked the player at fault for the hands their table did not play
    # (slow play), with this reason: their adjusted scores are the worse, documented
    # ones (`game.adjusted.AT_FAULT`). Empty: not at fault.
    at_fault = models.CharField(max_length=200, blank=True, default="")
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_one_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(first_dealer=True), name="seat_one_first_dealer"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=MAX_SEATS),
                name="seat_position_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}"

    def plays_hand(self, number: object) -> bool:
        """Whether this seat plays hand `number` (a player who withdrew mid-round
        plays no hand after the one they left after)."""
        return (
            self.left_after_hand is None
            or not isinstance(number, int)
            or number <= self.left_after_hand
        )
