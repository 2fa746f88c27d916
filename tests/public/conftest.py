"""Fixtures for the public pages' tests."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tournaments.models import Event


@pytest.fixture
def still_clock(monkeypatch):
    """The pages show the round clock at one moment: two reads a second apart compare
    equal, as they should (the page's script does the counting down). The template's
    `{% now %}` (the projector's "Updated HH:MM") reads the same moment: two reads on
    either side of a minute's turn would differ by it."""
    moment = timezone.now()
    monkeypatch.setattr("public.views.timezone.now", lambda: moment)

    class Still(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return moment.astimezone(tz) if tz is not None else moment.replace(tzinfo=None)

    monkeypatch.setattr("django.template.defaulttags.datetime", Still)
    return moment


# `small` and `large`: the two demo events a module makes once in its own `demos`
# fixture (their slugs), read by each test.
@pytest.fixture
def small(demos, db) -> Event:
    return Event.objects.get(slug=demos[0])


@pytest.fixture
def large(demos, db) -> Event:
    return Event.objects.get(slug=demos[1])
