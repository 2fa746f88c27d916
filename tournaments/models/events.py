"""An event: its settings (the ruleset, the deck, the format and seating, the agreed
variants, the clock, the prizes) and what the rules engine reads from them, with the
choices its settings take."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy
from simple_history.models import HistoricalRecords

from game.cards import Deck
from game.clock import MAX_MINUTES
from game.identity import new_uid
from game.prizes import DRAW as PRIZE_DRAW
from game.prizes import TIE_POLICIES as PRIZE_TIE_POLICIES
from game.ranking import DEFAULT_TIEBREAKS, draw_commitment, new_draw_seed
from game.rulesets import (
    DIRECTOR_PENALTY_MAX,
    DIRECTOR_PENALTY_MIN,
    TableRules,
    get_ruleset,
    house_ruleset,
    house_table_rules,
)
from game.rulesets import Ruleset as GameRuleset
from game.table_points import DEFAULT_TABLE_POINTS
from tournaments.models.rulesets import HouseRuleset, Ruleset
from tournaments.models.words import said_lazy


def default_table_points() -> list[int]:
    return list(DEFAULT_TABLE_POINTS)


# An event's rule at time unless its director writes their own (`time_rule` None),
# worded in the reader's language when shown.
DEFAULT_TIME_RULE = gettext_noop("At time, the hand in play is finished; no new hand is started.")


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class EventFormat(models.TextChoices):
    TOTAL = "total", gettext_lazy("Total points")
    TABLE_POINTS = "table-points", gettext_lazy("Table points")
    KNOCKOUT = "knockout", gettext_lazy("Knockout")


class SeatingPolicy(models.TextChoices):
    SWISS = "swiss", gettext_lazy("Swiss (neighbours in the standings)")
    MIXER = "mixer", gettext_lazy("Mixer (fewest repeat meetings)")
    RANDOM = "random", gettext_lazy("Random draw")
    SPREAD = "spread", gettext_lazy("Spread by seed")


class OddTables(models.TextChoices):
    FIVES = "fives", gettext_lazy("Tables of five")
    THREES = "threes", gettext_lazy("Tables of three")


class TableEntry(models.TextChoices):
    DIRECTORS = "directors", gettext_lazy("Directors only")
    PLAYERS = "players", gettext_lazy("Players, confirmed by an opponent")


class EventStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("event status", "Draft")
    REGISTRATION = "registration", pgettext_lazy("event status", "Registration")
    RUNNING = "running", pgettext_lazy("event status", "Running")
    FINISHED = "finished", pgettext_lazy("event status", "Finished")


class Event(models.Model):
    Ruleset = Ruleset
    Format = EventFormat
    Seating = SeatingPolicy
    OddTables = OddTables
    Status = EventStatus
    TableEntry = TableEntry

    # "Taken", worded the same whoever holds it: a private one's name stays private.
    slug = models.SlugField(
        max_length=80,
        unique=True,
        error_messages={"unique": "This slug is taken here; choose another."},
    )
    name = models.CharField(max_length=200)
    starts_on = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    ruleset = models.CharField(max_length=16, choices=Ruleset.choices, default=Ruleset.JAMAICA)
    packs = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    jokers = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(0), MaxValueValidator(40)]
    )
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.TOTAL)
    rounds_planned = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    director_penalty = models.PositiveSmallIntegerField(
        default=100,
        validators=[
            MinValueValidator(DIRECTOR_PENALTY_MIN),
            MaxValueValidator(DIRECTOR_PENALTY_MAX),
        ],
        help_text=gettext_lazy(
            "Points for an over-call or a false laydown, agreed before the event."
        ),
    )
    # The agreed variants (RULES.md: "by prior agreement"), read by the rules engine.
    overcall_penalty = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "An over-call costs the director penalty. Off: it is recorded for the "
            "extra cards its calls brought, at no cost."
        ),
    )
    trinidad_doubling = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "A Trinidad set doubles the others' card points on a down and out "
            "(the sources are silent; off by default). Only for a Trinidad set."
        ),
    )
    penalty_per_hand = models.BooleanField(
        default=False,
        help_text=said_lazy(
            gettext_noop(
                "A director may charge a penalty of another amount (%(least)s to %(most)s) "
                "in a hand; off, every penalty costs the agreed amount."
            ),
            {"least": DIRECTOR_PENALTY_MIN, "most": DIRECTOR_PENALTY_MAX},
        ),
    )
    table_points = models.JSONField(
        default=default_table_points,
        help_text=gettext_lazy("Placement points per table, best place first (ties share)."),
    )
    advance_per_table = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    # Knockout: places follow the seats, so a table of three or five gives nobody a
    # better or worse chance than a table of four (`game.ranking_keys.places_by_table`).
    even_knockout_places = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "In a knockout, a table of three or five sends through places in "
            "proportion to its seats (the places left over drawn by table), not as many as a "
            "table of four."
        ),
    )
    seating = models.CharField(max_length=8, choices=Seating.choices, default=Seating.SWISS)
    odd_tables = models.CharField(max_length=8, choices=OddTables.choices, default=OddTables.FIVES)
    public = models.BooleanField(default=True)
    # The language of its pages for a reader who has chosen none and whose browser
    # asks for none the site has (kalooki_site.middleware.LanguageMiddleware).
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default="en",
        help_text=gettext_lazy(
            "The language of the event's pages for a reader who has not chosen one "
            "and whose browser asks for none the site has."
        ),
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    # Who enters the hands: the directors only, or the players at each table (a hand
    # is recorded once another player there confirms it).
    table_entry = models.CharField(
        max_length=10, choices=TableEntry.choices, default=TableEntry.DIRECTORS
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_events"
    )
    tiebreaks = models.JSONField(
        default=default_tiebreaks,
        blank=True,
        help_text=gettext_lazy(
            "How equal standings are separated, in order; a seeded draw always ends it."
        ),
    )
    # The secret seed of the final tiebreak (a draw): random, kept from the public until
    # the results are final, while its commitment (`draw_commitment`) is shown from the
    # start; then revealed, so anyone can recompute every tie it decided.
    draw_seed = models.CharField(max_length=64, default=new_draw_seed, editable=False)
    # Grows each time the standings are rebuilt; pages and caches key on it.
    standings_version = models.PositiveIntegerField(default=0)
    # House rules: the custom ruleset (with `ruleset` "custom"), and its values as
    # copied when the first hand was recorded: what every hand is checked against.
    custom_ruleset = models.ForeignKey(
        HouseRuleset, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    frozen_ruleset = models.JSONField(null=True, blank=True, editable=False)
    # The leg of at most one series.
    series = models.ForeignKey(
        "Series", null=True, blank=True, on_delete=models.SET_NULL, related_name="legs"
    )
    prizes = models.JSONField(
        default=list,
        blank=True,
        help_text=gettext_lazy('Prizes by place: [{"place", "amount", "item"}].'),
    )
    prize_currency = models.CharField(
        max_length=8,
        blank=True,
        default="",
        help_text=gettext_lazy("What the amounts are in, as written before them: J$, TT$, US$."),
    )
    prize_ties = models.CharField(
        max_length=8,
        choices=[(p, p) for p in PRIZE_TIE_POLICIES],
        default=PRIZE_DRAW,
        help_text=gettext_lazy(
            "Players tied on every score before the draw: the draw decides their "
            "prizes, or they share the places' amounts equally."
        ),
    )
    round_minutes = models.PositiveSmallIntegerField(
        default=90,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES)],
        help_text=gettext_lazy(
            "A round's time on the clock unless the director starts it with another."
        ),
    )
    # None: the default rule, worded for each reader (`time_rule_text`); "": no rule
    # shown; else the director's own words, shown as written. Two empty values that
    # mean two things, hence null on a text column.
    time_rule = models.CharField(  # noqa: DJ001
        max_length=300,
        null=True,
        default=None,
        blank=True,
        help_text=gettext_lazy(
            "What happens when a round's time runs out: shown on the screens at time."
        ),
    )
    # Only players a director checked in are seated (each round's check-in starts afresh
    # once a round is seated).
    check_in = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Seat only the players a director checked in before the round."),
    )
    # Seating keeps players of the same club apart (round 1 first, later rounds after
    # repeat meetings).
    club_avoidance = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Keep players of the same club at different tables where possible."),
    )
    # Grows with every change the venue screens show besides the standings (the clock,
    # announcements, the field, the settings); pages and caches key on it too.
    screen_version = models.PositiveIntegerField(default=0)
    # A finished event's results changed: a round was reopened by its director, when,
    # which round and the director's reason (the event's page says so:
    # `results_changed_text`).
    results_changed_at = models.DateTimeField(null=True, blank=True)
    results_changed_round = models.PositiveSmallIntegerField(null=True, blank=True)
    results_changed_reason = models.CharField(max_length=300, blank=True, default="")
    # A leg's final places as its series last counted them, [player, place, shared]
    # (null: never counted): kept while a reopened leg is being corrected, so nobody
    # drops out of the series meanwhile (`core.series.standings`).
    series_places = models.JSONField(null=True, blank=True, editable=False)
    # The event's identity (`game.identity`): made at creation, carried by its archive,
    # so an import of an event this site holds replaces it or is kept as a copy.
    uid = models.UUIDField(default=new_uid, editable=False, db_index=True)
    # Whether its played sets count in the ratings and its series: one event of an
    # identity at most (the database holds it); a copy kept beside it counts only
    # once an organiser puts it in instead (`core.copies.services.count_copy`).
    counted = models.BooleanField(default=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Every change of a setting, who made it and when; the versions the pages key on
    # move on their own and are not settings.
    history = HistoricalRecords(
        excluded_fields=["standings_version", "screen_version", "series_places"],
        history_change_reason_field=models.TextField(null=True),
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(director_penalty__gte=DIRECTOR_PENALTY_MIN)
                & Q(director_penalty__lte=DIRECTOR_PENALTY_MAX),
                name="event_director_penalty_range",
                violation_error_message="The director penalty must be between "
                f"{DIRECTOR_PENALTY_MIN} and {DIRECTOR_PENALTY_MAX}.",
            ),
            models.CheckConstraint(condition=Q(packs__gte=1), name="event_packs_min"),
            models.CheckConstraint(condition=Q(rounds_planned__gte=1), name="event_rounds_min"),
            models.CheckConstraint(
                condition=Q(advance_per_table__gte=1) & Q(advance_per_table__lte=5),
                name="event_advance_range",
            ),
            models.CheckConstraint(condition=Q(ruleset__in=Ruleset.values), name="event_ruleset"),
            models.CheckConstraint(condition=Q(format__in=EventFormat.values), name="event_format"),
            models.CheckConstraint(condition=Q(status__in=EventStatus.values), name="event_status"),
            models.CheckConstraint(
                condition=Q(table_entry__in=TableEntry.values), name="event_table_entry"
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=1) & Q(round_minutes__lte=MAX_MINUTES),
                name="event_round_minutes_range",
            ),
            # One played set never counts twice: of the events sharing an identity (an
            # event and its copies), one at most counts.
            models.UniqueConstraint(
                fields=["uid"],
                condition=Q(counted=True),
                name="event_counted_once",
                violation_error_message="Another event of this identity counts already.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def time_rule_text(self) -> str:
        """The rule at time as the screens show it, in the reader's language when it is
        the default ("" when the director chose to show none)."""
        return gettext(DEFAULT_TIME_RULE) if self.time_rule is None else self.time_rule

    @property
    def results_changed_text(self) -> str:
        """Which round was reopened and why, in the reader's language (the director's
        reason as written); a text stored otherwise, as it is."""
        if self.results_changed_round is None:
            return self.results_changed_reason
        return gettext("Round %(round)s reopened: %(reason)s") % {
            "round": self.results_changed_round,
            "reason": self.results_changed_reason,
        }

    @property
    def draw_commitment(self) -> str:
        """The SHA-256 of the draw seed, shown from creation."""
        return draw_commitment(self.draw_seed)

    @property
    def draw_revealed(self) -> bool:
        """The seed is revealed once the results are final: the event is finished."""
        return self.status == self.Status.FINISHED

    @property
    def house_values(self) -> dict | None:
        """The custom ruleset's values this event plays to: frozen once a hand is
        recorded, the ruleset's current ones before (None: a built-in ruleset)."""
        if self.ruleset != Ruleset.CUSTOM:
            return None
        if self.frozen_ruleset:
            return self.frozen_ruleset
        return self.custom_ruleset.values() if self.custom_ruleset_id else None

    @property
    def rules(self) -> GameRuleset:
        """The event's ruleset as the rules engine reads it: the hands, deals, contracts."""
        values = self.house_values
        if values is not None:
            return house_ruleset(values["slug"], values["name"], values)
        return get_ruleset(self.ruleset)

    @property
    def deck(self) -> Deck:
        values = self.house_values
        if values is not None:  # house rules say how many jokers each pack brings
            return Deck(packs=self.packs, jokers=self.packs * values["jokers_per_pack"])
        return Deck(packs=self.packs, jokers=self.jokers)

    @property
    def table_rules(self) -> TableRules:
        """What the event agreed, as the rules engine reads it for every hand."""
        values = self.house_values
        if values is not None:
            return house_table_rules(values, penalty_per_hand=self.penalty_per_hand)
        return TableRules(
            director_penalty=self.director_penalty,
            overcall_penalty=self.overcall_penalty,
            down_and_out=True if self.trinidad_doubling else None,
            penalty_per_hand=self.penalty_per_hand,
        )

    @property
    def largest_table(self) -> int:
        """The most players the event's seating puts at a table: five when the odd
        players go to tables of five, else four (a director's move may add more; a
        round is checked again when it is published)."""
        return 5 if self.odd_tables == OddTables.FIVES else 4
