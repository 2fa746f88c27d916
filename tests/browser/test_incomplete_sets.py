"""Incomplete sets in Chromium: a director withdraws a player from a table of three with the
hand they left after, the table closes, and the public table page says so; then the
round is force-closed, reopened and the event finished from the dashboard."""

from __future__ import annotations

import pytest

from core import services
from tests.browser.test_director_sheet import sign_in
from tests.fixtures import make_entries, make_event, make_round, make_user, play
from tournaments.models import Event, Round, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# A director's action commits, ranks the round again (no broker in these tests) and
# comes back with its message: given time on a machine busy with the rest of the suite.
ACTION_TIMEOUT = 30_000


@pytest.fixture
def event():
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open", rounds_planned=1)
    event.directors.add(alice)
    round_ = make_round(event, table_sizes=(4, 3), entries=make_entries(event, 7))
    play(round_.tables.get(number=2), [1, 2, 3], [1, 2, 3])
    services.refresh_standings(event=event)
    return event


def withdraw(page, entry_id: int, left_after_hand: str) -> None:
    """The dashboard's withdrawal form, filled in and sent."""
    form = page.locator("form[aria-label='Withdraw a player']")
    form.locator("select[name=player]").select_option(str(entry_id))
    form.locator("input[name=left_after_hand]").fill(left_after_hand)
    form.locator("button[type=submit]").click()


def test_withdrawing_closes_a_table_of_three_and_the_public_page_says_why(
    live_server, new_page, event
):
    leaver = Seat.objects.select_related("entry__player").get(table__number=2, position=3)
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/kingston/")
    withdraw(page, leaver.entry_id, "2")
    page.wait_for_selector(".flash-error, .flash-success")
    # Hand 3 carries the player's score: the leave point is refused, with the reason.
    assert "has a score in hand 3 at table 2" in page.text_content(".flash-error")
    withdraw(page, leaver.entry_id, "3")
    page.wait_for_selector(".flash-success")
    assert "it closed after hand 3" in page.text_content(".flash-success")
    assert "closed after hand 3" in page.text_content("#table-2 .table-state")

    visitor = new_page()
    visitor.goto(live_server.url + "/events/kingston/rounds/1/tables/2/")
    now = visitor.text_content(".now")
    assert "Table closed after hand 3" in now and "Now playing" not in now
    assert visitor.get_attribute(".now", "data-state") == "closed"


def test_force_close_reopen_and_finish_from_the_dashboard(live_server, new_page, event):
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/kingston/")
    page.click("text=Force close (hands missing)")
    page.wait_for_selector("text=Reopen round 1", timeout=ACTION_TIMEOUT)
    assert "forced" in page.text_content("#table-1 .table-state")
    page.click("text=Finish the event")
    page.wait_for_selector("text=The event is finished", timeout=ACTION_TIMEOUT)
    assert Event.objects.get(slug="kingston").status == "finished"
    # The results are final: reopening changes them, so the page asks why (the box is
    # required) and the event's public page says when and why they changed.
    page.click("text=Reopen round 1")
    assert page.locator("#reopen-reason:invalid").count() == 1
    assert Round.objects.get(event__slug="kingston").status == "closed"
    page.fill("#reopen-reason", "table 1 found its missing hands")
    page.click("text=Reopen round 1")
    page.wait_for_selector("text=Round 1 is reopened", timeout=ACTION_TIMEOUT)
    assert Round.objects.get(event__slug="kingston").status == "published"
    assert Event.objects.get(slug="kingston").status == "running"
    page.goto(live_server.url + "/events/kingston/")
    changed = page.text_content(".results-changed")
    assert "Results changed" in changed
    assert "Round 1 reopened: table 1 found its missing hands" in changed


def test_closing_a_round_with_hands_missing_says_why_in_view(live_server, new_page, event):
    """The reason used to sit far above the screen: every load scrolls to "Go to table"."""
    page = new_page(width=1280, height=700)
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/kingston/")
    page.click("text=Close round 1")
    reason = page.locator(".flash-error")
    reason.wait_for()
    assert reason.text_content().startswith("Hands are missing: table 1 has 0 of 9")
    box = reason.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 700
    assert page.evaluate("document.activeElement.name") == "table"  # the next action
    page.click(".flash-dismiss")
    assert page.locator(".flash").count() == 0
    assert Round.objects.get(event__slug="kingston").status == "published"
