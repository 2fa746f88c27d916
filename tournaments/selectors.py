"""Reads of events, entries, rounds and seats for pages and the API, scoped to what the
user may see, with a fixed number of queries whatever the event's size."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404

from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, Player, Round, Seat, Table

User = AbstractBaseUser | AnonymousUser


def visible_events(user: User) -> QuerySet[Event]:
    """Public events, plus the private ones this user directs (all of them for a superuser)."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    if user.is_authenticated:
        return events.filter(Q(public=True) | Q(directors=user)).distinct()
    return events.filter(public=True)


def directed_events(user: User) -> QuerySet[Event]:
    if getattr(user, "is_superuser", False):
        return Event.objects.all()
    if not user.is_authenticated:
        return Event.objects.none()
    return Event.objects.filter(directors=user)


def event_for(user: User, slug: str) -> Event:
    """The event if this user may see it; 404 otherwise (a private event does not exist
    for the public)."""
    event = visible_events(user).filter(slug=slug).first()
    if event is None:
        raise Http404("No such event.")
    return event


def can_direct(user: User, event: Event) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.directors.filter(pk=user.pk).exists()


def can_create_events(user: User) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_event")


def can_add_players(user: User) -> bool:
    """Directors register players; the player registry is shared by all events."""
    return user.is_authenticated and (
        user.has_perm("tournaments.add_player") or directed_events(user).exists()
    )


def players(search: str | None = None) -> QuerySet[Player]:
    found = Player.objects.order_by("name", "id")
    if search:
        found = found.filter(Q(name__icontains=search) | Q(club__icontains=search))
    return found


def entries_of(event: Event, status: str | None = None) -> QuerySet[Entry]:
    found = Entry.objects.filter(event=event).select_related("player").order_by("id")
    if status:
        found = found.filter(status=status)
    return found


def round_of(event: Event, number: int) -> Round:
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None:
        raise Http404("No such round.")
    return round_


def round_with_seating(event: Event, number: int) -> Round:
    """A round with its tables and seats (and each seat's player) loaded: 3 queries."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    round_ = (
        Round.objects.filter(event=event, number=number)
        .prefetch_related(
            Prefetch(
                "tables",
                Table.objects.order_by("number").prefetch_related(Prefetch("seats", seats)),
            )
        )
        .first()
    )
    if round_ is None:
        raise Http404("No such round.")
    return round_


def table_of(event: Event, round_number: int, table_number: int) -> Table:
    table = (
        Table.objects.filter(round__event=event, round__number=round_number, number=table_number)
        .select_related("round__event")
        .first()
    )
    if table is None:
        raise Http404("No such table.")
    return table


def count_of(queryset, field: str) -> Coalesce:
    """A correlated COUNT, so the visibility join cannot multiply it."""
    counted = queryset.order_by().values(field).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def public_event_list(user: User, statuses: list[str]) -> QuerySet[Event]:
    """The events this user may see in these statuses, with their player count and the
    rounds published so far: one query."""
    return (
        Event.objects.filter(pk__in=visible_events(user).values("pk"), status__in=statuses)
        .annotate(
            players=count_of(Entry.objects.filter(event=OuterRef("pk")), "event_id"),
            rounds_played=count_of(
                Round.objects.filter(event=OuterRef("pk"), status__in=PLAYED_ROUND_STATUSES),
                "event_id",
            ),
        )
        .order_by("-starts_on", "name", "pk")
    )
