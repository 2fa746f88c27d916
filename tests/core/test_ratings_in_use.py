"""The rating in the tournament: `spread` seating orders unseeded players by it, and
the entries list and the CSV import preview show it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core import importing, services
from core.seating.selectors import seating_request
from game import seating
from tests.core.ratings_world import closed_round, entries_for, players
from tests.fixtures import kept_for_the_module, make_event
from tournaments.models import Entry, Player, Round

pytestmark = pytest.mark.django_db


def rate() -> list[int]:
    """Eight players rated over three rounds: at each table the same order every time,
    so players 0 and 4 are the strongest, then 1 and 5, and so on. Gives their pks."""
    cast = players(8)
    a = make_event(slug="a")
    for n in range(1, 4):
        closed_round(a, [cast[0:4], cast[4:8]], number=n)
    services.refresh_ratings()
    return [p.pk for p in cast]


@pytest.fixture(scope="module")
def kept_rated(django_db_setup, django_db_blocker):
    """The players of `rate`, made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, rate)


@pytest.fixture
def rated(kept_rated, db) -> list[Player]:
    """The players of `rate`, read afresh for the test."""
    by_pk = Player.objects.in_bulk(kept_rated)
    return [by_pk[pk] for pk in kept_rated]


def test_before_anyone_is_rated_spread_uses_the_imported_rating():
    event = make_event(slug="fresh")
    cast = players(4)
    for i, p in enumerate(cast):
        p.rating = 1500 + i
        p.save()
    entries_for(event, cast)
    Entry.objects.filter(event=event).update(seed_number=None)
    round_ = Round.objects.create(event=event, number=1, policy="spread", status="seating")
    ratings = sorted(c.rating for c in seating_request(round_).contenders)
    assert ratings == [1500, 1501, 1502, 1503]


def test_spread_seating_spreads_unseeded_players_by_their_rating(rated):
    event = make_event(slug="final", seating="spread")
    newcomers = players(4)
    entries = entries_for(event, rated + newcomers)
    Entry.objects.filter(event=event).update(seed_number=None)
    round_ = Round.objects.create(event=event, number=1, policy="spread", status="seating")
    request = seating_request(round_)
    by_entry = {c.id: c.rating for c in request.contenders}
    skill = {p.pk: p.skill.rating for p in rated}
    for entry in entries:
        if entry.player_id in skill:
            assert by_entry[entry.pk] == round(100 * skill[entry.player_id])
        else:
            assert by_entry[entry.pk] == 0  # a newcomer counts as mu - 3 sigma = 0
    tables = seating.seat(request).tables
    # Snaked across the three tables: the three best rated at three different tables.
    top = sorted(by_entry, key=lambda e: (-by_entry[e], e))[:3]
    table_of = {pid: t.number for t in tables for pid in t.seats}
    assert len({table_of[e] for e in top}) == 3


def test_the_entries_list_shows_each_players_rating(rated, alice):

    event = make_event(slug="next")
    event.directors.add(alice)
    entries_for(event, rated[:2] + players(1))
    api = APIClient()
    api.force_authenticate(alice)
    rows = api.get("/api/v1/events/next/entries/").json()["results"]
    assert [r["rating"] is not None for r in rows] == [True, True, False]
    assert rows[0]["rating"] == pytest.approx(rated[0].skill.rating)


def test_the_toolkit_lists_the_entered_players_by_rating(client, rated, alice):
    event = make_event(slug="next")
    event.directors.add(alice)
    entries_for(event, [rated[7], rated[0]])
    client.force_login(alice)
    page = client.get("/director/next/toolkit/").content.decode()
    assert "Entered players by rating" in page
    assert page.index(rated[0].name) < page.index(rated[7].name)


def test_the_import_preview_shows_a_known_players_rating(rated):
    event = make_event(slug="next")
    name = rated[0].name
    preview = importing.preview_import(event=event, data=f"name\n{name}\n".encode())
    candidate = preview.rows[0].candidates[0]
    assert candidate.rating == pytest.approx(rated[0].skill.rating)
