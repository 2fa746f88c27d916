from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import Entry, Event, Player, Round, Seat, Table


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
    list_filter = ["status", "ruleset", "format", "public"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    readonly_fields = ["standings_version", "created_at", "updated_at"]
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

    def get_inlines(self, request, obj):
        # Hand scores appear under their table, beside the seats.
        from scoring.admin import HandsUnderTableInline

        return [SeatInline, HandsUnderTableInline]


@admin.register(Seat)
class SeatAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "entry", "position", "first_dealer"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["entry__player__name"]
    raw_id_fields = ["entry", "table", "round"]
    list_select_related = ["table__round__event", "entry__player"]
