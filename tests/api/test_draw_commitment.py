"""Draws anyone can check and nobody can foresee: every event and series gets a secret
random draw seed when it is created; its SHA-256 (the commitment) is shown from the
start, the seed itself only once the results are final, and every tie the draw decided
can then be recomputed from it."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import Permission

from core import services
from game.ranking import draw_key
from tests.fixtures import make_entries, make_event, make_round, play
from tournaments.models import Event, Series

pytestmark = pytest.mark.django_db


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_new_event_shows_its_commitment_and_keeps_its_seed(api, alice):
    alice.user_permissions.add(*_may_create())
    made = api.as_(alice).post(
        "/api/v1/events/", {"slug": "kingston", "name": "Kingston Open"}, format="json"
    )
    assert made.status_code == 201, made.json()
    other = make_event(slug="montego")
    document = api.as_().get("/api/v1/events/kingston/").json()
    event = Event.objects.get(slug="kingston")
    assert document["draw_seed"] is None
    assert document["draw_commitment"] == sha256(event.draw_seed)
    # 256 secret bits: not the seed 0 everyone could compute with, nor another event's.
    assert len(event.draw_seed) == 64 and event.draw_seed != other.draw_seed
    assert document["draw_commitment"] not in (sha256("0"), other.draw_commitment)


def test_the_seed_cannot_be_chosen_through_the_api(api, alice):
    event = make_event(slug="kingston")
    event.directors.add(alice)
    before = event.draw_seed
    api.as_(alice).patch("/api/v1/events/kingston/", {"draw_seed": "0"}, format="json")
    event.refresh_from_db()
    assert event.draw_seed == before


@pytest.fixture
def finished(alice):
    """Two tables that played identical hands: each seat at table 1 is level with the
    same seat at table 2 on everything but the draw. Then the event is finished."""
    event = make_event(slug="kingston", rounds_planned=1)
    event.directors.add(alice)
    round_ = make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    for table in round_.tables.all():
        play(table, range(1, event.rules.hand_count + 1), (1, 2, 3, 4))
    services.close_round(round=round_)
    services.refresh_standings(event=event)
    services.update_event(event=event, data={"status": "finished"})
    return Event.objects.get(pk=event.pk)


def test_once_finished_the_seed_is_revealed_and_recomputes_every_drawn_tie(api, finished):
    document = api.as_().get("/api/v1/events/kingston/").json()
    seed = document["draw_seed"]
    assert seed == finished.draw_seed
    assert sha256(seed) == document["draw_commitment"]
    rows = api.as_().get("/api/v1/events/kingston/standings/").json()["standings"]
    listed = api.as_().get("/api/v1/events/kingston/entries/").json()
    entry_of = {e["player"]: e["id"] for e in listed.get("results", listed)}
    level: dict[tuple, list[int]] = {}
    for row in rows:  # in rank order
        figures = (row["points"], row["hands_won"], row["penalty_points"], row["sets_played"])
        level.setdefault(figures, []).append(entry_of[row["player"]["id"]])
    drawn = [entries for entries in level.values() if len(entries) > 1]
    assert len(drawn) == 4  # the four seats' pairs
    for entries in drawn:
        assert entries == sorted(entries, key=lambda entry: draw_key(entry, seed))


def test_a_series_shows_its_commitment_and_keeps_its_seed_until_its_final(api, alice):
    series = Series.objects.create(slug="circuit", name="Circuit", public=True)
    document = api.as_().get("/api/v1/series/circuit/").json()
    assert document["draw_seed"] is None
    assert document["draw_commitment"] == sha256(series.draw_seed) == series.draw_commitment


def _may_create():
    return Permission.objects.filter(codename__in=["add_event", "add_player"])
