"""Fixtures for the public pages' tests."""

from __future__ import annotations

import pytest
from django.utils import timezone


@pytest.fixture
def still_clock(monkeypatch):
    """The pages show the round clock at one moment: two reads a second apart compare
    equal, as they should (the page's script does the counting down)."""
    moment = timezone.now()
    monkeypatch.setattr("public.views.timezone.now", lambda: moment)
    return moment
