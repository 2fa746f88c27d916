"""Players, events (saved through the event services), entries, rounds, tables,
seats, round clocks and announcements (read-only: they change through the services)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import services
from core.admin.common import SEATING_CHANGES, HistoryAdmin, ReadOnly, sheet_link, take_saved
from core.admin.scores import HandsUnderTableInline
from core.entries.services import PLAYER_FIELDS
from core.errors import ServiceError
from core.events.services import EXTRA_FIELDS, default_overcall_penalty
from core.publishing.links import read_only_reason
from core.services import EVENT_FIELDS
from tournaments.models import (
    Announcement,
    Entry,
    Event,
    Player,
    Round,
    RoundClock,
    Seat,
    Table,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating"]
    search_fields = ["name", "club"]
    list_filter = ["country"]

    def save_model(self, request, obj, form, change):
        """Saved through the player services (a changed name or club reaches the pages
        of every event the player is entered in: `services.update_player`)."""
        values = {name: form.cleaned_data[name] for name in PLAYER_FIELDS}
        if not change:
            saved = services.create_player(**values, by=request.user)
        else:
            saved = services.update_player(
                player=Player.objects.get(pk=obj.pk), **values, by=request.user
            )
        obj.pk = saved.pk


class EventForm(forms.ModelForm):
    """The event's settings, checked by the same rules as the API's (the deck against
    the deal, Trinidad doubling, settings frozen once hands exist, finishing), and
    saved through the same services (`EventAdmin.save_model`)."""

    # A choice, not the model's box (ticked by default): a new event takes the over-call
    # penalty its ruleset has (Trinidad: off) unless the director chooses on or off.
    overcall_penalty = forms.TypedChoiceField(
        choices=[
            ("", gettext_lazy("as the ruleset says (Jamaica: on, Trinidad: off)")),
            ("on", gettext_lazy("on: an over-call costs the director penalty")),
            ("off", gettext_lazy("off: an over-call costs nothing")),
        ],
        coerce=lambda value: value in ("on", True),
        empty_value=None,
        required=False,
        label=gettext_lazy("Over-call penalty"),
        help_text=Event._meta.get_field("overcall_penalty").help_text,
    )

    class Meta:
        model = Event
        fields = [
            *EVENT_FIELDS,
            *EXTRA_FIELDS,
            "directors",
            "check_in",
            "club_avoidance",
        ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # An event's choice as stored; a new event's: as its ruleset says.
        stored = self.instance.overcall_penalty if self.instance.pk else None
        self.initial["overcall_penalty"] = {True: "on", False: "off"}.get(stored, "")

    def settings(self) -> dict:
        """The event's settings as the services take them: every one for a new event,
        the ones changed for an event that exists. An over-call penalty "as the ruleset
        says" is its ruleset's default (a ruleset changed takes its own default)."""
        names = (*EVENT_FIELDS, *EXTRA_FIELDS)
        cleaned = self.cleaned_data
        if self.instance.pk:
            names = [name for name in names if name in self.changed_data]
        settings = {name: cleaned[name] for name in names if name in cleaned}
        if "overcall_penalty" in settings and settings["overcall_penalty"] is None:
            del settings["overcall_penalty"]
            if self.instance.pk:
                ruleset = settings.get("ruleset", self.instance.ruleset)
                settings["overcall_penalty"] = default_overcall_penalty(ruleset)
        return settings

    def clean(self):
        cleaned = super().clean()
        settings = self.settings()
        try:
            if self.instance.pk:
                services.check_update(Event.objects.get(pk=self.instance.pk), settings)
            else:
                services.check_new_event(settings)
        except ServiceError as error:
            for name, messages in error.errors.items():
                self.add_error(name if name in self.fields else None, messages)
        return cleaned


@admin.register(Event)
class EventAdmin(HistoryAdmin):
    """Saved through `create_event` / `update_event`, as the API saves it: the same
    refusals (shown on the form; nothing is written), the same history, and the
    standings rebuilt when a setting they rank by changes."""

    form = EventForm
    list_display = [
        "name",
        "slug",
        "starts_on",
        "ruleset",
        "format",
        "status",
        "public",
        "counted",
    ]
    list_filter = ["status", "ruleset", "format", "public", "table_entry", "counted"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    readonly_fields = [
        "standings_version",
        "screen_version",
        "draw_commitment",  # the seed stays secret: nobody sets or reads it here
        "uid",
        "counted",  # a copy counts instead through the action below, never by hand
        "created_at",
        "updated_at",
    ]
    date_hierarchy = "starts_on"
    actions = ["count_copies"]

    @admin.action(description=gettext_lazy("Count these copies instead of the events they copy"))
    def count_copies(self, request, queryset):
        """The same service as the director's page and the API: each copy counts in
        the ratings and series, and the event of its identity that counted is left out."""
        for event in queryset.order_by("pk"):
            try:
                services.count_copy(event=event, by=request.user)
            except ServiceError as error:
                for text in (m for ms in error.errors.values() for m in ms):
                    self.message_user(request, f"{event.slug}: {text}", messages.ERROR)
            else:
                self.message_user(
                    request, _("%(slug)s counts now.") % {"slug": event.slug}, messages.SUCCESS
                )

    def has_change_permission(self, request, obj=None):
        # An event published here from a venue changes only through its link.
        if obj is not None and read_only_reason(obj.pk) is not None:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and read_only_reason(obj.pk) is not None:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        by = request.user
        settings = form.settings()
        if not change:
            event = services.create_event(data=settings, by=by)
        elif settings:
            event = services.update_event(event=obj, data=settings, by=by)
        else:
            event = Event.objects.get(pk=obj.pk)
        cleaned = form.cleaned_data
        event = services.set_day_options(
            event=event,
            check_in=cleaned.get("check_in"),
            club_avoidance=cleaned.get("club_avoidance"),
            by=by,
        )
        rerank = "status" in settings  # finished or not: what "final" says
        if change and rerank:
            services.queue_standings_refresh(event)
        take_saved(obj, Event.objects.get(pk=event.pk))  # the form saves the directors on it


@admin.register(Entry)
class EntryAdmin(ReadOnly, HistoryAdmin):
    list_display = ["player", "event", "status", "seed_number", "registered_at"]
    list_filter = ["event", "status"]
    search_fields = ["player__name", "event__name"]
    raw_id_fields = ["player"]
    # Registering, a seed, withdrawing (with a leave point) and registering again go
    # through the services: who played a recorded set never changes here.
    list_select_related = ["player", "event"]


class TableInline(ReadOnly, admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "locked", "closed_after_hand"]
    readonly_fields = fields
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ReadOnly, HistoryAdmin):
    list_display = ["event", "number", "status", "policy", "seed", "forced_close"]
    list_filter = ["event", "status"]
    search_fields = ["event__name"]
    inlines = [TableInline]
    # Starting, seating, publishing, closing (or forcing) and reopening go through the
    # services (the dashboard, the API); here they are only seen, with their history.
    readonly_fields = ["status", "forced_close", "quality", "published_at", "closed_at"]
    history_list_display = ["status", "forced_close"]


class SeatInline(ReadOnly, admin.TabularInline):
    """A table's seats, read-only: seating changes through the director's swap, move
    and substitute (`core.services`), which check the hands recorded and rebuild the
    standings."""

    model = Seat
    extra = 0
    fields = ["position", "entry", "first_dealer", "left_after_hand"]
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnly, HistoryAdmin):
    list_display = ["__str__", "round", "number", "locked"]
    list_filter = ["round__event", "round__number", "locked"]
    search_fields = ["round__event__name", "seats__entry__player__name"]
    list_select_related = ["round__event"]
    readonly_fields = ["closed_after_hand", "sheet"]

    # Hand scores appear under their table, beside the seats.
    inlines = [SeatInline, HandsUnderTableInline]

    @admin.display(description=gettext_lazy("sheet"))
    def sheet(self, table: Table) -> str:
        return sheet_link(table)


@admin.register(Seat)
class SeatAdmin(ReadOnly, HistoryAdmin):
    """Read-only: who sits where changes through the director's swap, move and
    substitute (`core.seating.services`, `substitute_entry`), a leave point through
    withdrawing (`set_leave_point`); they check the hands recorded, keep the history and
    rebuild the standings."""

    list_display = ["__str__", "player_name", "position", "first_dealer"]
    list_filter = ["round__event", "round__number"]
    search_fields = ["entry__player__name"]
    fields = [
        "where_to_change",
        "table",
        "round",
        "entry",
        "position",
        "first_dealer",
        "left_after_hand",
    ]
    readonly_fields = fields
    list_select_related = ["table__round__event", "entry__player"]

    @admin.display(description=gettext_lazy("player"), ordering="entry__player__name")
    def player_name(self, seat: Seat) -> str:
        return seat.entry.player.name

    @admin.display(description=gettext_lazy("changes"))
    def where_to_change(self, seat: Seat) -> str:
        return SEATING_CHANGES


@admin.register(RoundClock)
class RoundClockAdmin(ReadOnly, HistoryAdmin):
    list_display = ["round", "minutes", "ends_at", "paused_at", "table_extra_s", "updated_at"]
    list_filter = ["round__event"]
    list_select_related = ["round__event"]


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["text", "event", "posted_at", "posted_by", "removed_at", "removed_by"]
    list_filter = ["event", ("removed_at", admin.EmptyFieldListFilter)]
    search_fields = ["text"]
    list_select_related = ["event", "posted_by", "removed_by"]
