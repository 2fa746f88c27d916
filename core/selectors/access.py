"""Who may see and who may change what: the events a user may see, and direct."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from tournaments.models import Event

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


def directed_event(user: User, slug: str) -> Event:
    """The event if this user directs it (a superuser directs them all); 404 otherwise,
    exactly as if it did not exist, so a private event never leaks."""
    event = directed_events(user).filter(slug=slug).first()
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
