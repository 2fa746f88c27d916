"""Hands, hand scores, director penalties and standings.

A hand number at a table may be dealt more than once: every redeal is kept as its
own attempt, and at most one attempt per number is scored. The rules of a valid hand
live in `scoring.rules`; the constraints here are what the database itself can hold.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from tournaments.models import Entry, Event, Round, Seat, Table


class Hand(models.Model):
    class Outcome(models.TextChoices):
        SCORED = "scored", "Scored"
        REDEAL = "redeal", "Redeal (no score)"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    attempt = models.PositiveSmallIntegerField(default=1)
    # The contract and deal as played, kept even if a ruleset were ever corrected.
    contract = models.CharField(max_length=60)
    cards_dealt = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    went_out = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="hands_won"
    )
    down_and_out = models.BooleanField(default=False)
    # Grows with every change to this hand number at this table (all its attempts):
    # the optimistic-concurrency token a client sends back in If-Match.
    version = models.PositiveIntegerField(default=1)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number", "attempt"], name="hand_attempt_once"
            ),
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(outcome="scored"),
                name="hand_scored_once",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(attempt__gte=1) & Q(version__gte=1),
                name="hand_numbers_positive",
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=["scored", "redeal"]), name="hand_outcome"
            ),
            models.CheckConstraint(
                condition=Q(outcome="scored", went_out__isnull=False)
                | Q(outcome="redeal", went_out__isnull=True, down_and_out=False),
                name="hand_scored_has_winner_redeal_has_none",
            ),
        ]

    def __str__(self) -> str:
        suffix = f" (deal {self.attempt})" if self.attempt > 1 else ""
        return f"{self.table} hand {self.number}{suffix}"


class HandScore(models.Model):
    """One seat's result in a scored hand: score = card points (x2 down and out) + penalties."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="hand_scores")
    card_points = models.PositiveIntegerField()
    # The cards held, in canonical notation, when the director entered them card by card.
    cards = models.CharField(max_length=200, blank=True)
    penalty_points = models.PositiveIntegerField(default=0)
    score = models.PositiveIntegerField()
    sat_out = models.BooleanField(default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["hand", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="handscore_once_per_seat"),
            models.CheckConstraint(
                condition=Q(card_points__gte=0) & Q(penalty_points__gte=0) & Q(score__gte=0),
                name="handscore_never_negative",
            ),
            models.CheckConstraint(
                condition=Q(score__gte=F("card_points") + F("penalty_points")),
                name="handscore_score_includes_points",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: seat {self.seat.position} {self.score}"


class Penalty(models.Model):
    class Kind(models.TextChoices):
        OVERCALL = "overcall", "Over-call"
        FALSE_LAYDOWN = "false_laydown", "False laydown"
        CHALLENGE = "challenge", "Challenge (Trinidad)"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="penalties")
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="penalties")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    points = models.PositiveIntegerField()
    extra_calls = models.PositiveSmallIntegerField(default=0)
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "penalties"
        ordering = ["hand", "seat__position", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat", "kind"], name="penalty_once_per_kind"),
            models.CheckConstraint(
                condition=Q(kind__in=["overcall", "false_laydown", "challenge"]),
                name="penalty_kind",
            ),
            models.CheckConstraint(
                condition=~Q(kind="overcall") | Q(extra_calls__gte=1),
                name="penalty_overcall_has_extra_calls",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.points} on {self.seat}"


# What a standing says of its entry's results: the figures the pages, the CSV export
# and the archive all carry (with the rank, the movement and the status).
STANDING_FIGURES = (
    "points",
    "table_points",
    "sets_played",
    "sets_incomplete",
    "hands_won",
    "penalty_points",
    "best_set",
)


class Standing(models.Model):
    """An entry's place after (or, while it is in play, during) a round.

    Rebuilt by `core.services.refresh_standings`, never edited by hand.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        ELIMINATED = "eliminated", "Eliminated"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="standings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField(default=0)
    table_points = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    sets_played = models.PositiveSmallIntegerField(default=0)
    # Of the sets played, those over without all their hands, and why: a list of
    # {"round", "table", "played", "hands", "why"} ("withdrew", "short" or "forced").
    sets_incomplete = models.PositiveSmallIntegerField(default=0)
    incomplete = models.JSONField(default=list, blank=True)
    hands_won = models.PositiveSmallIntegerField(default=0)
    penalty_points = models.PositiveIntegerField(default=0)
    best_set = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    movement = models.IntegerField(null=True, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["event", "round", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="standing_once_per_round"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="standing_rank_positive"),
        ]
        indexes = [models.Index(fields=["round", "rank"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry.player} ({self.points})"
