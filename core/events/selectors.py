"""Reads of players, events, entries, rounds, tables and seats for pages and the API,
with a fixed number of queries whatever the event's size."""

from __future__ import annotations

from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from core.collation import by_name
from core.common import the_row
from core.copies.selectors import copied_slug
from core.errors import Missing
from core.events.access import User, can_add_players, visible_events
from core.stored_texts.words import worded
from game.collation import matches
from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, Player, Round, Seat, Table


def visible_players(user: User) -> QuerySet[Player]:
    """The players this user may see: those entered in an event the user may see and,
    for whoever may add players, those entered nowhere yet (so a director can enter a
    player just added). Nobody learns of a player who plays only in others' private
    events; a superuser sees everyone."""
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    seen = Q(
        Exists(
            Entry.objects.filter(player=OuterRef("pk"), event__in=visible_events(user).values("pk"))
        )
    )
    if can_add_players(user):
        seen |= ~Q(Exists(Entry.objects.filter(player=OuterRef("pk"))))
    return Player.objects.filter(seen)


def players(user: User, search: str | None = None) -> QuerySet[Player]:
    """The players this user may see, A to Z; with `search`, those with it in their name
    or club, case and accents set aside ("zoe" finds Zoë: `game.collation.folded`, the
    same on both databases). 2 queries with a search."""
    found = visible_players(user).order_by(by_name("name"), "id")
    if search:
        named = found.values_list("id", "name", "club")
        found = found.filter(pk__in=[pk for pk, name, club in named if matches(search, name, club)])
    return found


def entries_by_name(event: Event, status: str | None = None) -> QuerySet[Entry]:
    """The event's entries (of one status, if given) with their players, A to Z: what the
    director's lists and choices show."""
    found = Entry.objects.filter(event=event).select_related("player")
    if status is not None:
        found = found.filter(status=status)
    return found.order_by(by_name("player__name"), "pk")


def entries_of(event: Event, status: str | None = None) -> QuerySet[Entry]:
    """The event's entries with their players and, as `left_after_hand`, the leave
    point of their seat in the round in play (None: not seated, or not leaving), and as
    `rating` the player's rating across events (None: not rated yet)."""
    in_play = Seat.objects.filter(entry=OuterRef("pk"), round__status=Round.Status.PUBLISHED)
    found = (
        Entry.objects.filter(event=event)
        .select_related("player")
        .annotate(left_after_hand=Subquery(in_play.values("left_after_hand")[:1]))
        .annotate(rating=F("player__skill__rating"))  # across events; None: not rated yet
        .order_by("id")
    )
    if status:
        found = found.filter(status=status)
    return found


def rounds_of(event: Event) -> QuerySet[Round]:
    return Round.objects.filter(event=event).order_by("number")


def seat_in_play(entry: Entry) -> Seat | None:
    """The entry's seat in the event's round in play (with its table, round, event and
    player), if it has one: one query."""
    return the_row(
        Seat.objects.select_related("table__round__event", "entry__player").filter(
            entry=entry, round__status=Round.Status.PUBLISHED
        )
    )


def seats_leaving(round_: Round) -> list[Seat]:
    """The round's seats whose players left mid-round, by table: one query."""
    return list(
        Seat.objects.filter(round=round_, left_after_hand__isnull=False)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )


def round_of(event: Event, number: int) -> Round:
    round_ = the_row(Round.objects.filter(event=event, number=number))
    if round_ is None:
        raise Missing(_("No such round."))
    return round_


def round_with_seating(event: Event, number: int) -> Round:
    """A round with its tables and seats (and each seat's player) loaded: 3 queries."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    round_ = the_row(
        Round.objects.filter(event=event, number=number).prefetch_related(
            Prefetch(
                "tables",
                Table.objects.order_by("number").prefetch_related(Prefetch("seats", seats)),
            )
        )
    )
    if round_ is None:
        raise Missing(_("No such round."))
    return round_


def table_count(round_: Round) -> int:
    return Table.objects.filter(round=round_).count()


def table_of(event: Event, round_number: int, table_number: int) -> Table:
    """A table of `event`, with its round, and `event` as the round's event: one query
    (the event's own row, already read, is not read again with it)."""
    table = the_row(
        Table.objects.filter(
            round__event=event, round__number=round_number, number=table_number
        ).select_related("round")
    )
    if table is None:
        raise Missing(_("No such table."))
    table.round.event = event
    return table


def count_of(queryset, field: str) -> Coalesce:
    """A correlated COUNT, so the visibility join cannot multiply it."""
    counted = queryset.order_by().values(field).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def public_event_list(user: User, statuses: list[str]) -> QuerySet[Event]:
    """The events this user may see in these statuses, with their player count, the
    rounds published so far and, for a copy of an event (`counted` false), the slug of
    the event it copies (`copy_of`): one query."""
    return (
        Event.objects.filter(pk__in=visible_events(user).values("pk"), status__in=statuses)
        .annotate(
            players=count_of(Entry.objects.filter(event=OuterRef("pk")), "event_id"),
            rounds_played=count_of(
                Round.objects.filter(event=OuterRef("pk"), status__in=PLAYED_ROUND_STATUSES),
                "event_id",
            ),
            copy_of=copied_slug(user),
        )
        .order_by("-starts_on", "name", "pk")
    )


def quality_by_player(round_: Round) -> dict:
    """The round's seating quality report with its repeat pairs named by player id, as
    the API gives them (seating works on entries). `round_` comes from
    `round_with_seating`."""
    quality = {"repeat_meetings": None, "repeat_pairs": [], "lower_bound": None}
    quality["rank_spread"] = None
    quality.update(round_.quality or {})
    player_of = {
        seat.entry_id: seat.entry.player_id
        for table in round_.tables.all()
        for seat in table.seats.all()
    }
    quality["repeat_pairs"] = [
        sorted(player_of.get(entry, entry) for entry in pair) for pair in quality["repeat_pairs"]
    ]
    if "error" in quality:  # why the seating failed, in the reader's words
        quality["error"] = worded(quality["error"])
    return quality
