"""The pages' scripts in the reader's language, in Chromium: the director's sheet reads
digits typed on a Persian keyboard as numbers and shows its running count in Persian
digits; on Russian pages the words the scripts write (the points of cards as typed, a
save that never got an answer, the players' form when the table moved on) are Russian."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core import services
from scoring.models import Hand
from tests.browser.waiting import wait_until
from tests.fixtures import codes_of, hand, make_entries, make_event, make_round, make_user
from tournaments.models import Event, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_TIMEOUT = 15_000  # the pages poll every few seconds (every second in the tests)


@pytest.fixture
def event():
    alice = make_user("alice")
    event = make_event(slug="kingston", name="Kingston Open")
    event.directors.add(alice)
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    return event


def in_language(page, live_server, language: str) -> None:
    """The reader chose `language` with the switch: Django's language cookie."""
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


def open_sheet(page, live_server, language: str) -> None:
    in_language(page, live_server, language)
    page.goto(live_server.url + "/accounts/login/?next=/director/kingston/rounds/1/tables/1/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw")
    page.press("#id_password", "Enter")
    page.wait_for_url("**/director/kingston/rounds/1/tables/1/")
    assert page.evaluate("document.documentElement.lang") == language
    wait_until(page, "() => document.activeElement && document.activeElement.id === 'h1-s1'")


def calc(page, box: str) -> dict:
    return page.evaluate(
        """(id) => {
            const out = document.getElementById(id + "-calc");
            return {text: out.textContent, error: out.classList.contains("calc-error")};
        }""",
        box,
    )


def test_persian_digits_typed_on_the_sheet_are_numbers(live_server, new_page, event):
    page = new_page()
    open_sheet(page, live_server, "fa")

    # ۱۲ from a Persian keyboard is points, as 12 is: nothing is flagged.
    page.keyboard.type("۱۲")
    assert calc(page, "h1-s1") == {"text": "", "error": False}
    page.keyboard.press("Tab")
    page.keyboard.type("٠")  # an Arabic-Indic zero: the seat that went out
    assert calc(page, "h1-s2") == {"text": "", "error": False}
    page.keyboard.press("Tab")

    # Cards (a ten typed in Persian digits among them): their points in Persian digits.
    page.keyboard.type("JK AS ۱۰")
    assert calc(page, "h1-s3") == {"text": "= ۶۵ تا اینجا", "error": False}
    page.keyboard.type("H")
    assert calc(page, "h1-s3") == {"text": "= ۷۵ (۳ کارت)", "error": False}
    page.keyboard.press("Tab")
    page.keyboard.type("۹")
    page.keyboard.press("Tab")
    page.keyboard.type("2")  # went out: seat 2
    page.keyboard.press("Enter")

    # The server saved what was typed; the running totals are in Persian digits.
    page.wait_for_selector("#hand-1[data-state=saved]")
    saved = Hand.objects.get(number=1)
    assert {s.seat.position: s.score for s in saved.scores.select_related("seat")} == {
        1: 12,
        2: 0,
        3: 75,
        4: 9,
    }
    assert page.text_content("#run-1-1").endswith("۱۲")
    assert page.text_content("#run-1-3").endswith("۷۵")


def test_the_sheet_script_speaks_russian(live_server, new_page, event):
    page = new_page()
    open_sheet(page, live_server, "ru")

    page.keyboard.type("JK")
    assert calc(page, "h1-s1") == {"text": "= 50 (1 карта)", "error": False}
    page.keyboard.type(" AS 10H 7D")
    assert calc(page, "h1-s1") == {"text": "= 82 (4 карты)", "error": False}
    page.keyboard.type(" 2C")
    assert calc(page, "h1-s1") == {"text": "= 84 (5 карт)", "error": False}
    page.keyboard.type(" AX")
    assert calc(page, "h1-s1") == {"text": "«AX»: неизвестная масть", "error": True}

    # A save that never reaches the server says so in Russian.
    page.route("**/hands/1/", lambda route: route.abort("internetdisconnected"))
    page.fill("#h1-s1", "23")
    for box, value in (("#h1-s2", "0"), ("#h1-s3", "15"), ("#h1-s4", "41")):
        page.fill(box, value)
    page.select_option("select[name=went_out][form=hand-1-form]", "2")
    page.press("#h1-s4", "Enter")
    expect(page.locator("#hand-1 tr.row-messages.unsent li")).to_have_text(
        "Сделка 1 не сохранена: сервер недоступен (нет сети?). Введённое осталось на месте: "
        "нажмите Enter в строке, чтобы попробовать снова."
    )
    assert Hand.objects.filter(number=1).count() == 0


def test_the_players_form_says_in_russian_that_the_hand_was_entered(live_server, new_page):
    event = make_event(slug="kingston", name="Kingston Open", table_entry=Event.TableEntry.PLAYERS)
    round_ = make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    services.refresh_standings(event=event)
    codes = codes_of(round_)

    page = new_page(390, 844)
    in_language(page, live_server, "ru")
    page.goto(f"{live_server.url}/events/kingston/rounds/1/tables/1/enter/?code={codes[(1, 2)]}")
    expect(page.locator("#hand-form")).to_have_attribute("data-hand", "1")
    note = page.locator("#form-now")
    expect(note).to_be_hidden()

    # Seat 1 enters hand 1 from their phone meanwhile.
    table = Table.objects.get(round=round_, number=1)
    services.propose_hand(table=table, number=1, entry=hand(2, 4), code=codes[(1, 1)], client="x")

    expect(note).to_have_text(
        "Тем временем сделку 1 ввело место 1 (выше): подтвердите её там или отправьте свою "
        "запись вместо неё (другой игрок подтвердит её снова).",
        timeout=LIVE_TIMEOUT,
    )
