"""Hands, hand scores, penalties, players' entries and codes: read-only, each hand
linking to its table's sheet, where scores change through the rules."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.admin.common import (
    HistoryAdmin,
    PlayerColumn,
    ReadOnly,
    SheetRow,
    WentOutColumn,
    seat_name,
)
from scoring.models import (
    AdjustedScore,
    Hand,
    HandScore,
    Penalty,
    Proposal,
)
from tournaments.models import (
    PlayerCode,
)


class HandScoreInline(PlayerColumn, ReadOnly, admin.TabularInline):
    model = HandScore
    extra = 0
    fields = ["player", "card_points", "cards", "penalty_points", "score", "sat_out"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("seat__entry__player")


class PenaltyInline(PlayerColumn, ReadOnly, admin.TabularInline):
    model = Penalty
    extra = 0
    fields = ["player", "kind", "points", "extra_calls"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("seat__entry__player")


class HandsUnderTableInline(WentOutColumn, ReadOnly, admin.TabularInline):
    """A table's hands with every seat's score, read-only: scores change through score
    entry, which checks the rules."""

    model = Hand
    extra = 0
    show_change_link = True
    fields = [
        "number",
        "attempt",
        "contract",
        "outcome",
        "went_out_player",
        "down_and_out",
        "seat_scores",
    ]
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("hands and hand scores")

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("went_out__entry__player")
            .prefetch_related("scores__seat__entry__player", "penalties__seat__entry__player")
        )

    @admin.display(description=gettext_lazy("scores (player: card points -> score)"))
    def seat_scores(self, hand: Hand) -> str:
        if hand.outcome == Hand.Outcome.REDEAL:
            return _("redeal: no score")
        parts = [
            f"{seat_name(s.seat)}: {s.card_points} -> {s.score}"
            for s in sorted(hand.scores.all(), key=lambda s: s.seat.position)
        ]
        parts += [
            f"{p.get_kind_display()} {seat_name(p.seat)} +{p.points}" for p in hand.penalties.all()
        ]
        return " · ".join(parts)


@admin.register(Hand)
class HandAdmin(WentOutColumn, SheetRow, HistoryAdmin):
    list_display = [
        "__str__",
        "sheet",
        "number",
        "attempt",
        "outcome",
        "contract",
        "went_out_player",
        "down_and_out",
        "version",
        "recorded_by",
        "recorded_at",
    ]
    list_filter = ["table__round__event", "table__round__number", "outcome", "down_and_out"]
    search_fields = ["table__round__event__name", "scores__seat__entry__player__name"]
    list_select_related = ["table__round__event", "went_out__entry__player", "recorded_by"]
    raw_id_fields = ["table"]
    exclude = ["went_out"]  # shown by its player's name instead of the seat's row
    readonly_fields = [
        "where_to_change",
        "sheet",
        "went_out_player",
        "version",
        "recorded_by",
        "recorded_at",
    ]
    inlines = [HandScoreInline, PenaltyInline]
    history_list_display = ["outcome", "went_out_player", "down_and_out", "version"]

    def hand_of(self, obj: Hand) -> Hand:
        return obj


class SeatRowAdmin(PlayerColumn, SheetRow, HistoryAdmin):
    """A hand's row for one seat (a score or a penalty): read-only, named by its player,
    linking to its hand on the sheet."""

    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["hand", "seat"]
    readonly_fields = ["where_to_change", "sheet"]
    list_select_related = ["hand__table__round__event", "seat__entry__player"]


@admin.register(HandScore)
class HandScoreAdmin(SeatRowAdmin):
    list_display = ["hand", "player", "card_points", "cards", "penalty_points", "score", "sheet"]
    list_filter = ["hand__table__round__event", "hand__table__round__number"]


@admin.register(Penalty)
class PenaltyAdmin(SeatRowAdmin):
    list_display = ["hand", "player", "kind", "points", "extra_calls", "sheet"]
    list_filter = ["hand__table__round__event", "kind"]


@admin.register(AdjustedScore)
class AdjustedScoreAdmin(PlayerColumn, ReadOnly, admin.ModelAdmin):
    """Hands a table could not play, scored from the field when its round closed: made
    by the round's close, never by hand (a slow table is marked at fault on its sheet)."""

    list_display = ["seat", "player", "number", "score", "at_fault", "rule"]
    list_filter = ["seat__round__event", "seat__round__number", "at_fault"]
    search_fields = ["seat__entry__player__name"]
    list_select_related = ["seat__table__round__event", "seat__entry__player"]


@admin.register(Proposal)
class ProposalAdmin(ReadOnly, HistoryAdmin):
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
