"""What the admin's pages share: players named (not seat ids), read-only pages, the
link from a hand to its table's sheet."""

from __future__ import annotations

from django.contrib import admin
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from core.stored_texts.words import reason_words
from scoring.models import (
    Hand,
)
from tournaments.models import (
    Seat,
    Table,
)

WHERE_TO_CHANGE = gettext_lazy(
    "Read-only here: change it on the director's sheet (or through the API), which checks "
    "the rules, keeps the history and rebuilds the standings."
)

SEATING_CHANGES = gettext_lazy(
    "Read-only here: seat players through the director's round pages (swap, move, "
    "substitute), which check the hands recorded, keep the history and rebuild the "
    "standings."
)


def seat_name(seat: Seat | None) -> str:
    """A seat as a director says it: the player, then where (not a row's id)."""
    if seat is None:
        return "—"
    return _("%(name)s (seat %(seat)s)") % {"name": seat.entry.player.name, "seat": seat.position}


class PlayerColumn:
    """A row's seat shown by its player's name."""

    @admin.display(description=gettext_lazy("player"), ordering="seat__entry__player__name")
    def player(self, obj) -> str:
        return seat_name(obj.seat)


class WentOutColumn:
    @admin.display(description=gettext_lazy("went out"), ordering="went_out__entry__player__name")
    def went_out_player(self, hand: Hand) -> str:
        return seat_name(hand.went_out) if hand.went_out_id else "—"


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

    @admin.display(description=gettext_lazy("changes"))
    def where_to_change(self, obj) -> str:
        return WHERE_TO_CHANGE

    @admin.display(description=gettext_lazy("sheet"))
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
    text = _("Table %(table)s, round %(round)s: the director's sheet") % {
        "table": table.number,
        "round": table.round.number,
    }
    return format_html('<a href="{}{}">{}</a>', url, anchor, text)


def take_saved(obj, saved) -> None:
    """Make the admin's `obj` the row a service saved (`saved`), so that what the admin
    does next (the many-to-many fields, the messages, the history) is on that row."""
    for field in type(saved)._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding, obj._state.db = False, saved._state.db


class HistoryAdmin(SimpleHistoryAdmin):
    """A model's history pages, each change's reason in the reader's language where the
    site wrote it (`core.stored_texts`); a director's own words as they typed them."""

    def set_history_delta_changes(self, request, historical_records, *args, **kwargs):
        super().set_history_delta_changes(request, historical_records, *args, **kwargs)
        for record in historical_records:
            record.history_change_reason = reason_words(record.history_change_reason)
