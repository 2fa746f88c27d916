"""The Django admin: every model, for staff."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import DerivedState, Hand, HandScore, Penalty, Proposal, Standing
from tournaments.models import (
    Announcement,
    Entry,
    Event,
    Player,
    PlayerCode,
    Round,
    RoundClock,
    Seat,
    Table,
)


class HandScoreInline(admin.TabularInline):
    model = HandScore
    extra = 0
    fields = ["seat", "card_points", "cards", "penalty_points", "score", "sat_out"]
    raw_id_fields = ["seat"]


class PenaltyInline(admin.TabularInline):
    model = Penalty
    extra = 0
    fields = ["seat", "kind", "points", "extra_calls"]
    raw_id_fields = ["seat"]


class HandsUnderTableInline(admin.TabularInline):
    """A table's hands with every seat's score, read-only: scores change through score
    entry, which checks the rules."""

    model = Hand
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ["number", "attempt", "contract", "outcome", "went_out", "down_and_out", "seat_scores"]
    readonly_fields = fields
    verbose_name_plural = "hands and hand scores"

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("went_out")
            .prefetch_related("scores__seat", "penalties__seat")
        )

    @admin.display(description="scores (seat: card points -> score)")
    def seat_scores(self, hand: Hand) -> str:
        if hand.outcome == Hand.Outcome.REDEAL:
            return "redeal: no score"
        parts = [
            f"{s.seat.position}: {s.card_points} -> {s.score}"
            for s in sorted(hand.scores.all(), key=lambda s: s.seat.position)
        ]
        parts += [
            f"{p.get_kind_display()} seat {p.seat.position} +{p.points}"
            for p in hand.penalties.all()
        ]
        return " · ".join(parts)


@admin.register(Hand)
class HandAdmin(SimpleHistoryAdmin):
    list_display = [
        "__str__",
        "number",
        "attempt",
        "outcome",
        "contract",
        "went_out",
        "down_and_out",
        "version",
        "recorded_by",
        "recorded_at",
    ]
    list_filter = ["table__round__event", "table__round__number", "outcome", "down_and_out"]
    search_fields = ["table__round__event__name", "scores__seat__entry__player__name"]
    list_select_related = ["table__round__event", "went_out", "recorded_by"]
    raw_id_fields = ["table", "went_out"]
    readonly_fields = ["version", "recorded_by", "recorded_at"]
    inlines = [HandScoreInline, PenaltyInline]
    history_list_display = ["outcome", "went_out", "down_and_out", "version"]


@admin.register(HandScore)
class HandScoreAdmin(SimpleHistoryAdmin):
    list_display = ["hand", "seat", "card_points", "cards", "penalty_points", "score"]
    list_filter = ["hand__table__round__event", "hand__table__round__number"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["hand", "seat"]
    list_select_related = ["hand__table__round__event", "seat"]


@admin.register(Penalty)
class PenaltyAdmin(SimpleHistoryAdmin):
    list_display = ["hand", "seat", "kind", "points", "extra_calls"]
    list_filter = ["hand__table__round__event", "kind"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["hand", "seat"]


class ReadOnly:
    """Rows written only through the services (which check the rules and the codes)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Proposal)
class ProposalAdmin(ReadOnly, SimpleHistoryAdmin):
    """Players' entries of hands, with their history (entered, confirmed, disputed)."""

    list_display = ["__str__", "number", "state", "entered_seat", "confirmed_seat", "updated_at"]
    list_filter = ["table__round__event", "table__round__number", "state"]
    search_fields = ["table__round__event__name", "entered_by__player__name"]
    list_select_related = ["table__round__event"]
    history_list_display = ["state", "entered_seat", "confirmed_seat", "disputed_seat"]


@admin.register(PlayerCode)
class PlayerCodeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["entry", "round", "code", "created_at"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["entry__player__name", "round__event__name"]
    list_select_related = ["entry__player", "round__event"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = [
        "rank",
        "entry",
        "points",
        "table_points",
        "sets_played",
        "hands_won",
        "status",
        "round",
    ]
    list_filter = ["event", "round__number", "status"]
    search_fields = ["entry__player__name"]
    list_select_related = ["entry__player", "round"]
    ordering = ["event", "round", "rank"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(DerivedState)
class DerivedStateAdmin(admin.ModelAdmin):
    """Which derived data is stale, since when: kept by the changes, the rebuilds and
    the periodic catch-up, never by hand (core.services.derived)."""

    list_display = ["kind", "key", "dirty_since", "changes", "built", "built_at"]
    list_filter = ["kind"]
    ordering = ["-dirty_since", "kind", "key"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating"]
    search_fields = ["name", "club"]
    list_filter = ["country"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "status", "seed_number"]
    raw_id_fields = ["player"]
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "starts_on", "ruleset", "format", "status", "public"]
    list_filter = ["status", "ruleset", "format", "public", "table_entry"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    readonly_fields = ["standings_version", "screen_version", "created_at", "updated_at"]
    date_hierarchy = "starts_on"


@admin.register(Entry)
class EntryAdmin(SimpleHistoryAdmin):
    list_display = ["player", "event", "status", "seed_number", "registered_at"]
    list_filter = ["event", "status"]
    search_fields = ["player__name", "event__name"]
    raw_id_fields = ["player"]
    list_select_related = ["player", "event"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "locked"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "policy", "seed", "forced_close"]
    list_filter = ["event", "status"]
    search_fields = ["event__name"]
    inlines = [TableInline]
    readonly_fields = ["quality", "published_at", "closed_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "entry", "first_dealer"]
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "round", "number", "locked"]
    list_filter = ["round__event", "round__number", "locked"]
    search_fields = ["round__event__name", "seats__entry__player__name"]
    list_select_related = ["round__event"]

    # Hand scores appear under their table, beside the seats.
    inlines = [SeatInline, HandsUnderTableInline]


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "entry", "position", "first_dealer"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["entry__player__name"]
    raw_id_fields = ["entry", "table", "round"]
    list_select_related = ["table__round__event", "entry__player"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown to staff, changed only through the services (the dashboard and the API),
    which keep the screens' live pages and the history right."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RoundClock)
class RoundClockAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["round", "minutes", "ends_at", "paused_at", "table_extra_s", "updated_at"]
    list_filter = ["round__event"]
    list_select_related = ["round__event"]


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnlyAdmin):
    list_display = ["text", "event", "posted_at", "posted_by", "removed_at", "removed_by"]
    list_filter = ["event", ("removed_at", admin.EmptyFieldListFilter)]
    search_fields = ["text"]
    list_select_related = ["event", "posted_by", "removed_by"]
