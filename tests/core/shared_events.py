"""Played events for a module's tests to share: built once with `kept_for_the_module`
(tests/fixtures.py), read afresh by each test.

A module-scoped build keeps primary keys and usernames only; each test reads fresh
instances from them (`event_of`, `user_named`), so what one test changes on an instance
is never seen by the next (the database itself is rolled back after every test)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tests.fixtures import make_user, played_event
from tournaments.models import Event


def played_event_pk(*, director: str | None = None, **fields) -> int:
    """`played_event`, directed by a new user named `director` if one is named: its pk."""
    user = make_user(director) if director else None
    return played_event(director=user, **fields).pk


def event_of(pk: int) -> Event:
    """A fresh instance of the event with this pk."""
    return Event.objects.get(pk=pk)


def user_named(username: str):
    """The user of this name the module's build made (not a second one of that name)."""
    return get_user_model().objects.get(username=username)
