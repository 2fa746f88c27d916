"""A carried-over score (`carry_over_step` > 0) is penalty points, so the final must
rank by total points whichever way the two meet: naming the final (`final`), or
changing the step (`carry_over_step`). And once the final's entries are made, their
carried points follow the step they were made with: the step no longer changes.
Each refusal is a 400 naming the field, with nothing written."""

from __future__ import annotations

import pytest

from core import services
from tests.core.test_series import leg
from tests.fixtures import make_event
from tournaments.models import Entry, Event, Player, Series

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/series/circuit/"


@pytest.fixture
def series(alice):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "qualifiers": 3}, by=alice
    )


def final_event(alice, slug: str, format: str) -> Event:
    event = make_event(
        slug=slug, name=slug.title(), status=Event.Status.REGISTRATION, format=format
    )
    event.directors.add(alice)
    return event


def refused(response, field: str) -> str:
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field], response.json()
    return response.json()[field][0]


def test_a_table_points_final_is_refused_while_a_score_is_carried(api, alice, series):
    final_event(alice, "tp-final", Event.Format.TABLE_POINTS)
    client = api.as_(alice)
    assert client.patch(URL, {"carry_over_step": 10}, format="json").status_code == 200
    reason = refused(client.patch(URL, {"final": "tp-final"}, format="json"), "final")
    assert 'format "total"' in reason
    assert Series.objects.get(pk=series.pk).final_id is None
    # Both in one request: the final named is what is refused.
    both = client.patch(URL, {"final": "tp-final", "carry_over_step": 20}, format="json")
    assert 'format "total"' in refused(both, "final")
    assert Series.objects.get(pk=series.pk).carry_over_step == 10
    # Without a carried-over score, a table-points final is fine.
    body = {"final": "tp-final", "carry_over_step": 0}
    assert client.patch(URL, body, format="json").status_code == 200


def test_a_score_is_not_carried_into_a_table_points_final(api, alice, series):
    final = final_event(alice, "tp-final", Event.Format.TABLE_POINTS)
    client = api.as_(alice)
    assert client.patch(URL, {"final": "tp-final"}, format="json").status_code == 200
    reason = refused(client.patch(URL, {"carry_over_step": 10}, format="json"), "carry_over_step")
    assert final.name in reason and 'format "total"' in reason
    assert Series.objects.get(pk=series.pk).carry_over_step == 0


def test_a_series_is_not_created_carrying_a_score_into_a_table_points_final(api, alice, root):
    final_event(alice, "tp-final", Event.Format.TABLE_POINTS)
    body = {"slug": "tour", "name": "Tour", "carry_over_step": 5, "final": "tp-final"}
    response = api.as_(root).post("/api/v1/series/", body, format="json")
    assert 'format "total"' in refused(response, "final")
    assert not Series.objects.filter(slug="tour").exists()


def test_a_new_step_puts_the_final_out_of_step_until_it_is_seeded_again(api, alice, series):
    leg(series, [Player.objects.create(name=f"P{i}") for i in range(4)], day=1)
    final = final_event(alice, "grand-final", Event.Format.TOTAL)
    client = api.as_(alice)
    made = client.post(f"{URL}final/", {"event": "grand-final"}, format="json")
    assert made.status_code == 200, made.content
    assert client.patch(URL, {"carry_over_step": 10}, format="json").status_code == 200
    shown = client.get(URL).json()
    assert shown["final_out_of_step"] is True
    assert [c for c in shown["final_changes"] if "would carry" in c] == [
        "P1 would carry 10 (now 0)",
        "P2 would carry 20 (now 0)",
    ]
    assert set(Entry.objects.filter(event=final).values_list("carried_points", flat=True)) == {0}
    again = client.post(f"{URL}final/", {"event": "grand-final"}, format="json")
    order = again.json()["entries"]
    carried = dict(Entry.objects.filter(event=final).values_list("player_id", "carried_points"))
    assert [carried[p] for p in order] == [0, 10, 20]
    assert client.get(URL).json()["final_out_of_step"] is False
