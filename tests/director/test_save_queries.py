"""How many SQL queries saving one hand costs, from the director's sheet and from the
API: a fixed number, whatever the event's size (the standings are rebuilt by a
background job, from the set totals the save keeps)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core import services
from tests.fixtures import make_round, make_world
from tests.html import Page

pytestmark = pytest.mark.django_db

# The whole request, sign-in and the re-rendered row included (savepoints, which a
# test's own transaction adds, are not counted: production has none), the same on
# SQLite and PostgreSQL: there the bound on the wait for the table's row
# (`core.locks`) is set by the query that locks it, no statement of its own.
# The API: the token and its user, the event, the locked table with its seats, every
# hand of the table with its rows, the hand and its history, the scores and their
# history, the set totals, the stale mark. The sheet: the session and the user instead
# of the token, and the table (the saved row is drawn from what the save holds).
SHEET_QUERIES = 11
API_QUERIES = 10
# Where players enter hands too, a director's save overrules their open entries for it;
# whether any are open is asked with the table's hands.
API_QUERIES_WITH_PLAYERS = 10

ROWS = (
    {"seat1": "23", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"},
    {"seat1": "31", "seat2": "0", "seat3": "15", "seat4": "8", "went_out": "2"},
)
HANDS = (
    {"went_out": 2, "scores": [{"seat": 1, "points": 23}, {"seat": 3, "points": 9},
                               {"seat": 4, "points": 41}]},
    {"went_out": 3, "scores": [{"seat": 1, "points": 5}, {"seat": 2, "points": 18},
                               {"seat": 4, "points": 7}]},
)  # fmt: skip


def queries(captured) -> int:
    return sum(
        not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        for q in captured.captured_queries
    )


def world(tables: int, rounds: int, **event_fields):
    """Alice's event, `rounds` rounds of `tables` tables of four, the last in play."""
    w = make_world(table_sizes=(4,) * tables, **event_fields)
    entries = list(w.event.entries.order_by("seed_number"))
    for number in range(2, rounds + 1):
        make_round(w.event, number=number, table_sizes=(4,) * tables, entries=entries)
    services.refresh_standings(event=w.event)
    return w, rounds


@pytest.mark.parametrize("tables, rounds", [(2, 1), (12, 3)])
def test_a_save_from_the_sheet_costs_a_fixed_number_of_queries(client, tables, rounds):
    w, last = world(tables, rounds)
    client.force_login(w.alice)
    url = w.hand_url(5, round_=last)
    counts = []
    for version, row in enumerate(ROWS * 2):
        with CaptureQueriesContext(connection) as captured:
            # A correction's reason (the hand's history keeps it) costs no query.
            data = {**row, "version": str(version), "reason": "recounted" if version else ""}
            response = client.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content[:300]
        assert b"saved" in response.content.lower()
        counts.append(queries(captured))
    assert max(counts) <= SHEET_QUERIES, counts


@pytest.mark.parametrize(
    "table_entry, most", [("directors", API_QUERIES), ("players", API_QUERIES_WITH_PLAYERS)]
)
@pytest.mark.parametrize("tables, rounds", [(2, 1), (12, 3)])
def test_a_save_through_the_api_costs_a_fixed_number_of_queries(tables, rounds, table_entry, most):
    w, last = world(tables, rounds, table_entry=table_entry)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=w.alice).key}")
    url = f"/api/v1/events/{w.event.slug}/rounds/{last}/tables/1/hands/5/"
    counts = []
    for i, body in enumerate(HANDS * 2):
        with CaptureQueriesContext(connection) as captured:
            response = api.put(url, {**body, "reason": "recounted"} if i else body, format="json")
        assert response.status_code == 200, response.content[:300]
        counts.append(queries(captured))
    assert max(counts) <= most, counts


def test_the_saved_row_and_totals_are_what_the_sheet_shows_afterwards(client):
    """The saved row, every row's running totals, the set totals and the progress are
    drawn from what the save holds, not read again: they are what the whole sheet shows
    right after, through new hands, a redeal, a penalty charged then cleared, and a
    correction of an earlier hand."""
    w, last = world(1, 1)
    client.force_login(w.alice)
    seats = (1, 2, 3, 4)
    saves = (
        (1, {"seat1": "23", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41"}),
        (2, {"redeal": "on"}),
        (2, {"seat1": "10", "seat2": "5", "seat3": "0", "seat4": "7", "went_out": "3",
             "p1_seat": "1", "p1_kind": "overcall"}),
        (3, {"seat1": "0", "seat2": "12", "seat3": "9", "seat4": "4"}),
        (1, {"seat1": "30", "seat2": "0", "seat3": "JK AS 10H 7D", "seat4": "41",
             "reason": "recounted"}),
        (2, {"seat1": "10", "seat2": "5", "seat3": "0", "seat4": "8", "went_out": "3"}),
    )  # fmt: skip
    for number, typed in saves:
        sheet = Page(client.get(w.sheet_url()).content)
        version = sheet.value(number, "version")
        response = client.post(
            w.hand_url(number), {**typed, "version": version}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200, response.content[:300]
        saved, after = Page(response.content), Page(client.get(w.sheet_url()).content)
        for hand in range(1, 10):
            for seat in seats:
                assert saved.text(f"run-{hand}-{seat}") == after.text(f"run-{hand}-{seat}")
        for seat in seats:
            assert saved.text(f"total-{seat}") == after.text(f"total-{seat}")
        assert saved.text("sheet-progress") == after.text("sheet-progress")
        names = [
            name
            for form, name in after.fields
            if form == f"hand-{number}-form" and name != "csrfmiddlewaretoken"
        ]
        assert [saved.value(number, name) for name in names] == [
            after.value(number, name) for name in names
        ]
