"""A director types a table's sheet in Chromium with the keyboard alone: Tab across a
row, Enter to save it and move on; the totals on the page are checked against numbers
worked out by hand here."""

from __future__ import annotations

import pytest

from scoring.models import Hand, Penalty
from tests.browser.waiting import wait_until
from tests.fixtures import make_entries, make_event, make_round, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event():
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    return event


def sign_in(page, live_server, username="alice", password="pw"):
    """Through the login form, by keyboard: the username box has the focus."""
    page.goto(live_server.url + "/director/")
    assert "/accounts/login/" in page.url
    wait_for_focus(page, "id_username")
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/director/")


def wait_for_focus(page, element_id: str) -> None:
    """The browser moves the cursor to an autofocus box just after the page loads."""
    wait_until(page, f"document.activeElement && document.activeElement.id === {element_id!r}")


def open_sheet(page, live_server, table: int = 1, first_box: str = "h1-s1"):
    page.goto(f"{live_server.url}/director/kingston/rounds/1/tables/{table}/")
    wait_for_focus(page, first_box)


def open_sheet_by_keyboard(page, live_server):
    """From the event's dashboard to table 1's sheet: the 'Go to table' box."""
    page.goto(live_server.url + "/director/kingston/")
    wait_until(page, "() => document.activeElement && document.activeElement.name === 'table'")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.wait_for_url("**/director/kingston/rounds/1/tables/1/")
    wait_for_focus(page, "h1-s1")


def type_hand(page, boxes, went_out, *, down_and_out=False, overcall=None):
    """One row, as a director types it: each seat's box then Tab, the seat that went
    out, the flags and the penalty, then Enter."""
    for value in boxes:
        if value:
            page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.type(str(went_out))  # the "went out" list: its options start with the seat
    if down_and_out or overcall:
        page.keyboard.press("Tab")
        if down_and_out:
            page.keyboard.press("Space")
    if overcall:
        page.keyboard.press("Tab")  # redeal: left alone
        page.keyboard.press("Tab")
        page.keyboard.type(str(overcall))  # the penalty's seat
        page.keyboard.press("Tab")
        page.keyboard.type("o")  # Over-call
    page.keyboard.press("Enter")


def focused_label(page) -> str:
    return page.evaluate("document.activeElement.getAttribute('aria-label') || ''")


def test_a_whole_set_is_typed_with_the_keyboard_alone(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    open_sheet_by_keyboard(page, live_server)
    assert focused_label(page).startswith("Hand 1, seat 1 ")

    type_hand(page, ["23", "0", "15", "41"], 2)
    assert focused_label(page).startswith("Hand 2, seat 1 ")
    # Cards typed into a box: their points show as they are typed.
    page.keyboard.type("0")
    page.keyboard.press("Tab")
    page.keyboard.type("JK AS 10H 7D")
    assert page.text_content("#h2-s2-calc") == "= 82 (4 cards)"
    page.keyboard.press("Tab")
    type_hand(page, ["12", "9"], 1)
    type_hand(page, ["31", "18", "", "27"], 3)  # the box of who went out left empty
    type_hand(page, ["14", "22", "35", "0"], 4, down_and_out=True)
    type_hand(page, ["0", "7", "19", "26"], 1)
    type_hand(page, ["12", "0", "40", "8"], 2, overcall=3)
    type_hand(page, ["9", "16", "0", "33"], 3)
    type_hand(page, ["45", "0", "21", "17"], 2)
    type_hand(page, ["0", "38", "29", "11"], 1)

    for hand in range(1, 10):
        page.wait_for_selector(f"#hand-{hand}[data-state=saved]")
    # After the last hand, the cursor waits on "Lock table 1"; a stray Enter there asks
    # first, and saying no leaves the table open.
    assert page.evaluate("document.activeElement.id") == "lock-table"
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert asked == [
        "Lock table 1? Its hands can no longer be entered or corrected until you unlock it."
    ]
    assert page.evaluate("document.activeElement.id") == "lock-table"

    # Worked out by hand: hand 4 is down and out (the others' cards count double),
    # hand 6 charges seat 3 an over-call (the event's director penalty, 100).
    seat_1 = 23 + 0 + 31 + 14 * 2 + 0 + 12 + 9 + 45 + 0
    seat_2 = 0 + (50 + 15 + 10 + 7) + 18 + 22 * 2 + 7 + 0 + 16 + 0 + 38
    seat_3 = 15 + 12 + 0 + 35 * 2 + 19 + (40 + 100) + 0 + 21 + 29
    seat_4 = 41 + 9 + 27 + 0 + 26 + 8 + 33 + 17 + 11
    assert (seat_1, seat_2, seat_3, seat_4) == (148, 205, 306, 172)
    totals = [page.text_content(f"#total-{seat} strong") for seat in (1, 2, 3, 4)]
    assert totals == [str(seat_1), str(seat_2), str(seat_3), str(seat_4)]
    progress = " ".join(page.text_content("#sheet-progress").split())
    assert progress == "9 of 9 hands entered · complete"
    # The running totals were updated in place, row by row.
    assert page.text_content("#run-4-3").split()[-1] == str(15 + 12 + 0 + 35 * 2)
    assert page.text_content("#h4-s1-calc") == "×2 = 28"
    assert page.text_content("#h6-s3-calc") == "+100 = 140"

    # What the page shows is what was saved: nine hands, one penalty.
    assert Hand.objects.filter(table__number=1, outcome="scored").count() == 9
    penalty = Penalty.objects.get()
    assert (penalty.hand.number, penalty.seat.position, penalty.kind) == (6, 3, "overcall")
    assert Hand.objects.get(table__number=1, number=4).down_and_out


def problems(page, hand: int) -> list[str]:
    page.wait_for_selector(f"#hand-{hand} tr.row-messages li")
    items = page.locator(f"#hand-{hand} tr.row-messages li").all_text_contents()
    return [li.strip() for li in items]


def test_mistakes_are_told_beside_the_row_and_nothing_typed_is_lost(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    open_sheet(page, live_server)

    # 1. A zero for someone who did not go out.
    type_hand(page, ["23", "0", "0", "41"], 2)
    assert problems(page, 1) == ["Seat 3 shows 0 points, but seat 2 went out."]
    # The cursor is back on the box at fault, the rest as typed.
    wait_until(page, "() => document.activeElement.id === 'h1-s3'")
    assert page.input_value("#h1-s1") == "23" and page.input_value("#h1-s4") == "41"
    assert page.get_attribute("#h1-s3", "aria-invalid") == "true"
    page.keyboard.type("15")  # the box's text is selected: typing replaces it
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1[data-state=saved]")
    assert page.locator("#hand-1-problems").count() == 0

    # 2. Nobody chosen as went out, and two seats at 0 (with one, it went out).
    wait_until(page, "() => document.activeElement.id === 'h2-s1'")
    for value in ["10", "0", "0", "9"]:
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert "Choose who went out (or tick Redeal if the stock ran out twice)." in problems(page, 2)

    # 3. A card that does not exist: the page says so while it is typed, and on saving.
    open_sheet(page, live_server, first_box="h2-s1")
    page.click("#h3-s1")
    page.keyboard.type("JK AX")
    assert page.text_content("#h3-s1-calc") == "\u201cAX\u201d: unknown suit"
    page.keyboard.press("Tab")
    type_hand(page, ["0", "12", "9"], 2)
    assert problems(page, 3) == [
        'Seat 1: "AX" is not a card: unknown suit "X" '
        "(ranks are A, 2-10 (or T), J, Q, K and suits S, H, D, C (or ♠ ♥ ♦ ♣), "
        "or JK (or JOKER) for a joker)."
    ]
    assert page.input_value("#h3-s1") == "JK AX"

    # 4. An over-call charged to the player who went out.
    page.click("#h4-s1")
    type_hand(page, ["10", "0", "12", "9"], 2, overcall=2)
    assert problems(page, 4) == ["Seat 2 is charged an over-call, so it cannot have gone out."]
    assert page.input_value("select[name=p1_kind][form=hand-4-form]") == "overcall"

    assert Hand.objects.filter(number__in=(2, 3, 4)).count() == 0
    assert Hand.objects.filter(number=1).count() == 1


def test_a_stale_edit_is_refused_and_the_saved_hand_can_be_shown(live_server, new_page, event):
    mine, theirs = new_page(), new_page()
    make_user("root", superuser=True)
    sign_in(mine, live_server)
    sign_in(theirs, live_server, username="root")
    open_sheet(mine, live_server)
    type_hand(mine, ["23", "0", "15", "41"], 2)
    mine.wait_for_selector("#hand-1[data-state=saved]")
    open_sheet(theirs, live_server, first_box="h2-s1")
    # Both have version 1 on screen; root saves a correction first.
    theirs.fill("#h1-s1", "30")
    theirs.press("#h1-s1", "Enter")
    theirs.wait_for_selector("#hand-1[data-state=saved]")
    mine.fill("#h1-s4", "44")
    mine.press("#h1-s4", "Enter")
    assert problems(mine, 1) == [
        "Someone else saved this hand meanwhile (now version 2); your change was not saved. "
        "Show the saved hand, then enter your change again."
    ]
    assert mine.input_value("#h1-s4") == "44"
    wait_until(mine, "() => document.activeElement.classList.contains('reload')")
    mine.keyboard.press("Enter")  # "Show the saved hand"
    mine.wait_for_selector("#hand-1[data-state=recorded]")
    assert mine.input_value("#h1-s1") == "30" and mine.input_value("#h1-s4") == "41"


def test_the_sheet_fits_a_phone(live_server, new_page, event):
    page = new_page(width=390, height=844)
    sign_in(page, live_server)
    open_sheet(page, live_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#h1-s4").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    type_hand(page, ["23", "0", "15", "41"], 2)
    page.wait_for_selector("#hand-1[data-state=saved]")
    assert page.text_content("#total-4 strong") == "41"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_save_that_never_reaches_the_server_is_told_and_kept(live_server, new_page, event):
    page = new_page()
    sign_in(page, live_server)
    open_sheet(page, live_server)
    page.route("**/hands/1/", lambda route: route.abort("internetdisconnected"))
    type_hand(page, ["23", "0", "15", "41"], 2)
    assert problems(page, 1) == [
        "Hand 1 was not saved: the server could not be reached (is the network down?). "
        "What you typed is still here: press Enter in the row to try again."
    ]
    wait_for_focus(page, "h1-s1")
    assert page.input_value("#h1-s4") == "41"
    # The network is back: Enter in the row saves it.
    page.unroute("**/hands/1/")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1[data-state=saved]")
    assert Hand.objects.filter(number=1).count() == 1
