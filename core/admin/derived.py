"""Derived data (standings, staleness marks, ratings): seen, never changed by hand."""

from __future__ import annotations

from django.contrib import admin

from core.admin.common import ReadOnly
from scoring.models import (
    DerivedState,
    PlayerRating,
    RatedRound,
    RatingChange,
    Standing,
)


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
    the periodic catch-up, never by hand (core.derived)."""

    list_display = ["kind", "key", "dirty_since", "changes", "built", "built_at"]
    list_filter = ["kind"]
    ordering = ["-dirty_since", "kind", "key"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class DerivedAdmin(ReadOnly, admin.ModelAdmin):
    """Ratings are derived data: rebuilt by the ratings job and `recompute_ratings`
    (core.ratings.services), never changed by hand."""


@admin.register(PlayerRating)
class PlayerRatingAdmin(DerivedAdmin):
    list_display = ["player", "rating", "mu", "sigma", "sets", "movement"]
    search_fields = ["player__name"]
    list_select_related = ["player"]
    ordering = ["-rating", "player"]


@admin.register(RatedRound)
class RatedRoundAdmin(DerivedAdmin):
    list_display = ["sequence", "round", "closed_at", "applied_at"]
    list_select_related = ["round__event"]
    ordering = ["sequence"]


@admin.register(RatingChange)
class RatingChangeAdmin(DerivedAdmin):
    list_display = ["player", "sequence", "rating", "before", "sets"]
    search_fields = ["player__name"]
    list_select_related = ["player"]
    ordering = ["player", "sequence"]
