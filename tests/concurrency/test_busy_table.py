"""A table whose row another transaction holds for long does not stall the site: a
save there waits a moment, then is answered 503 "busy" with Retry-After (nothing
written), while saves at other tables and the pages answer as usual. Background jobs
still wait for their locks. PostgreSQL only: real row locks, held by another
connection."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest
from django.test import Client
from django.test.utils import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core import services
from scoring.models import Hand, Proposal
from tests.concurrency.test_lock_order import in_thread, rebuild_in_progress
from tests.concurrency.threads import another_connection
from tests.fixtures import codes_of, make_world
from tests.html import HTMX, row, signed_in
from tournaments.models import Event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT = 1  # LOCK_WAIT_SECONDS in these tests: a busy answer comes after about this long
HELD = WAIT + 5  # how long the other connection holds the table before it lets go
HAND = {
    "went_out": 2,
    "down_and_out": False,
    "scores": [
        {"seat": 1, "points": 23},
        {"seat": 2, "points": 0},
        {"seat": 3, "points": 25},
        {"seat": 4, "points": 41},
    ],
    "penalties": [],
}


@pytest.fixture(autouse=True)
def _jobs_to_a_worker(monkeypatch):
    """Background jobs go to a worker, as in production, not run by this process after
    its commit (where a rebuild would wait for the held table as a worker would)."""
    monkeypatch.setattr("core.background.send", lambda *args, **kwargs: True)


@pytest.fixture
def w():
    with override_settings(LOCK_WAIT_SECONDS=WAIT, LOCK_RETRY_AFTER_SECONDS=2):
        yield make_world(table_entry=Event.TableEntry.PLAYERS)


def api(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def hand_url(table: int, hand: int = 1) -> str:
    return f"/api/v1/events/kingston/rounds/1/tables/{table}/hands/{hand}/"


@contextmanager
def table_held(table):
    """Another connection holds the table's row for update (a stuck save) meanwhile; it
    lets go by itself after a while, so a save that waits for it (rather than giving up
    in WAIT seconds) shows up as slow, not as a test that never ends."""
    with another_connection() as other:
        other.execute("SELECT 1 FROM tournaments_table WHERE id = %s FOR UPDATE", [table.pk])
        letting_go = threading.Timer(HELD, other.rollback)
        letting_go.start()
        try:
            yield
        finally:
            letting_go.cancel()
            other.rollback()


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_a_save_at_a_held_table_is_answered_busy_in_seconds_and_writes_nothing(w):
    with table_held(w.table):
        response, took = timed(lambda: api(w.alice).put(hand_url(1), HAND, format="json"))
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "2"
    assert "table is busy" in response.json()["non_field_errors"][0]
    assert WAIT <= took < WAIT + 2
    assert not Hand.objects.exists()
    # Free again: the same save goes through.
    assert api(w.alice).put(hand_url(1), HAND, format="json").status_code == 200


def test_while_one_table_is_held_other_tables_and_pages_answer_at_once(w):
    Client().get("/events/kingston/")  # this process's first request pays its warm-up
    # Neither busy (answered after WAIT) nor waiting for the holder to let go (HELD):
    # the busy table holds nothing else up (on a loaded machine a request may be slow).
    with table_held(w.table):
        saved, took = timed(lambda: api(w.alice).put(hand_url(2), HAND, format="json"))
        assert saved.status_code == 200, saved.content
        assert took < HELD
        page, took = timed(lambda: Client().get("/events/kingston/"))
        assert page.status_code == 200 and took < HELD
        sheet, took = timed(lambda: signed_in(w.alice).get(w.sheet_url(table=1)))
        assert sheet.status_code == 200 and took < HELD
    assert list(Hand.objects.values_list("table__number", flat=True)) == [2]


def test_the_directors_sheet_says_the_table_is_busy_and_keeps_the_row(w):
    typed = row(seat1=23, seat2=0, seat3=25, seat4=41, went_out=2)
    with table_held(w.table):
        response = signed_in(w.alice).post(w.hand_url(1), typed, **HTMX)
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    page = response.content.decode()
    assert "table is busy" in page and 'value="25"' in page
    assert not Hand.objects.exists()


def test_a_players_entry_at_a_held_table_is_answered_busy(w):
    codes = codes_of(w.round)
    phone = Client()
    phone.get(f"/events/kingston/rounds/1/tables/1/enter/?code={codes[(1, 1)]}")
    typed = {"seat1": "23", "seat2": "", "seat3": "25", "seat4": "41", "went_out": "2"}
    with table_held(w.table):
        response = phone.post("/events/kingston/rounds/1/tables/1/enter/hands/1/", typed)
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert "table is busy" in response.content.decode()
    assert not Proposal.objects.exists()


def test_the_standings_rebuild_still_waits_for_its_lock(w):
    """A background job is nobody's request: it waits as long as the lock is held."""
    with rebuild_in_progress(w.event):
        thread, outcome = in_thread(lambda: services.refresh_standings(event=w.event))
        time.sleep(WAIT + 1)
        assert thread.is_alive()  # still waiting, not refused
    thread.join(10)
    assert not thread.is_alive() and not isinstance(outcome[0], Exception), outcome
