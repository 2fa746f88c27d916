"""What a blank points scale does, as each of the organiser's series forms says it: the
new series form gives the default scale, the settings form keeps the current one."""

from __future__ import annotations

import pytest

from core import services
from game.series import default_points_scale
from tests.html import signed_in
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def test_a_new_series_with_a_blank_scale_gets_the_default_as_its_form_says(root):
    client = signed_in(root)
    assert "blank: the default (100, 80, 65" in client.get("/organiser/").content.decode()
    client.post("/organiser/new/", {"slug": "tour", "name": "Tour", "qualifiers": 4})
    assert Series.objects.get(slug="tour").points_scale == default_points_scale()


def test_the_settings_keep_the_current_scale_when_blank_as_their_form_says(alice):
    services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 4]}, by=alice
    )
    client = signed_in(alice)
    page = client.get("/organiser/circuit/").content.decode()
    assert "blank: keep the current scale" in page and "blank: the default" not in page
    body = {"name": "Circuit", "points_scale": "", "qualifiers": 2, "public": "on"}
    client.post("/organiser/circuit/settings/", body)
    series = Series.objects.get(slug="circuit")
    assert series.qualifiers == 2 and series.points_scale == [10, 6, 4]
