"""Hands, hand scores, director penalties and standings.

A hand number at a table may be dealt more than once: every redeal is kept as its
own attempt, and at most one attempt per number is scored. The rules of a valid hand
live in `game.rules`; the constraints here are what the database itself can hold.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy, pgettext_lazy
from simple_history.models import HistoricalRecords

from tournaments.models import Entry, Event, Player, Round, Seat, Series, Table


class Hand(models.Model):
    class Outcome(models.TextChoices):
        SCORED = "scored", pgettext_lazy("hand outcome", "Scored")
        REDEAL = "redeal", gettext_lazy("Redeal (no score)")

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
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

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
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

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


class AdjustedScore(models.Model):
    """A hand a seat could not play through no fault of its own (time, a forced close,
    a table left with fewer than three), scored from the field once its round closed
    (`game.adjusted`): made when a round closes, dropped when it is reopened, made
    again by a full rebuild. Never entered by hand."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="adjusted_scores")
    number = models.PositiveSmallIntegerField()  # the hand number
    score = models.PositiveIntegerField()
    # The director marked the seat at fault (slow play): a documented worse score.
    at_fault = models.BooleanField(default=False)
    rule = models.CharField(max_length=16)  # game.adjusted: RULES or AT_FAULT

    class Meta:
        ordering = ["seat", "number"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "number"], name="adjusted_once_per_hand"),
            models.CheckConstraint(condition=Q(number__gte=1), name="adjusted_hand_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} hand {self.number} adjusted {self.score}"


class Penalty(models.Model):
    class Kind(models.TextChoices):
        OVERCALL = "overcall", gettext_lazy("Over-call")
        FALSE_LAYDOWN = "false_laydown", gettext_lazy("False laydown")
        CHALLENGE = "challenge", gettext_lazy("Challenge (Trinidad)")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="penalties")
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="penalties")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    points = models.PositiveIntegerField()
    extra_calls = models.PositiveSmallIntegerField(default=0)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

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


class Proposal(models.Model):
    """A hand as a player at the table entered it, waiting for another player there to
    confirm it (then it is recorded through `core.services.record_hand`, as if a
    director had sent it) or to dispute it (the director decides).

    Every proposal is kept, with its history: a later one for the same hand replaces
    it, and a director's entry for the hand overrules it. At most one is open (pending
    or disputed) per hand at a table.
    """

    class State(models.TextChoices):
        PENDING = "pending", gettext_lazy("Waiting for confirmation")
        DISPUTED = "disputed", pgettext_lazy("entry state", "Disputed")
        RECORDED = "recorded", gettext_lazy("Confirmed and recorded")
        REPLACED = "replaced", gettext_lazy("Replaced by a later entry")
        OVERRULED = "overruled", gettext_lazy("Overruled by a director's entry")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="proposals")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    # The hand as entered, in the API's shape (`core.table_entry.selectors.entry_document`).
    entry = models.JSONField()
    # The hand's version it was entered against (0: not recorded yet).
    base_version = models.PositiveIntegerField(default=0)
    # Who entered, confirmed or disputed it: the player, and their seat at the time.
    entered_by = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="+")
    entered_seat = models.PositiveSmallIntegerField()
    confirmed_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    confirmed_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    disputed_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    disputed_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The disputing player's own version of the hand, when they gave one.
    alternative = models.JSONField(null=True, blank=True)
    # Which entry of this hand at this table it is (1, 2, ...): it grows each time the
    # table enters the hand again, so a confirmation can name the entry its player saw.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    OPEN = (State.PENDING, State.DISPUTED)

    class Meta:
        ordering = ["table", "number", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(state__in=["pending", "disputed"]),
                name="proposal_one_open_per_hand",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "disputed", "recorded", "replaced", "overruled"]),
                name="proposal_state",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="proposal_number_positive"),
            models.CheckConstraint(
                condition=~Q(state="recorded") | Q(confirmed_by__isnull=False),
                name="proposal_recorded_was_confirmed",
            ),
            models.CheckConstraint(
                condition=~Q(state="disputed") | Q(disputed_by__isnull=False),
                name="proposal_disputed_by_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}: {self.get_state_display().lower()}"


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
    "adjusted_hands",
    "at_fault_hands",
)


class Standing(models.Model):
    """An entry's place after (or, while it is in play, during) a round.

    Rebuilt by `core.services.refresh_standings`, never edited by hand.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("player status", "Active")
        ELIMINATED = "eliminated", pgettext_lazy("player status", "Eliminated")
        WITHDRAWN = "withdrawn", pgettext_lazy("player status", "Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    # No index of its own: the unique (round, entry) constraint's serves a round's rows.
    # Nor is `rank` indexed: a rebuild moves about half of a round's rows (their rank and
    # movement) and, with neither indexed, PostgreSQL updates each in place in its page
    # (a heap-only update: no index written, the old version pruned with the page), on a
    # table kept with room in its pages (fillfactor, migration 0014). A round's rows are
    # read whole and sorted by rank as they are read (4,096 at most).
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
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
    # Hands scored by adjustment (in `points`), of them at fault, and each one:
    # {"round", "table", "hand", "score", "at_fault", "rule"}.
    adjusted_hands = models.PositiveSmallIntegerField(default=0)
    at_fault_hands = models.PositiveSmallIntegerField(default=0)
    adjusted = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    # Knockout: the rounds the entry went through in on a place another table could
    # not fill (fewer complete sets there than places), as the best of the rest.
    filled_in = models.JSONField(default=list, blank=True)
    movement = models.IntegerField(null=True, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["event", "round", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="standing_once_per_round"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="standing_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry.player} ({self.points})"


class DerivedState(models.Model):
    """Whether a piece of derived data is up to date with what it is built from.

    One row per thing derived (`kind` names the rebuild job, `key` the id it is built
    for: an event's standings, a series' standings, a round's seating, and the site's
    ratings under key 0; the jobs' names are in `core.jobs` and `core.ratings.services`).
    Every change to the sources bumps `changes` and sets `dirty_since` in the change's own
    transaction; a rebuild notes `changes` before it reads the sources and, when it
    commits, clears `dirty_since` only if nothing changed meanwhile. So whatever a
    broker or a worker loses on the way, the database still says what is stale, and
    the periodic catch-up (`core.derived.catch_up`) rebuilds it.
    """

    kind = models.CharField(max_length=60)
    key = models.BigIntegerField()
    changes = models.PositiveBigIntegerField(default=0)
    built = models.PositiveBigIntegerField(
        default=0, help_text="`changes` as the latest rebuild saw it"
    )
    dirty_since = models.DateTimeField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="derived_state_once")]
        indexes = [
            models.Index(
                fields=["dirty_since"],
                condition=Q(dirty_since__isnull=False),
                name="derived_state_dirty",
            )
        ]

    def __str__(self) -> str:
        state = f"stale since {self.dirty_since:%H:%M:%S}" if self.dirty_since else "up to date"
        return f"{self.kind} {self.key}: {state}"


# --- Ratings across events (derived data: rebuilt by `core.ratings.services`) -----------


class RatingBook(models.Model):
    """The one row that serialises rating rebuilds (its row lock) and counts them
    (`version`, which pages and caches key on)."""

    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings, version {self.version}"


class RatedRound(models.Model):
    """A closed round whose sets have been applied to the ratings, at its place in the
    one global order (`sequence` 1, 2, ...: rounds by their closing time, then id)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="rated")
    sequence = models.PositiveIntegerField(unique=True)
    closed_at = models.DateTimeField(help_text="the round's closing time when it was applied")
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sequence"]

    def __str__(self) -> str:
        return f"#{self.sequence}: {self.round}"


class PlayerRating(models.Model):
    """A player's current rating: OpenSkill mu and sigma, shown as mu - 3 sigma."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="skill")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="mu - 3 sigma, what is shown and ranked on")
    sets = models.PositiveIntegerField(default=0)
    # How the shown rating moved in the player's latest rated round.
    movement = models.FloatField(default=0)
    rated_round = models.ForeignKey(
        RatedRound, on_delete=models.CASCADE, related_name="+", help_text="latest rated round"
    )

    class Meta:
        ordering = ["-rating", "player_id"]
        indexes = [models.Index(fields=["-rating", "player"], name="player_rating_order")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f}"


class RatingChange(models.Model):
    """A player's rating after one rated round they played a complete set in."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    rated_round = models.ForeignKey(RatedRound, on_delete=models.CASCADE, related_name="changes")
    sequence = models.PositiveIntegerField()  # the rated round's, for ordering
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    before = models.FloatField(help_text="the shown rating before this round")
    sets = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["player", "rated_round"], name="rating_change_once")
        ]
        indexes = [models.Index(fields=["player", "sequence"], name="rating_change_player")]

    def __str__(self) -> str:
        return f"{self.player} after #{self.sequence}: {self.rating:.2f}"


class SeriesStanding(models.Model):
    """A player's place in a series: rebuilt from the legs' final standings by
    `core.series.standings`, never edited by hand. `results` lists their legs in order:
    {"event", "name", "place", "points", "counted", "shared", "provisional"}."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="series_standings")
    rank = models.PositiveIntegerField()
    # Fractional where a leg's place was shared (two level for 1st on 100, 80: 90 each).
    points = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    events_played = models.PositiveSmallIntegerField(default=0)
    best_place = models.PositiveIntegerField()
    results = models.JSONField(default=list)
    qualified = models.BooleanField(default=False)
    # Tied on every score before the draw with the players of the same group.
    tie_group = models.PositiveIntegerField(default=0)
    # What placed the player below the row above (`game.series.DECIDED_BY`; "": first),
    # and the latest leg the countback compared them in.
    decided_by = models.CharField(max_length=12, blank=True, default="")
    latest_leg = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        ordering = ["series", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="series_standing_once"),
            models.UniqueConstraint(fields=["series", "rank"], name="series_rank_once"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="series_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} ({self.points})"


class SetTotal(models.Model):
    """One seat's set as it stands: the sums over its scored hands, kept up to date by
    the transaction that saves or deletes a hand at its table
    (`core.hands.set_totals`), so a standings rebuild ranks from one row per set
    instead of adding up every hand score of the event. A full rebuild
    (`manage.py rebuild_standings`, an import, a reopened round) writes them all
    again from the hand scores."""

    seat = models.OneToOneField(
        Seat, primary_key=True, on_delete=models.CASCADE, related_name="set_total"
    )
    # No foreign-key constraint in the database: checking one would take a share lock
    # on the event's row, which a standings rebuild holds for update, so every hand
    # save would wait for the rebuild running. Deleting the event still deletes these.
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    total = models.PositiveIntegerField(default=0)
    penalty_points = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveSmallIntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.seat}: {self.total} after {self.hands_played} hands"
