"""Events, players, entries, rounds, tables and seats.

Every invariant the database can hold is a constraint here; the rest (a table has 3
to 6 seats, a round starts only after the previous one closed) is checked in
`core.services` before anything is written.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from game.cards import Deck
from game.clock import MAX_MINUTES
from game.clock import Clock as GameClock
from game.prizes import DRAW as PRIZE_DRAW
from game.prizes import TIE_POLICIES as PRIZE_TIE_POLICIES
from game.rulesets import Ruleset as GameRuleset
from game.rulesets import TableRules, get_ruleset, house_ruleset, house_table_rules
from game.series import default_points_scale

DIRECTOR_PENALTY_MIN = 50
DIRECTOR_PENALTY_MAX = 500
DEFAULT_TABLE_POINTS = [4, 2, 1, 0]


def default_table_points() -> list[int]:
    return list(DEFAULT_TABLE_POINTS)


DEFAULT_TIME_RULE = "At time, the hand in play is finished; no new hand is started."

DEFAULT_TIEBREAKS = ["points", "hands_won", "penalty_points", "best_set", "draw"]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


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


class Ruleset(models.TextChoices):
    JAMAICA = "jamaica", "Jamaica (9 hands, 9-16 cards)"
    JAMAICA_12 = "jamaica-12", "Jamaica, 12 cards in hands 1-3"
    TRINIDAD = "trinidad", "Trinidad (7 hands of 12)"
    CUSTOM = "custom", "Custom (house rules)"


def default_house_hands() -> list[dict]:
    return [{"cards_dealt": 9 + i, "threes": 3 - i, "fours": i} for i in range(4)]


class HouseRuleset(models.Model):
    """A custom ruleset ("house rules"), defined once and used by many events. An event
    copies its values when its first hand is recorded (`Event.frozen_ruleset`), so an
    edit here never changes a result already played."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    hands = models.JSONField(
        default=default_house_hands,
        help_text='Each hand in order: {"cards_dealt", "threes", "fours"}.',
    )
    jokers_per_pack = models.PositiveSmallIntegerField(default=2)
    overcall_penalty = models.PositiveSmallIntegerField(default=100)
    false_laydown_penalty = models.PositiveSmallIntegerField(default=100)
    down_and_out_doubles = models.BooleanField(default=True)
    owners = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="house_rulesets"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    VALUE_FIELDS = (
        "hands",
        "jokers_per_pack",
        "overcall_penalty",
        "false_laydown_penalty",
        "down_and_out_doubles",
    )

    def values(self) -> dict:
        """What an event freezes: everything the rules engine reads, and the name."""
        found = {name: getattr(self, name) for name in self.VALUE_FIELDS}
        return {"slug": self.slug, "name": self.name, **found}


class EventFormat(models.TextChoices):
    TOTAL = "total", "Total points"
    TABLE_POINTS = "table-points", "Table points"
    KNOCKOUT = "knockout", "Knockout"


class SeatingPolicy(models.TextChoices):
    SWISS = "swiss", "Swiss (neighbours in the standings)"
    MIXER = "mixer", "Mixer (fewest repeat meetings)"
    RANDOM = "random", "Random draw"
    SPREAD = "spread", "Spread by seed"


class OddTables(models.TextChoices):
    FIVES = "fives", "Tables of five"
    THREES = "threes", "Tables of three"


class TableEntry(models.TextChoices):
    DIRECTORS = "directors", "Directors only"
    PLAYERS = "players", "Players, confirmed by an opponent"


class EventStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Registration"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Event(models.Model):
    Ruleset = Ruleset
    Format = EventFormat
    Seating = SeatingPolicy
    OddTables = OddTables
    Status = EventStatus
    TableEntry = TableEntry

    slug = models.SlugField(max_length=80, unique=True)
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
        help_text="Points for an over-call or a false laydown, agreed before the event.",
    )
    # The agreed variants (RULES.md: "by prior agreement"), read by the rules engine.
    overcall_penalty = models.BooleanField(
        default=True,
        help_text="An over-call costs the director penalty. Off: it is recorded for the "
        "extra cards its calls brought, at no cost.",
    )
    trinidad_doubling = models.BooleanField(
        default=False,
        help_text="A Trinidad set doubles the others' card points on a down and out "
        "(the sources are silent; off by default). Only for a Trinidad set.",
    )
    penalty_per_hand = models.BooleanField(
        default=False,
        help_text="A director may charge a penalty of another amount (50 to 500) in a hand; "
        "off, every penalty costs the agreed amount.",
    )
    table_points = models.JSONField(
        default=default_table_points,
        help_text="Placement points per table, best place first (ties share).",
    )
    advance_per_table = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    seating = models.CharField(max_length=8, choices=Seating.choices, default=Seating.SWISS)
    odd_tables = models.CharField(max_length=8, choices=OddTables.choices, default=OddTables.FIVES)
    public = models.BooleanField(default=True)
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
        help_text="How equal standings are separated, in order; a seeded draw always ends it.",
    )
    # The seed of the final tiebreak (a draw), recorded so the order can be reproduced.
    draw_seed = models.BigIntegerField(default=0)
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
        default=list, blank=True, help_text='Prizes by place: [{"place", "amount", "item"}].'
    )
    prize_ties = models.CharField(
        max_length=8,
        choices=[(p, p) for p in PRIZE_TIE_POLICIES],
        default=PRIZE_DRAW,
        help_text="Players tied on every score before the draw: the draw decides their "
        "prizes, or they share the places' amounts equally.",
    )
    round_minutes = models.PositiveSmallIntegerField(
        default=90,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES)],
        help_text="A round's time on the clock unless the director starts it with another.",
    )
    time_rule = models.CharField(
        max_length=300,
        default=DEFAULT_TIME_RULE,
        blank=True,
        help_text="What happens when a round's time runs out: shown on the screens at time.",
    )
    # Only players a director checked in are seated (each round's check-in starts afresh
    # once a round is seated).
    check_in = models.BooleanField(
        default=False,
        help_text="Seat only the players a director checked in before the round.",
    )
    # Seating keeps players of the same club apart (round 1 first, later rounds after
    # repeat meetings).
    club_avoidance = models.BooleanField(
        default=False,
        help_text="Keep players of the same club at different tables where possible.",
    )
    # Grows with every change the venue screens show besides the standings (the clock,
    # announcements, the field, the settings); pages and caches key on it too.
    screen_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Every change of a setting, who made it and when; the versions the pages key on
    # move on their own and are not settings.
    history = HistoricalRecords(excluded_fields=["standings_version", "screen_version"])

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(director_penalty__gte=DIRECTOR_PENALTY_MIN)
                & Q(director_penalty__lte=DIRECTOR_PENALTY_MAX),
                name="event_director_penalty_range",
                violation_error_message="The director penalty must be between 50 and 500.",
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
        ]

    def __str__(self) -> str:
        return self.name

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


class Entry(models.Model):
    """A player registered in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"

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
    history = HistoricalRecords()

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


class Round(models.Model):
    class Status(models.TextChoices):
        SEATING = "seating", "Seating (being computed)"
        DRAFT = "draft", "Draft seating"
        PUBLISHED = "published", "Published (in play)"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SEATING)
    policy = models.CharField(max_length=12, default="random")
    seed = models.BigIntegerField(default=0)
    quality = models.JSONField(default=dict, blank=True)
    forced_close = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Who closed, force-closed or reopened the round, and when.
    history = HistoricalRecords()

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
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


MIN_SEATS = 3
MAX_SEATS = 6


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
    history = HistoricalRecords()

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
    history = HistoricalRecords()

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


class Series(models.Model):
    """A circuit or season of events (the legs): series points by final place in each
    leg, the best `best_of` of a player's legs counting, the first `qualifiers` going to
    the final. Its standings (`scoring.SeriesStanding`) are rebuilt by a background job
    (`core.series.services`), never edited by hand."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    season = models.CharField(max_length=40, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_series"
    )
    public = models.BooleanField(default=True)
    points_scale = models.JSONField(
        default=default_points_scale,
        help_text="Series points by final place in a leg, best first; places beyond score 0.",
    )
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text="How many of a player's legs count (their best); empty: all.",
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
    prizes = models.JSONField(default=list, blank=True)
    prize_ties = models.CharField(
        max_length=8, choices=[(p, p) for p in PRIZE_TIE_POLICIES], default=PRIZE_DRAW
    )
    draw_seed = models.BigIntegerField(default=0)
    standings_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

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


class SiteSetting(models.Model):
    """Settings of the whole installation a director may change from the pages (one
    row): the site's public address, used in the QR codes. Empty: the SITE_URL setting."""

    site_url = models.URLField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    def __str__(self) -> str:
        return self.site_url or "(the SITE_URL setting)"
