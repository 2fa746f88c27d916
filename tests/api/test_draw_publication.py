"""Draws anyone can check: nobody chooses a seed (the API refuses one, naming the
field, and writes nothing); the public event page shows the commitment from the
event's creation and the seed once it is finished; and with the revealed seed anyone
can recompute which tables of a knockout sent a place left over through, by the
formula the event page and the README publish (written out again here, apart from
the project's own code)."""

from __future__ import annotations

import hashlib
import math
import re
from fractions import Fraction

import pytest
from django.contrib.auth.models import Permission

from core import services
from tests.fixtures import make_entries, make_event, make_round, play
from tournaments.models import Event, Series

pytestmark = pytest.mark.django_db

SEED_REFUSED = "The draw seed is made by the site when the event is created and cannot be set."


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --- Nobody chooses a seed -------------------------------------------------------------


@pytest.mark.parametrize("seed", ["0", 0, None, "ab" * 32])
def test_a_seed_sent_to_an_event_is_refused_naming_the_field(api, alice, seed):
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    before = (event.draw_seed, event.name)
    response = api.as_(alice).patch(
        "/api/v1/events/kingston/", {"draw_seed": seed, "name": "Renamed"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"draw_seed": [SEED_REFUSED]}
    event.refresh_from_db()
    assert (event.draw_seed, event.name) == before  # nothing written, not even the name


def test_a_commitment_sent_to_an_event_is_refused_too(api, alice):
    event = make_event(slug="kingston")
    event.directors.add(alice)
    before = event.draw_seed
    response = api.as_(alice).patch(
        "/api/v1/events/kingston/",
        {"draw_commitment": sha256("0"), "draw_seed": "0"},
        format="json",
    )
    assert response.status_code == 400
    assert set(response.json()) == {"draw_seed", "draw_commitment"}
    assert "cannot be set" in response.json()["draw_commitment"][0]
    event.refresh_from_db()
    assert event.draw_seed == before


def test_a_new_event_cannot_bring_its_own_seed(api, alice):
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    response = api.as_(alice).post(
        "/api/v1/events/",
        {"slug": "kingston", "name": "Kingston Open", "draw_seed": "0"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"draw_seed": [SEED_REFUSED]}
    assert not Event.objects.filter(slug="kingston").exists()


def test_a_seed_sent_to_a_series_is_refused_naming_the_field(api, root):
    series = services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=root)
    before = series.draw_seed
    response = api.as_(root).patch(
        "/api/v1/series/circuit/", {"draw_seed": "0", "name": "Renamed"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "draw_seed": [
            "The draw seed is made by the site when the series is created and cannot be set."
        ]
    }
    series.refresh_from_db()
    assert (series.draw_seed, series.name) == (before, "Circuit")
    made = api.as_(root).post(
        "/api/v1/series/", {"slug": "other", "name": "Other", "draw_seed": "0"}, format="json"
    )
    assert made.status_code == 400 and "draw_seed" in made.json()
    assert not Series.objects.filter(slug="other").exists()


# --- The public page: the commitment from the start, the seed once finished ------------


def draw_note(page: str) -> str:
    found = re.search(r'<details class="draw" id="draw">(.*?)</details>', page, re.S)
    assert found, "the event page explains its draw"
    return found.group(1)


def test_the_event_page_shows_the_commitment_from_creation_and_the_seed_once_finished(
    api, client, alice, django_capture_on_commit_callbacks
):
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    made = api.as_(alice).post(
        "/api/v1/events/",
        {"slug": "kingston", "name": "Kingston Open", "rounds_planned": 1},
        format="json",
    )
    assert made.status_code == 201, made.json()
    event = Event.objects.get(slug="kingston")
    note = draw_note(client.get("/events/kingston/").content.decode())
    assert made.json()["draw_commitment"] == event.draw_commitment == sha256(event.draw_seed)
    assert event.draw_commitment in note
    assert event.draw_seed not in note
    assert "The seed is revealed when the event finishes." in note

    round_ = make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    with django_capture_on_commit_callbacks(execute=True):  # the standings follow
        play(round_.tables.get(), range(1, event.rules.hand_count + 1), (1, 2, 3, 4))
        services.close_round(round=round_)
    note = draw_note(client.get("/events/kingston/").content.decode())
    assert event.draw_seed not in note  # played, not finished: still secret

    with django_capture_on_commit_callbacks(execute=True):
        finished = api.as_(alice).post("/api/v1/events/kingston/finish/")
    assert finished.status_code == 200, finished.json()
    note = draw_note(client.get("/events/kingston/").content.decode())
    assert event.draw_commitment in note
    assert f'<code class="digest">{event.draw_seed}</code>' in note
    assert "The seed is revealed when the event finishes." not in note


# --- A knockout's places left over, recomputed from the revealed seed -----------------


def published_places(
    seed: str, round_number: int, sizes: dict[int, int], advance: int, *, ticket=None
) -> dict[int, int]:
    """table -> places it sends through, as the event page and the README word it: a
    table of k has a share of k x advance / 4; the round sends the sum of the shares
    rounded half up; each table gets the whole part of its share; the places left go one
    each to the largest parts left over, level ones by the lower ticket, table T's
    ticket being the first 16 hex digits of SHA-256 of "seed:round R:table T"."""
    if ticket is None:

        def ticket(table: int) -> str:
            return sha256(f"{seed}:round {round_number}:table {table}")[:16]

    share = {table: Fraction(size * advance, 4) for table, size in sizes.items()}
    sent = math.floor(sum(share.values()) + Fraction(1, 2))
    places = {table: math.floor(s) for table, s in share.items()}
    order = sorted(share, key=lambda t: (-(share[t] - places[t]), ticket(t)))
    for table in order[: sent - sum(places.values())]:
        places[table] += 1
    return places


def by_table_number(sizes: dict[int, int]) -> dict[int, int]:
    """The places if level tables simply went in table order: what the draw is not."""
    return published_places("", 1, sizes, 1, ticket=lambda table: table)


def a_seed_the_table_numbers_would_not_guess(sizes: dict[int, int]) -> str:
    """A seed whose draw gives the places left over to other tables than table order
    would, so that only the ticket formula gets them right."""
    for n in range(100):
        seed = f"{n:064x}"
        if published_places(seed, 1, sizes, 1) != by_table_number(sizes):
            return seed
    raise AssertionError("no such seed among the first hundred")


@pytest.mark.parametrize(
    "table_sizes",
    [(4, 3, 3, 3), (5, 5, 5, 3)],
    ids=["two of three threes go through", "the three, then one five in three"],
)
def test_a_knockouts_places_left_over_are_recomputed_from_the_revealed_seed(
    api, alice, table_sizes, django_capture_on_commit_callbacks
):
    event = make_event(slug="knockout", format="knockout", rounds_planned=1)
    event.directors.add(alice)
    sizes = dict(enumerate(table_sizes, start=1))
    Event.objects.filter(pk=event.pk).update(
        draw_seed=a_seed_the_table_numbers_would_not_guess(sizes)
    )
    event.refresh_from_db()
    round_ = make_round(
        event, table_sizes=table_sizes, entries=make_entries(event, sum(table_sizes))
    )
    with django_capture_on_commit_callbacks(execute=True):  # the standings follow
        for table in round_.tables.order_by("number"):
            seats = range(1, table.seats.count() + 1)
            play(table, range(1, event.rules.hand_count + 1), seats)  # seat 1 wins each hand
        services.close_round(round=round_)
        assert api.as_(alice).post("/api/v1/events/knockout/finish/").status_code == 200

    # What anyone can read: the revealed seed, the setting, the seating, the standings.
    reader = api.as_()
    document = reader.get("/api/v1/events/knockout/").json()
    seed = document["draw_seed"]
    assert sha256(seed) == document["draw_commitment"]
    assert document["even_knockout_places"] is True
    seating = reader.get("/api/v1/events/knockout/rounds/1/").json()["tables"]
    table_of = {s["player"]: t["number"] for t in seating for s in t["seats"]}
    seated = {t["number"]: len(t["seats"]) for t in seating}
    rows = reader.get("/api/v1/events/knockout/standings/").json()["standings"]
    through = {t: 0 for t in seated}
    for row in rows:
        if row["status"] == "active":
            through[table_of[row["player"]["id"]]] += 1

    expected = published_places(seed, 1, seated, document["advance_per_table"])
    assert through == expected != by_table_number(seated)


def test_the_event_page_of_a_knockout_publishes_the_table_draw(client):
    make_event(slug="knockout", format="knockout", advance_per_table=2)
    note = draw_note(client.get("/events/knockout/").content.decode())
    text = re.sub(r"<[^>]+>", "", note)
    assert "a table of k players has a share of k × 2 / 4 places" in text
    assert "rounded half up" in text
    assert 'SHA-256 of "seed:round R:table T"' in text
    make_event(slug="total")
    assert "round R:table T" not in draw_note(client.get("/events/total/").content.decode())
