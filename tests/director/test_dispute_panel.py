"""The players' entries panel on a table's sheet: it follows the table by itself (204
while nothing changed), says a dispute is settled once the hand is recorded, records a
version in one action through the sheet's service, and a late action says plainly that
the hand was recorded meanwhile."""

from __future__ import annotations

import pytest

from core import services
from scoring.models import Hand, Proposal
from tests.fixtures import hand
from tests.html import Page, signed_in

pytestmark = pytest.mark.django_db
CLIENT = "192.0.2.11"


@pytest.fixture
def disputed(entry_world, codes):
    """Hand 1 at table 1: entered by seat 1, disputed by seat 3 with their version."""
    w = entry_world
    table = w.table
    services.propose_hand(
        table=table, number=1, entry=hand(2, 4), code=codes[(1, 1)], client=CLIENT
    )
    services.dispute_proposal(
        table=table, number=1, entry=hand(3, 4), code=codes[(1, 3)], client=CLIENT
    )
    return w


def record_url(w) -> str:
    return w.hand_url(1, rest="proposal/record/")


def test_the_panel_follows_the_table_and_says_the_dispute_is_settled(
    disputed, django_capture_on_commit_callbacks
):
    w = disputed
    director = signed_in(w.alice)
    page = Page(director.get(w.sheet_url()).content)
    live = page.attrs("player-entries-live")
    assert live["hx-get"].startswith(w.url("rounds/1/tables/1/proposals/?s="))
    assert live["hx-trigger"] == "every 1s" and "data-poll" in live
    assert director.get(live["hx-get"]).status_code == 204  # nothing changed

    row = {"version": "0", "seat1": "11", "seat2": "12", "seat3": "13", "seat4": "0"}
    with django_capture_on_commit_callbacks(execute=True):  # the sheet's row, saved
        saved = director.post(w.hand_url(1), {**row, "went_out": "4"}, HTTP_HX_REQUEST="true")
    assert saved.status_code == 200
    fresh = director.get(live["hx-get"])
    assert fresh.status_code == 200
    panel = Page(fresh.content)
    assert not panel.has("entry-1")
    assert panel.text("player-entries-settled") == (
        "Hand 1 is recorded (version 1, saved by alice): the dispute is settled."
    )
    follow = panel.attrs("player-entries-live")["hx-get"]
    assert follow != live["hx-get"] and director.get(follow).status_code == 204


def test_record_this_version_records_it_in_one_action(disputed):
    w = disputed
    director = signed_in(w.alice)
    response = director.post(record_url(w), {"entry": "1", "which": "disputed"}, follow=True)
    assert response.status_code == 200
    assert "Hand 1 recorded: the disputing player&#x27;s version." in response.content.decode()
    stored = Hand.objects.get(table=w.table, number=1)
    assert stored.went_out.position == 3 and stored.recorded_by == w.alice
    assert Proposal.objects.get().state == "overruled"
    page = Page(response.content)
    assert not page.has("entry-1")
    assert "the dispute is settled" in page.text("player-entries-settled")


def test_a_late_record_this_version_says_the_hand_was_recorded_meanwhile(disputed):
    w = disputed
    director = signed_in(w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(4, 4), by=w.alice)
    response = director.post(record_url(w), {"entry": "1", "which": "disputed"})
    assert response.status_code == 412
    page = Page(response.content)
    problem = page.text("player-entries-problem")
    assert problem.startswith("This hand was recorded meanwhile: hand 1 stands at version 1")
    assert "Someone else saved" not in response.content.decode()
    assert Hand.objects.get(table=w.table, number=1).went_out.position == 4  # unchanged
    assert page.has("sheet")  # the sheet, as it stands, below


def test_a_version_of_an_entry_made_again_is_not_recorded(disputed, codes):
    w = disputed
    services.propose_hand(
        table=w.table, number=2, entry=hand(2, 4), code=codes[(1, 1)], client=CLIENT
    )
    services.propose_hand(
        table=w.table, number=2, entry=hand(4, 4), code=codes[(1, 2)], client=CLIENT
    )
    director = signed_in(w.alice)
    response = director.post(w.hand_url(2, rest="proposal/record/"), {"entry": "1"})
    assert response.status_code == 409
    assert "entered again (by seat 2)" in Page(response.content).text("player-entries-problem")
    assert not Hand.objects.filter(number=2).exists()


def test_a_garbled_entry_number_is_refused(disputed):
    w = disputed
    response = signed_in(w.alice).post(record_url(w), {"entry": "one", "which": "disputed"})
    assert response.status_code == 400 and not Hand.objects.exists()


def test_only_the_events_directors_reach_the_panel(disputed):
    w = disputed
    other = signed_in(w.bob)
    assert other.get(w.url("rounds/1/tables/1/proposals/")).status_code == 404
    assert other.post(record_url(w), {"entry": "1"}).status_code == 404
    assert not Hand.objects.exists()
