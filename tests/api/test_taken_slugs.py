"""A taken slug is answered in the same words whoever holds it, so creating an event or
a series never confirms that a private one exists under that slug."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tests.fixtures import make_event
from tournaments.models import Series

pytestmark = pytest.mark.django_db

TAKEN = {"slug": ["This slug is taken here; choose another."]}


@pytest.mark.parametrize("public", [True, False])
def test_creating_an_event_on_a_taken_slug_says_taken_alike(api, alice, public):
    alice.user_permissions.add(*Permission.objects.filter(codename="add_event"))
    make_event(slug="secret-open", public=public)
    response = api.as_(alice).post(
        "/api/v1/events/", {"slug": "secret-open", "name": "Mine"}, format="json"
    )
    assert response.status_code == 400 and response.json() == TAKEN


@pytest.mark.parametrize("public", [True, False])
def test_creating_a_series_on_a_taken_slug_says_taken_alike(api, alice, public):
    alice.user_permissions.add(*Permission.objects.filter(codename__in=["add_event"]))
    Series.objects.create(slug="secret-circuit", name="Hidden", public=public)
    response = api.as_(alice).post(
        "/api/v1/series/", {"slug": "secret-circuit", "name": "Mine"}, format="json"
    )
    assert response.status_code == 400 and response.json() == TAKEN
