"""Who may read and write a series and a house ruleset: anyone reads a public series;
only its organisers (or a superuser) change it; a leg or a final must be an event the
writer directs; bad input is a 400 naming the field."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from core import services
from core.errors import Forbidden
from tests.fixtures import make_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(alice):
    return services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=alice)


@pytest.fixture
def organiser_event(alice):
    event = make_event(slug="alices-leg")
    event.directors.add(alice)
    return event


def test_anyone_reads_a_public_series_and_its_standings(api, series):
    assert api.as_().get("/api/v1/series/circuit/").json()["name"] == "Circuit"
    document = api.as_().get("/api/v1/series/circuit/standings/").json()
    assert document == {"version": 0, "standings": []}
    assert api.as_().get("/api/v1/series/").json()["count"] == 1


def test_a_private_series_is_its_organisers_only(api, series, alice, bob):
    services.update_series(series=series, data={"public": False})
    assert api.as_().get("/api/v1/series/circuit/").status_code == 404
    assert api.as_(bob).get("/api/v1/series/circuit/standings/").status_code == 404
    assert api.as_(alice).get("/api/v1/series/circuit/").status_code == 200


def test_only_its_organisers_change_a_series(api, series, alice, bob, root):
    body = {"qualifiers": 8}
    assert api.as_().patch("/api/v1/series/circuit/", body, format="json").status_code in (
        401,
        403,
    )
    assert api.as_(bob).patch("/api/v1/series/circuit/", body, format="json").status_code == 403
    assert api.as_(alice).patch("/api/v1/series/circuit/", body, format="json").status_code == 200
    assert api.as_(root).patch("/api/v1/series/circuit/", body, format="json").status_code == 200


def test_creating_a_series_needs_the_right_to_create_events(api, bob):
    body = {"slug": "mine", "name": "Mine"}
    assert api.as_(bob).post("/api/v1/series/", body, format="json").status_code == 403
    bob.user_permissions.add(Permission.objects.get(codename="add_event"))
    bob = type(bob).objects.get(pk=bob.pk)
    created = api.as_(bob).post("/api/v1/series/", body, format="json")
    assert created.status_code == 201
    assert created.json()["points_scale"][:3] == [100, 80, 65]


def test_a_leg_must_be_an_event_the_organiser_directs(api, series, alice, organiser_event):
    client = api.as_(alice)
    refused = client.post("/api/v1/series/circuit/events/", {"event": "bobs-event"}, format="json")
    assert refused.status_code in (400, 403)  # bob's event: not alice's to bring in
    added = client.post("/api/v1/series/circuit/events/", {"event": "alices-leg"}, format="json")
    assert added.status_code == 201
    assert [leg["event"] for leg in added.json()] == ["alices-leg"]
    assert client.get("/api/v1/events/alices-leg/").json()["series"] == "circuit"
    assert client.delete("/api/v1/series/circuit/events/alices-leg/").status_code == 204
    gone = client.delete("/api/v1/series/circuit/events/alices-leg/")  # no longer a leg
    assert gone.status_code == 404 and gone.json() == {"detail": "No such leg in this series."}
    assert Event.objects.get(slug="alices-leg").series_id is None


def test_another_organiser_cannot_add_legs_or_make_the_final(api, series, bob):
    client = api.as_(bob)
    body = {"event": "bobs-event"}
    assert client.post("/api/v1/series/circuit/events/", body, format="json").status_code == 403
    assert client.post("/api/v1/series/circuit/final/", body, format="json").status_code == 403


def test_bad_input_is_a_400_naming_the_field(api, series, alice):
    client = api.as_(alice)
    for body, field in (
        ({"points_scale": [1, 5]}, "points_scale"),
        ({"points_scale": "lots"}, "points_scale"),
        ({"best_of": 0}, "best_of"),
        ({"qualifiers": -1}, "qualifiers"),
        ({"prizes": [{"place": 1, "amount": "x"}]}, "prizes"),
        ({"prize_ties": "coin"}, "prize_ties"),
    ):
        response = client.patch("/api/v1/series/circuit/", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert field in response.json()
    final = client.post("/api/v1/series/circuit/final/", {"event": "nope"}, format="json")
    assert final.status_code == 400 and "event" in final.json()
    unknown = client.get("/api/v1/series/unknown/standings/")
    assert unknown.status_code == 404


def test_house_rulesets_are_defined_by_directors_and_changed_by_their_owner(api, bob, root):
    body = {
        "slug": "ten",
        "name": "Ten",
        "hands": [{"cards_dealt": 10, "threes": 2, "fours": 0}] * 10,
        "jokers_per_pack": 2,
        "overcall_penalty": 80,
        "false_laydown_penalty": 120,
        "down_and_out_doubles": False,
    }
    assert api.as_().post("/api/v1/rulesets/", body, format="json").status_code in (401, 403)
    created = api.as_(root).post("/api/v1/rulesets/", body, format="json")
    assert created.status_code == 201, created.json()
    assert api.as_().get("/api/v1/rulesets/ten/").json()["overcall_penalty"] == 80
    patch = {"overcall_penalty": 90}
    assert api.as_(bob).patch("/api/v1/rulesets/ten/", patch, format="json").status_code == 403
    assert api.as_(root).patch("/api/v1/rulesets/ten/", patch, format="json").status_code == 200
    bad = api.as_(root).patch("/api/v1/rulesets/ten/", {"jokers_per_pack": 50}, format="json")
    assert bad.status_code == 400 and "jokers_per_pack" in bad.json()
    # An event names it, and plays ten hands.
    event = api.as_(root).post(
        "/api/v1/events/", {"slug": "tens", "name": "Tens", "custom_ruleset": "ten"}, format="json"
    )
    assert event.status_code == 201, event.json()
    assert event.json()["ruleset"] == "custom" and event.json()["frozen_ruleset"] is None
    missing = api.as_(root).post(
        "/api/v1/events/", {"slug": "x", "name": "X", "custom_ruleset": "nope"}, format="json"
    )
    assert missing.status_code == 400 and "custom_ruleset" in missing.json()


def test_bringing_in_another_directors_event_is_refused_by_the_service(
    api, series, alice, bob, root
):
    """Who may make an event a leg or the final is checked once, in the service: the
    API answers its refusal as 403, naming the event, and nothing changes."""
    bobs = Event.objects.get(slug="bobs-event")
    as_leg = {"event": ["Only a director of Bob's Event may make it a leg of a series."]}
    as_final = {"event": ["Only a director of Bob's Event may make it a series' final."]}
    with pytest.raises(Forbidden) as refused:
        services.add_leg(series=series, event=bobs, by=alice)
    assert refused.value.errors == as_leg
    with pytest.raises(Forbidden):
        services.create_final(series=series, event=bobs, by=alice)
    client = api.as_(alice)
    body = {"event": "bobs-event"}
    leg = client.post("/api/v1/series/circuit/events/", body, format="json")
    assert leg.status_code == 403
    assert leg.json() == as_leg
    final = client.post("/api/v1/series/circuit/final/", body, format="json")
    assert final.status_code == 403
    assert final.json() == as_final
    bobs.refresh_from_db()
    series.refresh_from_db()
    assert bobs.series_id is None and series.final_id is None and not bobs.entries.exists()
    # A superuser directs every event.
    services.add_leg(series=series, event=bobs, by=root)
    assert Event.objects.get(pk=bobs.pk).series_id == series.pk
