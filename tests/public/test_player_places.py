"""A player's page words places and legs as people read them: the best results say
1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd, 23rd (django.contrib.humanize's
`ordinal` filter); the series list names each leg (not its slug), at no extra query."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.ratings.selectors import EventResult, best_results
from tests.core.test_series import leg
from tests.public.test_series_pages import make_circuit, text
from tournaments.models import Player

ORDINALS = {
    1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 10: "10th", 11: "11th", 12: "12th", 13: "13th",
    14: "14th", 21: "21st", 22: "22nd", 23: "23rd", 24: "24th", 101: "101st", 111: "111th",
    112: "112th", 113: "113th", 122: "122nd", 1000: "1000th",
}  # fmt: skip


def best_results_html(*places) -> str:
    """The player's best results as their page renders them, one per place."""
    best = [
        SimpleNamespace(
            event=SimpleNamespace(slug=f"e{place}", name=f"Event {place}"),
            final=True,
            place=place,
            points=100,
        )
        for place in places
    ]
    return " ".join(render_to_string("public/_player_rating.html", {"best": best}).split())


@pytest.mark.parametrize(("place", "expected"), ORDINALS.items())
def test_a_place_reads_as_an_ordinal(db, place, expected):
    assert f"finished {expected}, 100 points" in best_results_html(place)
    assert f"finished {expected}, 100 points" in best_results_html(str(place))


def test_a_result_without_a_place_is_never_worded():
    """The best results leave out an event without a place, so the page never asks the
    `ordinal` filter to word one (it would show None as it is)."""
    results = [
        EventResult(event=name, place=place, points=100, sets=1, hands_won=0, final=True)
        for name, place in (("unplaced", None), ("placed", 2))
    ]
    assert [r.event for r in best_results(results)] == ["placed"]


def test_the_best_results_say_21st_22nd_23rd_and_11th_12th_13th(db):
    best = [
        SimpleNamespace(
            event=SimpleNamespace(slug=f"e{place}", name=f"Event {place}"),
            final=True,
            place=place,
            points=100 + place,
        )
        for place in (21, 22, 23, 11, 12, 13)
    ]
    html = " ".join(render_to_string("public/_player_rating.html", {"best": best}).split())
    for place in (21, 22, 23, 11, 12, 13):
        assert f"finished {ORDINALS[place]}, {100 + place} points" in html
    assert "21th" not in html and "22th" not in html and "11st" not in html


@pytest.fixture
def circuit(root):
    return make_circuit(root)


@pytest.mark.django_db(transaction=True)  # the series standings are built once committed
def test_a_players_series_results_name_the_legs_at_no_extra_query(circuit):
    ann = Player.objects.get(name="Ann")
    client = Client()
    client.get(f"/players/{ann.pk}/")  # warm whatever is cached per process
    with CaptureQueriesContext(connection) as two:
        page = text(client.get(f"/players/{ann.pk}/"))
    section = page[page.index("Series: <a") :]
    legs = [name for name in ("leg-1", "leg-2") if f"{name}: place" in section]
    assert not legs, legs  # named, not by slug
    names = dict(circuit.legs.values_list("slug", "name"))
    assert f"{names['leg-1']}: place 1" in section and f"{names['leg-2']}: place 2" in section
    others = [Player.objects.create(name=f"New {i}") for i in range(3)]
    leg(circuit, [ann, *others], day=3, name="Third Leg")
    with CaptureQueriesContext(connection) as three:
        page = text(client.get(f"/players/{ann.pk}/"))
    assert "Third Leg: place 1" in page
    assert len(three) == len(two)
