"""Results are frozen when they are played: once a round is closed, the settings that
rank its sets (format, table points, advance per table, tiebreaks) are refused with
409 naming the field and the rounds that hold them, and nothing changes. Before any
round is closed they may still change."""

from __future__ import annotations

import pytest

from core import services
from scoring.models import Standing
from tests.fixtures import make_entries, make_event, make_round, play

pytestmark = pytest.mark.django_db

CHANGES = [
    {"format": "table-points"},
    {"table_points": [9, 5, 2, 0]},
    {"advance_per_table": 2},
    {"even_knockout_places": False},
    {"tiebreaks": ["penalty_points", "hands_won", "draw"]},
]


@pytest.fixture
def played(alice):
    event = make_event(slug="kingston", rounds_planned=2)
    event.directors.add(alice)
    round_ = make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    for table in round_.tables.all():
        play(table, range(1, event.rules.hand_count + 1), (1, 2, 3, 4), base=table.number)
    return event, round_


@pytest.mark.parametrize("change", CHANGES, ids=lambda c: next(iter(c)))
def test_a_ranking_setting_is_refused_once_a_round_is_closed(api, alice, played, change):
    event, round_ = played
    services.close_round(round=round_)
    services.refresh_standings(event=event)
    ranked = list(Standing.objects.values_list("entry_id", "rank", "table_points"))
    response = api.as_(alice).patch("/api/v1/events/kingston/", change, format="json")
    assert response.status_code == 409
    (field,) = change
    assert response.json() == {
        field: [
            "Round 1 is closed and ranked with this setting, so it can no longer change: "
            "played results stay as they were ranked."
        ]
    }
    event.refresh_from_db()
    assert getattr(event, field) != change[field]
    assert list(Standing.objects.values_list("entry_id", "rank", "table_points")) == ranked


def test_sending_a_ranking_setting_unchanged_is_not_refused(api, alice, played):
    event, round_ = played
    services.close_round(round=round_)
    response = api.as_(alice).patch(
        "/api/v1/events/kingston/",
        {"format": event.format, "table_points": list(event.table_points), "name": "Kingston"},
        format="json",
    )
    assert response.status_code == 200, response.json()


def test_before_a_round_is_closed_a_ranking_setting_may_still_change(api, alice, played):
    response = api.as_(alice).patch(
        "/api/v1/events/kingston/", {"format": "table-points"}, format="json"
    )
    assert response.status_code == 200, response.json()
