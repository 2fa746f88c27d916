"""The Django admin: every model, for staff.

Hands, hand scores and penalties are read-only here, and so are a round's state, a
seat's leave point and an entry's status: they change only through the director's
pages and the API (`core.services`), which check the rules, raise the hand's version,
keep the history and rebuild the standings. Each hand links to its table's sheet.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from core import services
from core.errors import ServiceError
from core.services import EVENT_FIELDS
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

WHERE_TO_CHANGE = (
    "Read-only here: change it on the director's sheet (or through the API), which checks "
    "the rules, keeps the history and rebuilds the standings."
)


class ReadOnly:
    """Nothing added, changed or deleted from the admin: only seen."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SheetRow(ReadOnly):
    """A hand, a hand score or a penalty: read-only, saying where it changes, with a
    link to its hand on the table's sheet."""

    def hand_of(self, obj) -> Hand:
        return obj.hand

    @admin.display(description="changes")
    def where_to_change(self, obj) -> str:
        return WHERE_TO_CHANGE

    @admin.display(description="sheet")
    def sheet(self, obj) -> str:
        hand = self.hand_of(obj)
        return sheet_link(hand.table, hand.number)


def sheet_link(table: Table, hand: int | None = None) -> str:
    """A link to the table's sheet on the director's pages (at the hand, if given)."""
    args = [table.round.event.slug, table.round.number, table.number]
    try:
        url = reverse("director:sheet", args=args)
    except NoReverseMatch:  # a site without the director's pages
        return "-"
    anchor = f"#hand-{hand}" if hand is not None else ""
    return format_html(
        '<a href="{}{}">Table {}, round {}: the director\'s sheet</a>',
        url,
        anchor,
        table.number,
        table.round.number,
    )


class HandScoreInline(ReadOnly, admin.TabularInline):
    model = HandScore
    extra = 0
    fields = ["seat", "card_points", "cards", "penalty_points", "score", "sat_out"]
    raw_id_fields = ["seat"]


class PenaltyInline(ReadOnly, admin.TabularInline):
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
class HandAdmin(SheetRow, SimpleHistoryAdmin):
    list_display = [
        "__str__",
        "sheet",
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
    readonly_fields = ["where_to_change", "sheet", "version", "recorded_by", "recorded_at"]
    inlines = [HandScoreInline, PenaltyInline]
    history_list_display = ["outcome", "went_out", "down_and_out", "version"]

    def hand_of(self, obj: Hand) -> Hand:
        return obj


@admin.register(HandScore)
class HandScoreAdmin(SheetRow, SimpleHistoryAdmin):
    list_display = ["hand", "seat", "card_points", "cards", "penalty_points", "score", "sheet"]
    list_filter = ["hand__table__round__event", "hand__table__round__number"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["hand", "seat"]
    readonly_fields = ["where_to_change", "sheet"]
    list_select_related = ["hand__table__round__event", "seat"]


@admin.register(Penalty)
class PenaltyAdmin(SheetRow, SimpleHistoryAdmin):
    list_display = ["hand", "seat", "kind", "points", "extra_calls", "sheet"]
    list_filter = ["hand__table__round__event", "kind"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["hand", "seat"]
    readonly_fields = ["where_to_change", "sheet"]
    list_select_related = ["hand__table__round__event", "seat"]


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
    readonly_fields = ["status"]  # withdrawing goes through the director's pages
    raw_id_fields = ["player"]
    show_change_link = True


class EventForm(forms.ModelForm):
    """The event's settings, checked by the same rules as the API's (the deck against
    the deal, Trinidad doubling, settings frozen once hands exist, finishing)."""

    class Meta:
        model = Event
        fields = [*EVENT_FIELDS, "draw_seed", "directors"]

    def clean(self):
        cleaned = super().clean()
        settings = {name: cleaned[name] for name in EVENT_FIELDS if name in cleaned}
        try:
            if self.instance.pk:
                changed = {name: settings[name] for name in self.changed_data if name in settings}
                services.check_update(Event.objects.get(pk=self.instance.pk), changed)
            else:
                services.check_event(Event(**settings))
        except ServiceError as error:
            for name, messages in error.errors.items():
                self.add_error(name if name in self.fields else None, messages)
        return cleaned


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventForm
    list_display = ["name", "slug", "starts_on", "ruleset", "format", "status", "public"]
    list_filter = ["status", "ruleset", "format", "public", "table_entry"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    readonly_fields = ["standings_version", "screen_version", "created_at", "updated_at"]
    date_hierarchy = "starts_on"

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "status" in form.changed_data:
            services.queue_standings_refresh(obj)  # finished or not: what "final" says


@admin.register(Entry)
class EntryAdmin(SimpleHistoryAdmin):
    list_display = ["player", "event", "status", "seed_number", "registered_at"]
    list_filter = ["event", "status"]
    search_fields = ["player__name", "event__name"]
    raw_id_fields = ["player"]
    # Withdrawing (with a leave point) and registering again go through the services.
    readonly_fields = ["status", "withdrawn_at"]
    list_select_related = ["player", "event"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "locked", "closed_after_hand"]
    readonly_fields = ["closed_after_hand"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["event", "number", "status", "policy", "seed", "forced_close"]
    list_filter = ["event", "status"]
    search_fields = ["event__name"]
    inlines = [TableInline]
    # Publishing, closing (or forcing) and reopening go through the services.
    readonly_fields = ["status", "forced_close", "quality", "published_at", "closed_at"]
    history_list_display = ["status", "forced_close"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "entry", "first_dealer", "left_after_hand"]
    readonly_fields = ["left_after_hand"]
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "round", "number", "locked"]
    list_filter = ["round__event", "round__number", "locked"]
    search_fields = ["round__event__name", "seats__entry__player__name"]
    list_select_related = ["round__event"]
    readonly_fields = ["closed_after_hand", "sheet"]

    # Hand scores appear under their table, beside the seats.
    inlines = [SeatInline, HandsUnderTableInline]

    @admin.display(description="sheet")
    def sheet(self, table: Table) -> str:
        return sheet_link(table)


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "entry", "position", "first_dealer"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["entry__player__name"]
    raw_id_fields = ["entry", "table", "round"]
    readonly_fields = ["left_after_hand"]  # a leave point changes through the services
    list_select_related = ["table__round__event", "entry__player"]


@admin.register(RoundClock)
class RoundClockAdmin(ReadOnly, SimpleHistoryAdmin):
    list_display = ["round", "minutes", "ends_at", "paused_at", "table_extra_s", "updated_at"]
    list_filter = ["round__event"]
    list_select_related = ["round__event"]


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["text", "event", "posted_at", "posted_by", "removed_at", "removed_by"]
    list_filter = ["event", ("removed_at", admin.EmptyFieldListFilter)]
    search_fields = ["text"]
    list_select_related = ["event", "posted_by", "removed_by"]
