"""The round clock (API.md, "The round clock") and announcements through the API."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from core import services
from tests.fixtures import make_event, make_round
from tournaments.models import DEFAULT_TIME_RULE, Announcement, Round, RoundClock

pytestmark = pytest.mark.django_db

CLOCK = "/api/v1/events/kingston/rounds/1/clock/"
ANNOUNCEMENTS = "/api/v1/events/kingston/announcements/"


@pytest.fixture
def two_tables(event):
    make_round(event, table_sizes=(4, 4))
    return event


def test_anyone_reads_a_rounds_clock_in_the_contracts_names(api, two_tables):
    body = api.as_().get(CLOCK).json()
    assert {"state", "ends_at", "remaining_s", "tables"} <= set(body)
    assert body["state"] == "stopped" and body["ends_at"] is None
    assert body["remaining_s"] == 90 * 60 and body["minutes"] == 90
    assert body["time_rule"] == two_tables.time_rule_text == DEFAULT_TIME_RULE
    assert [(t["number"], t["extra_s"]) for t in body["tables"]] == [(1, 0), (2, 0)]


def test_a_director_starts_extends_one_table_pauses_and_resumes(api, alice, two_tables):
    client = api.as_(alice)
    started = client.post(CLOCK, {"action": "start", "minutes": 50}, format="json")
    assert started.status_code == 200
    body = started.json()
    assert body["state"] == "running" and 50 * 60 - 5 <= body["remaining_s"] <= 50 * 60
    ends = datetime.fromisoformat(body["ends_at"])
    extended = client.post(CLOCK, {"action": "extend", "minutes": 3, "table": 2}, format="json")
    tables = {t["number"]: t for t in extended.json()["tables"]}
    assert tables[1]["extra_s"] == 0 and tables[2]["extra_s"] == 180
    assert (datetime.fromisoformat(tables[2]["ends_at"]) - ends).total_seconds() == 180
    paused = client.post(CLOCK, {"action": "pause"}, format="json").json()
    assert paused["state"] == "paused" and paused["ends_at"] is None
    assert {t["state"] for t in paused["tables"]} == {"paused"}
    assert api.as_().get(CLOCK).json()["remaining_s"] == paused["remaining_s"]
    resumed = client.post(CLOCK, {"action": "resume"}, format="json").json()
    assert resumed["state"] == "running"
    every = client.post(CLOCK, {"action": "extend", "minutes": 2}, format="json").json()
    assert every["remaining_s"] >= resumed["remaining_s"] + 115
    assert RoundClock.objects.get().history.count() == 5


def test_without_minutes_the_clock_starts_with_the_events_round_time(api, alice, two_tables):
    two_tables.round_minutes = 75
    two_tables.save()
    body = api.as_(alice).post(CLOCK, {"action": "start"}, format="json").json()
    assert body["minutes"] == 75


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "action"),
        ({"action": "stop"}, "action"),
        ({"action": "start", "minutes": 0}, "minutes"),
        ({"action": "start", "minutes": "ninety"}, "minutes"),
        ({"action": "start", "minutes": 10**30}, "minutes"),
        ({"action": "start", "table": 1}, "table"),
        ({"action": "extend", "minutes": 5, "table": 3}, "table"),
        ({"action": "extend"}, "minutes"),
        ({"action": "extend", "minutes": 0}, "minutes"),
    ],
)
def test_bad_input_is_400_naming_the_field(api, alice, two_tables, body, field):
    client = api.as_(alice)
    if body.get("action") == "extend":
        client.post(CLOCK, {"action": "start"}, format="json")
    response = client.post(CLOCK, body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()


def test_an_action_the_state_forbids_is_409(api, alice, two_tables):
    client = api.as_(alice)
    refused = client.post(CLOCK, {"action": "resume"}, format="json")
    assert refused.status_code == 409
    assert refused.json() == {"action": ["The clock is not paused."]}
    Round.objects.filter(event=two_tables).update(status=Round.Status.CLOSED)
    closed = client.post(CLOCK, {"action": "start"}, format="json")
    assert closed.status_code == 409 and "closed" in closed.json()["round"][0]
    assert not RoundClock.objects.exists()


def test_a_director_pauses_while_a_table_still_plays_its_extra_time(api, alice, two_tables):
    client = api.as_(alice)
    client.post(CLOCK, {"action": "start", "minutes": 1}, format="json")
    client.post(CLOCK, {"action": "extend", "minutes": 5, "table": 2}, format="json")
    RoundClock.objects.update(ends_at=F("ends_at") - timedelta(minutes=2))  # a round over
    paused = client.post(CLOCK, {"action": "pause"}, format="json")
    assert paused.status_code == 200, paused.json()
    tables = {t["number"]: t for t in paused.json()["tables"]}
    assert tables[1]["state"] == tables[2]["state"] == "paused"
    assert tables[1]["remaining_s"] == 0 and 235 <= tables[2]["remaining_s"] <= 240


@pytest.mark.parametrize("time_left", [True, False])
def test_a_closed_rounds_clock_reads_over_and_stops_counting(api, alice, two_tables, time_left):
    client = api.as_(alice)
    client.post(CLOCK, {"action": "start", "minutes": 50}, format="json")
    client.post(CLOCK, {"action": "extend", "minutes": 3, "table": 2}, format="json")
    round_ = Round.objects.get(event=two_tables)
    if not time_left:  # the round's time ran out, table 2's extra time not yet
        RoundClock.objects.update(ends_at=F("ends_at") - timedelta(minutes=51))
    services.close_round(round=round_, force=True)
    closed_at = Round.objects.get(pk=round_.pk).closed_at
    body = api.as_().get(CLOCK).json()
    assert (body["state"], body["remaining_s"]) == ("over", 0)
    assert datetime.fromisoformat(body["ends_at"]) <= closed_at
    assert {(t["state"], t["remaining_s"]) for t in body["tables"]} == {("over", 0)}
    assert all(datetime.fromisoformat(t["ends_at"]) <= closed_at for t in body["tables"])
    assert api.as_().get(CLOCK).json() == body  # nothing counts down any more


def test_only_a_director_changes_the_clock(api, alice, bob, root, two_tables):
    assert api.as_().post(CLOCK, {"action": "start"}, format="json").status_code in (401, 403)
    assert api.as_(bob).post(CLOCK, {"action": "start"}, format="json").status_code == 403
    assert not RoundClock.objects.exists()
    assert api.as_(root).post(CLOCK, {"action": "start"}, format="json").status_code == 200
    missing = "/api/v1/events/kingston/rounds/9/clock/"
    assert api.as_().get(missing).status_code == 404
    assert api.as_(alice).post(missing, {"action": "start"}, format="json").status_code == 404


def test_announcements_are_posted_listed_and_removed_into_the_history(api, alice, bob, event):
    client = api.as_(alice)
    posted = client.post(ANNOUNCEMENTS, {"text": "Round 3 starts at 14:30"}, format="json")
    assert posted.status_code == 201
    body = posted.json()
    assert body["text"] == "Round 3 starts at 14:30" and body["current"] is True
    one = f"{ANNOUNCEMENTS}{body['id']}/"
    assert api.as_(bob).delete(one).status_code == 403
    assert client.delete(one).status_code == 204
    assert client.delete(one).status_code == 204  # sent again: nothing changes
    listed = api.as_().get(ANNOUNCEMENTS).json()
    assert [(a["id"], a["current"]) for a in listed] == [(body["id"], False)]
    assert listed[0]["removed_at"] is not None
    assert api.as_().get(one).json()["current"] is False


def test_a_bad_announcement_is_400_and_writes_nothing(api, alice, event):
    client = api.as_(alice)
    for body in ({}, {"text": ""}, {"text": "x" * 201}):
        response = client.post(ANNOUNCEMENTS, body, format="json")
        assert response.status_code == 400 and "text" in response.json()
    assert api.as_().post(ANNOUNCEMENTS, {"text": "Hi"}, format="json").status_code in (401, 403)
    assert not Announcement.objects.exists()
    assert api.as_().get(f"{ANNOUNCEMENTS}12345/").status_code == 404


def test_reading_a_clock_runs_as_many_queries_for_30_tables_as_for_2(api):
    counts = []
    for slug, tables in (("small", 2), ("large", 30)):
        other = make_event(slug=slug)
        round_ = make_round(other, table_sizes=(4,) * tables)
        services.clock_action(round=round_, action="start")
        services.clock_action(round=round_, action="extend", minutes=3, table=2)
        with CaptureQueriesContext(connection) as captured:
            body = api.as_().get(f"/api/v1/events/{slug}/rounds/1/clock/").json()
        assert len(body["tables"]) == tables
        counts.append(len(captured))
    assert counts[0] == counts[1] <= 3, counts


def test_the_schema_describes_the_clock_and_the_announcements_in_the_contracts_names(api):
    schema = api.as_().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    clock = paths["/api/v1/events/{slug}/rounds/{number}/clock/"]
    assert {"get", "post"} <= set(clock)

    def properties(ref: dict) -> set[str]:
        return set(components[ref["$ref"].rsplit("/", 1)[1]]["properties"])

    shown = clock["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert {"state", "ends_at", "remaining_s", "tables"} <= properties(shown)
    sent = clock["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"action", "minutes", "table"} <= properties(sent)
    announcements = "/api/v1/events/{slug}/announcements/"
    assert {"get", "post"} <= set(paths[announcements])
    assert "delete" in paths[announcements + "{announcement_id}/"]
