"""Issue 15's small things: the favicon, one date format, the toolkit's way back to the
dashboard, the leaderboard's footer, the Montego Bay demo's venue."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_favicon_is_there():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.ico")
    assert 'rel="icon"' in Client().get("/").content.decode()


def test_dates_are_written_one_way_everywhere(w, director):
    Event.objects.filter(pk=w.event.pk).update(starts_on=datetime.date(2026, 12, 5))
    assert "5 Dec 2026" in director.get("/director/").content.decode()
    assert "5 Dec 2026" in director.get(w.url("toolkit/")).content.decode()
    assert "5 Dec 2026" in Client().get("/events/").content.decode()


def test_every_toolkit_page_leads_back_to_the_dashboard(w, director):
    for path in ("toolkit/", "toolkit/import/"):
        page = director.get(w.url(path)).content.decode()
        assert f'href="/director/{w.event.slug}/">← Kingston Open: dashboard</a>' in page


def test_the_leaderboard_footer_shows_a_time_not_an_update_number(w):
    w.event.standings_version = 3
    w.event.save()
    page = Client().get(f"/events/{w.event.slug}/").content.decode()
    assert "update 3" not in page and "data-as-of" in page


def test_the_montego_bay_demo_is_in_montego_bay():
    call_command(
        "demo_event",
        "--players=0",
        "--rounds=0",
        "--planned=3",
        "--slug=montego-bay-open",
        "--name=Montego Bay Open",
        "--venue=Montego Bay, Jamaica",
        stdout=io.StringIO(),
    )
    assert Event.objects.get(slug="montego-bay-open").venue == "Montego Bay, Jamaica"
    with open("Makefile") as makefile:
        assert '--venue "Montego Bay, Jamaica"' in makefile.read()
