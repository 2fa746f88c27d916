"""Fixtures for the public pages' tests."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tournaments.models import Event


@pytest.fixture
def still_clock(monkeypatch):
    """The pages show the round clock at one moment: two reads a second apart compare
    equal, as they should (the page's script does the counting down)."""
    moment = timezone.now()
    monkeypatch.setattr("public.views.timezone.now", lambda: moment)
    return moment


# `small` and `large`: the two demo events a module makes once in its own `demos`
# fixture (their slugs), read by each test.
@pytest.fixture
def small(demos, db) -> Event:
    return Event.objects.get(slug=demos[0])


@pytest.fixture
def large(demos, db) -> Event:
    return Event.objects.get(slug=demos[1])
