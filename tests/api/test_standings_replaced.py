"""The standings API names the substitute who replaced a no-show (`replaced_by`, an
addition to API.md's standings row): `status` stays "withdrawn", as the contract says."""

from __future__ import annotations

import pytest

from core import services
from tests.fixtures import make_event, named_entries
from tests.substitutes import NAMES, NO_SHOW, play_round
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_a_replaced_no_show_names_their_substitute_and_others_name_nobody(api):
    event = make_event(slug="kingston", rounds_planned=2)
    entries = named_entries(event, NAMES)
    services.substitute_entry(entry=entries[NO_SHOW], name="Jane Doe")
    play_round(event, 1)
    services.withdraw_entry(entry=entries[1])  # Lorna Bailey leaves: nobody replaces her
    services.refresh_standings(event=event)
    response = api.as_().get(f"/api/v1/events/{event.slug}/standings/")
    assert response.status_code == 200
    rows = {row["player"]["name"]: row for row in response.json()["standings"]}
    jane = Player.objects.get(name="Jane Doe")
    errol = rows["Errol Ferguson"]
    assert (errol["status"], errol["sets_played"]) == ("withdrawn", 0)
    assert errol["replaced_by"] == {"id": jane.pk, "name": "Jane Doe"}
    assert rows["Lorna Bailey"]["status"] == "withdrawn"
    assert rows["Lorna Bailey"]["replaced_by"] is None
    assert rows["Jane Doe"]["replaced_by"] is None
