"""A series of events (a circuit or a season) and its final."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from game.prizes import DRAW as PRIZE_DRAW
from game.prizes import TIE_POLICIES as PRIZE_TIE_POLICIES
from game.ranking import draw_commitment, new_draw_seed
from game.series import default_points_scale
from tournaments.models.events import Event


class Series(models.Model):
    """A circuit or season of events (the legs): series points by final place in each
    leg, the best `best_of` of a player's legs counting, the first `qualifiers` going to
    the final. Its standings (`scoring.SeriesStanding`) are rebuilt by a background job
    (`core.series.standings`), never edited by hand."""

    # "Taken", worded the same whoever holds it: a private one's name stays private.
    slug = models.SlugField(
        max_length=80,
        unique=True,
        error_messages={"unique": "This slug is taken here; choose another."},
    )
    name = models.CharField(max_length=200)
    season = models.CharField(max_length=40, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_series"
    )
    public = models.BooleanField(default=True)
    points_scale = models.JSONField(
        default=default_points_scale,
        help_text=gettext_lazy(
            "Series points by final place in a leg, best first; places beyond score 0."
        ),
    )
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=gettext_lazy("How many of a player's legs count (their best); empty: all."),
    )
    qualifiers = models.PositiveSmallIntegerField(default=16, validators=[MaxValueValidator(1000)])
    final = models.OneToOneField(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="final_of"
    )
    # The final starts from a carried-over score: the series leader at 0, each rank
    # below `carry_over_step` more penalty points (0: everyone starts level).
    carry_over_step = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(500)]
    )
    # Players level with the last qualifier after the countback's non-random steps all
    # qualify (off: the series' draw decides who takes the last places).
    ties_qualify = models.BooleanField(default=False)
    # What an entrant of the final who is not a qualifier (a wildcard, a reserve) carries
    # into it; empty: the lowest qualifier's carry.
    wildcard_carry = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(100_000)]
    )
    # The final was seeded while counted legs were unfinished: the organiser's reason.
    final_forced_reason = models.CharField(max_length=300, blank=True, default="")
    # How the final's entries were seeded: "series" (by series rank) or "rating".
    final_seed_by = models.CharField(max_length=8, blank=True, default="")
    # Once the final's first hand is recorded the qualification is frozen: a change to
    # the series' legs or their results is refused until the organiser reopens it, when
    # and why (kept, shown on the series' page).
    reopened_at = models.DateTimeField(null=True, blank=True, editable=False)
    reopened_reason = models.CharField(max_length=300, blank=True, default="")
    prizes = models.JSONField(default=list, blank=True)
    prize_currency = models.CharField(max_length=8, blank=True, default="")
    prize_ties = models.CharField(
        max_length=8, choices=[(p, p) for p in PRIZE_TIE_POLICIES], default=PRIZE_DRAW
    )
    # The secret seed of the final tiebreak (a draw): random, kept from the public until
    # the results are final, while its commitment (`draw_commitment`) is shown from the
    # start; then revealed, so anyone can recompute every tie it decided.
    draw_seed = models.CharField(max_length=64, default=new_draw_seed, editable=False)
    # When the final's entries were seeded from the series standings (`create_final`).
    final_seeded_at = models.DateTimeField(null=True, blank=True, editable=False)
    standings_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        verbose_name_plural = "series"
        ordering = ["-season", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="series_best_of_min"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()

    @property
    def draw_commitment(self) -> str:
        """The SHA-256 of the draw seed, shown from creation."""
        return draw_commitment(self.draw_seed)

    @property
    def draw_revealed(self) -> bool:
        """The seed is revealed once the qualification is final: the final is seeded."""
        return self.final_seeded_at is not None
