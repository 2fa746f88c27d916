"""The grand final's public page links to its series (as each leg's does), at no
extra query; once the final is made, even a page cached before shows the link; a
private series is never named on a public page (its events follow a change)."""

from __future__ import annotations

import pytest
from django.test import Client

from core import services
from tests.public.test_series_pages import circuit, circuit_world, text  # noqa: F401 (fixtures)
from tournaments.models import Event, Series

pytestmark = pytest.mark.django_db(transaction=True)
LINK = 'The grand final of <a href="/series/circuit/">Island Circuit 2027</a>'


def test_the_finals_page_links_to_its_series(circuit):  # noqa: F811
    final = Event.objects.create(
        slug="grand-final", name="Grand Final", status=Event.Status.REGISTRATION
    )
    client = Client()
    before = text(client.get("/events/grand-final/"))  # cached before the final is made
    assert "grand final of" not in before
    services.create_final(series=circuit, event=final)
    page = text(client.get("/events/grand-final/"))
    assert LINK in page
    # The series page links back to its final; a leg's page still says it is a leg.
    assert 'href="/events/grand-final/"' in text(client.get("/series/circuit/"))
    leg_page = text(client.get("/events/leg-1/"))
    assert "A leg of" in leg_page and "grand final of" not in leg_page


def test_a_private_series_is_not_named_on_its_finals_public_page(circuit):  # noqa: F811
    final = Event.objects.create(
        slug="grand-final", name="Grand Final", status=Event.Status.REGISTRATION
    )
    services.create_final(series=circuit, event=final)
    client = Client()
    assert LINK in text(client.get("/events/grand-final/"))  # and cached
    assert "A leg of" in text(client.get("/events/leg-1/"))
    services.update_series(series=Series.objects.get(pk=circuit.pk), data={"public": False})
    for slug in ("grand-final", "leg-1"):
        page = text(client.get(f"/events/{slug}/"))
        assert "Island Circuit" not in page, slug
