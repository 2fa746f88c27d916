"""The event day in Chromium, as a director does it with the keyboard: a redeal keeps the
cursor on the hand's fresh row; the one seat left empty is taken as who went out;
check-in before a round seats only those checked in; a hand's earlier version is
restored from its history with a reason."""

from __future__ import annotations

import pytest

from core import services
from core.stored_texts.words import reason_words
from scoring.models import Hand
from tests.browser.test_director_sheet import focused_label, open_sheet, sign_in
from tests.browser.waiting import wait_until
from tests.fixtures import hand, make_entries, make_event, make_round, make_user
from tournaments.models import Entry, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event():
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return event


def test_after_a_redeal_the_cursor_stays_on_the_hands_fresh_row(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    open_sheet(page, live_server)
    for _ in range(6):  # four seats, went out, down and out: to Redeal
        page.keyboard.press("Tab")
    assert "redeal" in focused_label(page)
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1[data-state=redealt]")
    assert page.inner_text("#hand-1-state") == "Redeal recorded: enter the new deal's scores"
    wait_until(page, "() => document.activeElement && document.activeElement.id === 'h1-s1'")
    assert not page.is_checked("#hand-1 input[name=redeal]")
    # The new deal's scores, typed straight away, are hand 1.
    for value in ["23", "0", "15", "41"]:
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1[data-state=saved]")
    assert focused_label(page).startswith("Hand 2, seat 1 ")
    attempts = Hand.objects.filter(table__number=1, number=1).order_by("attempt")
    assert [h.outcome for h in attempts] == ["redeal", "scored"]


def test_the_one_seat_left_empty_went_out(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    open_sheet(page, live_server)
    for value in ["23", "", "15", "41"]:
        if value:
            page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # on "went out", left as it was
    page.wait_for_selector("#hand-1[data-state=saved]")
    assert Hand.objects.get(table__number=1, number=1).went_out.position == 2
    assert focused_label(page).startswith("Hand 2, seat 1 ")


def test_players_checked_in_on_the_dashboard_are_the_ones_seated(live_server, new_page):
    alice = make_user("alice")
    event = make_event(slug="checkin", name="Check-in Open", check_in=True)
    event.directors.add(alice)
    entries = make_entries(event, 10)
    page = new_page()
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/checkin/")
    absent = {entries[3].player.name, entries[7].player.name}
    for entry in entries:
        if entry.player.name not in absent:
            page.get_by_label(entry.player.name, exact=True).check()
    page.get_by_role("button", name="Save check-in").press("Enter")
    page.wait_for_selector("text=8 players checked in (8 changed).")
    page.get_by_role("button", name="Start round 1").click()
    page.wait_for_selector("text=The next round is started")
    seated = set(Seat.objects.filter(round__event=event).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries if e.player.name not in absent}
    page.goto(live_server.url + "/director/checkin/")
    tables = page.inner_text("table.progress")
    for entry in entries:
        assert (entry.player.name in tables) is (entry.player.name not in absent)
    assert Entry.objects.filter(event=event, checked_in=True).count() == 8


def test_an_earlier_version_is_restored_with_a_reason(live_server, new_page, event):
    alice = event.directors.get()
    table = event.rounds.get(number=1).tables.get(number=1)
    services.record_hand(table=table, number=1, entry=hand(1, 4), by=alice)
    services.record_hand(table=table, number=1, entry=hand(3, 4, base=30), by=alice)
    page = new_page()
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/director/kingston/rounds/1/tables/1/hands/1/history/")
    form = page.get_by_role("form", name="Restore version 1")
    form.get_by_label("Reason").fill("the sheet was misread")
    form.get_by_label("Reason").press("Enter")
    page.wait_for_selector("text=Hand 1 is restored to version 1 (now version 3).")
    reason = page.inner_text(".history-list li:first-child .history-reason")
    assert "restored version 1: the sheet was misread" in reason
    restored = Hand.objects.get(table=table, number=1)
    assert restored.version == 3 and restored.went_out.position == 1
    assert reason_words(restored.history.latest().history_change_reason) == (
        "restored version 1: the sheet was misread"
    )
