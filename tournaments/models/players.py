"""Players, shared across events, and their entries in an event."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from tournaments.models.events import Event


class Player(models.Model):
    """A person, shared across events."""

    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    country = CountryField(blank=True)
    rating = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["name"])]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("player status", "Active")
        WITHDRAWN = "withdrawn", pgettext_lazy("player status", "Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    seed_number = models.PositiveIntegerField(null=True, blank=True)
    # A series final's carried-over score: the points the entry starts with (README,
    # "Series").
    carried_points = models.PositiveIntegerField(default=0)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Present for the next round (an event with check-in seats only these).
    checked_in = models.BooleanField(default=False)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["event", "seed_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event"),
            models.UniqueConstraint(
                fields=["event", "seed_number"],
                condition=Q(seed_number__isnull=False),
                name="entry_unique_seed",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "withdrawn"]), name="entry_status"
            ),
            models.CheckConstraint(
                condition=Q(status="withdrawn") | Q(withdrawn_at__isnull=True),
                name="entry_withdrawn_at_only_when_withdrawn",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"
