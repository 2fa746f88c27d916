"""Who may see and who may change what: the events a user may see, and direct."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from core.common import the_row
from core.errors import Missing
from tournaments.models import Event, PublishingLink, Table

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


def published_here(event_field: str = "pk") -> Exists:
    """Whether the event (`event_field` naming its id from the query's rows) is published
    here from a venue (`core.publishing`): read with the event, never a query of its own."""
    return Exists(
        PublishingLink.objects.filter(event_id=OuterRef(event_field), revoked_at__isnull=True)
    )


def event_for(user: User, slug: str) -> Event:
    """The event if this user may see it; 404 otherwise (a private event does not exist
    for the public). It comes knowing whether this user directs it (`reader_directs`)
    and whether it is published here from a venue (`published_here`), read in the same
    query."""
    events = visible_events(user).filter(slug=slug).annotate(published_here=published_here())
    if user.is_authenticated and not getattr(user, "is_superuser", False):
        directors = Event.directors.through.objects.filter(event_id=OuterRef("pk"), user=user)
        events = events.annotate(reader_directs=Exists(directors))
    event = the_row(events)
    if event is None:
        raise Missing(_("No such event."))
    return event


def directed_event(user: User, slug: str) -> Event:
    """The event if this user directs it (a superuser directs them all); 404 otherwise,
    exactly as if it did not exist, so a private event never leaks."""
    event = the_row(
        directed_events(user).filter(slug=slug).annotate(published_here=published_here())
    )
    if event is None:
        raise Missing(_("No such event."))
    return event


def directed_table(user: User, slug: str, round_number: int, table_number: int) -> Table:
    """A table of an event this user directs, with its round and event, in one query;
    404 otherwise, as if neither existed."""
    table = the_row(
        Table.objects.filter(
            round__event__in=directed_events(user),
            round__event__slug=slug,
            round__number=round_number,
            number=table_number,
        )
        .select_related("round__event")
        .annotate(published_here=published_here("round__event_id"))
    )
    if table is None:
        raise Missing(_("No such table."))
    table.round.event.published_here = table.published_here
    return table


def can_direct(user: User, event: Event) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.directors.filter(pk=user.pk).exists()


def reader_directs(user: User, event: Event) -> bool:
    """`can_direct` for an event that `event_for(user, ...)` found: already known."""
    known = getattr(event, "reader_directs", None)
    return can_direct(user, event) if known is None else known


def can_create_events(user: User) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_event")


def can_add_players(user: User) -> bool:
    """Directors register players; the player registry is shared by all events."""
    return user.is_authenticated and (
        user.has_perm("tournaments.add_player") or directed_events(user).exists()
    )
