"""The admin shows an event's and a series' draw commitment, never the secret seed,
and offers no way to set it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.fixtures import make_event, make_user
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def test_the_admin_shows_the_commitment_and_hides_the_seed(client):
    client.force_login(make_user("root", superuser=True))
    event = make_event(slug="kingston")
    series = Series.objects.create(slug="circuit", name="Circuit")
    for url, thing in (
        (reverse("admin:tournaments_event_change", args=[event.pk]), event),
        (reverse("admin:tournaments_series_change", args=[series.pk]), series),
    ):
        page = client.get(url).content.decode()
        assert thing.draw_commitment in page
        assert thing.draw_seed not in page
        assert 'name="draw_seed"' not in page
