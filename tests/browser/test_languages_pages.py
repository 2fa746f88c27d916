"""The event-day pages in Chromium in Russian and in Persian: the leaderboard, the
projector, the players' entry page on a phone (a hand entered through it) and the
director's sheet (a hand typed and saved). Each page says its language and runs left
to right or right to left; it speaks the reader's language (the words expected are the
catalogue's, read here with Django's gettext); in Persian its numbers are Persian
digits; the players' names, in any script, are shown exactly as written; and axe-core
finds no serious or critical violation.

The reader chose the language with the switch: its cookie is set before the first page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.html import strip_tags
from playwright.sync_api import expect

from core import services
from game.rules import HandEntry, SeatEntry
from kalooki_site.digits import persian_text
from tests.browser.axe import serious_violations
from tests.browser.waiting import wait_until
from tests.fixtures import codes_of, make_event, make_round, make_user, named_entries
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["ru", "fa"]
DIRECTION = {"ru": "ltr", "fa": "rtl"}
DESKTOP, PHONE, PROJECTOR = (1280, 900), (390, 844), (1920, 1080)
# Latin with accents, Cyrillic, Persian (its own kaf and yeh, a zero-width non-joiner
# inside a name): table 1's sheet is typed by the director, table 2's by its players.
TABLE_1 = ["José Martínez", "Ирина Ёлкина", "کیانا یزدانی", "Zoë Brontë"]
TABLE_2 = ["Фёдор Щукин", "مهدی رضایی\u200cنژاد", "Ñaki Øster", "Ana Ćosić"]
NAMES = TABLE_1 + TABLE_2

# The text a reader sees, outside what is shown as written (scripts, players' codes and
# card notation in <kbd> or <code>, anything marked translate="no").
ASCII_DIGITS_SHOWN = """() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const text = walker.currentNode;
        if (text.parentElement.closest('script, style, kbd, code, samp, pre, [translate="no"]'))
            continue;
        if (/[0-9]/.test(text.data)) found.push(text.data.trim());
    }
    return found;
}"""


@pytest.fixture
def kingston() -> dict[tuple[int, int], str]:
    """Alice's event, where the players enter their hands: round 1 at two tables, hand 1
    of table 1 recorded (José went out; Ирина 23, کیانا 15, Zoë 41). Each seat's code."""
    event = make_event(slug="kingston", name="Kingston Open", table_entry=Event.TableEntry.PLAYERS)
    event.directors.add(make_user("alice"))
    round_ = make_round(event, table_sizes=(4, 4), entries=named_entries(event, NAMES))
    services.record_hand(
        table=round_.tables.get(number=1),
        number=1,
        entry=HandEntry(went_out=1, scores=(SeatEntry(2, 23), SeatEntry(3, 15), SeatEntry(4, 41))),
    )
    return codes_of(round_)


@pytest.fixture
def browse(live_server, new_page):
    """A browser page whose reader chose `language`, at a size. Without motion, a page
    is checked as it rests, not half-way through a fade."""

    def open_page(language: str, size: tuple[int, int] = DESKTOP):
        page = new_page(*size)
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page.emulate_media(reduced_motion="reduce")
        return page

    return open_page


def say(language: str, message: str, **values) -> str:
    """The catalogue's words for `message` in `language`, as a page shows them (in
    Persian with Persian digits). A message the catalogue leaves untranslated fails
    here: the page would show it in English."""
    with translation.override(language):
        words = translation.gettext(message)
    assert words != message, f"no {language} translation of {message!r}"
    words = words % values if values else words
    return persian_text(words) if language == "fa" else words


def digits(language: str, number: int) -> str:
    return persian_text(str(number)) if language == "fa" else str(number)


def check_page(page, language: str, where: str) -> None:
    """The document's language and direction; in Persian no ASCII digit in its text;
    no serious or critical accessibility violation."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", language)
    expect(html).to_have_attribute("dir", DIRECTION[language])
    if language == "fa":
        assert page.evaluate(ASCII_DIGITS_SHOWN) == [], f"{where}: ASCII digits in the text"
    problems = serious_violations(page, f"{where} ({language})")
    assert not problems, "axe-core found serious or critical violations:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leaderboard_speaks_the_readers_language(live_server, browse, kingston, language):
    page = browse(language)
    page.goto(f"{live_server.url}/events/kingston/")
    board = page.locator("#leaderboard")
    expect(board.locator("#leaderboard-title")).to_have_text(
        say(language, "Standings after round %(round)s, in play", round=1)
    )
    expect(board.locator("thead th").nth(1)).to_have_text(say(language, "Player"))
    assert sorted(board.locator("th.name a").all_text_contents()) == sorted(NAMES)
    irina = board.locator("tbody tr", has=page.get_by_role("link", name=NAMES[1], exact=True))
    expect(irina.locator("td.points")).to_have_text(digits(language, 23))
    check_page(page, language, "leaderboard")


# The projector's page as shown, at one instant: its number and each row's name (a
# row head's first text: a tie's note may follow it) with its points.
PROJECTOR_ROWS = """() => {
    const board = document.querySelector('[data-projector]');
    const rows = Array.from(board.querySelectorAll('.pj-table tbody tr'));
    return {
        page: board.dataset.page,
        rows: rows.map(r => [r.querySelector('th.name').firstChild.data,
                             r.querySelector('td.points').textContent]),
    };
}"""
PAGE_TURNED = "n => document.querySelector('[data-projector]').dataset.page !== n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_projector_speaks_the_readers_language(live_server, browse, kingston, language):
    page = browse(language, PROJECTOR)
    page.goto(f"{live_server.url}/events/kingston/projector/?every=1")
    expect(page.locator("#pj-title")).to_have_text(
        say(language, "Standings: round %(round)s in play", round=1)
    )
    expect(page.locator(".pj-exit")).to_have_text(say(language, "Leave projector view"))
    # The projector shows a screenful at a time and turns every second: every name is
    # read, with its points, as the pages come round.
    points = {}
    for _ in range(len(NAMES)):
        shown = page.evaluate(PROJECTOR_ROWS)
        points.update(shown["rows"])
        if len(points) == len(NAMES):
            break
        wait_until(page, PAGE_TURNED, arg=shown["page"])
    assert sorted(points) == sorted(NAMES)
    assert points[NAMES[3]] == digits(language, 41)
    check_page(page, language, "projector")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_enters_a_hand_on_a_phone_in_their_language(
    live_server, browse, kingston, language
):
    page = browse(language, PHONE)
    page.goto(f"{live_server.url}/events/kingston/rounds/1/tables/2/enter/?code={kingston[2, 1]}")
    expect(page.locator("h1")).to_contain_text(say(language, "Table %(number)s", number=2))
    you = "You are <strong>seat %(seat)s · %(name)s</strong>."
    expect(page.locator("#who p")).to_have_text(
        strip_tags(say(language, you, seat=1, name=TABLE_2[0]))
    )
    expect(page.locator("#enter-heading")).to_have_text(say(language, "Enter a hand"))
    for seat, name in enumerate(TABLE_2, start=1):
        expect(page.locator(f"label[for=seat{seat}]")).to_have_text(
            say(language, "Seat %(seat)s · %(name)s", seat=seat, name=name)
        )
    send = page.locator("#hand-form button.primary")
    expect(send).to_have_text(say(language, "Send hand %(hand)s for confirmation", hand=1))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]  # no sideways

    # Points typed in the reader's digits (a Persian phone keyboard types ۲۳), cards as cards.
    page.fill("#seat2", digits(language, 23))
    page.fill("#seat3", "JK AS 10H 7D")
    page.fill("#seat4", digits(language, 41))
    page.check("input[name=went_out][value='1']")
    send.click()
    expect(page.locator(".flash")).to_have_text(
        say(language, "Hand %(hand)s is entered: another player at the table confirms it.", hand=1)
    )
    card = page.locator("#proposal-1")
    expect(card.locator(".by")).to_have_text(
        say(language, "entered by seat %(seat)s · %(name)s", seat=1, name=TABLE_2[0])
    )
    # The hand as it will be recorded: the cards as typed, their points counted.
    expect(card.locator("thead th")).to_have_text([say(language, "Seat"), say(language, "Score")])
    expect(card.locator("tr[data-seat='1'] .how")).to_have_text(say(language, "went out"))
    seat_2 = f"{digits(language, 2)} · {TABLE_2[1]}"
    expect(card.locator("tr[data-seat='2'] th")).to_have_text(seat_2)
    expect(card.locator("tr[data-seat='3'] kbd")).to_have_text("JK AS 10H 7D")
    expect(card.locator("tr[data-seat='3'] .score")).to_have_text(digits(language, 82))
    check_page(page, language, "players' entry page")


def sign_in(page, live_server, then: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={then}")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw")
    page.locator("button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}{then}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_director_types_a_hand_on_the_sheet_in_their_language(
    live_server, browse, kingston, language
):
    page = browse(language)
    sign_in(page, live_server, "/director/kingston/rounds/1/tables/1/")
    expect(page.locator(".sheet-head h1")).to_contain_text(
        say(language, "Table %(number)s", number=1)
    )
    heads = page.locator("#sheet thead th.seat-head")
    expect(heads.locator(".name")).to_have_text(TABLE_1)
    for seat in range(4):
        expect(heads.nth(seat)).to_contain_text(say(language, "Seat %(seat)s", seat=seat + 1))
    # Seat 1 comes first in the reading direction: at the left in Russian, at the right
    # in Persian; a hand's boxes sit under their seats.
    rtl = language == "fa"
    lefts = [heads.nth(seat).bounding_box()["x"] for seat in range(4)]
    assert lefts == sorted(lefts, reverse=rtl), lefts
    boxes = [page.locator(f"#h2-s{seat}").bounding_box()["x"] for seat in range(1, 5)]
    assert boxes == sorted(boxes, reverse=rtl), boxes

    for seat, points in ((1, 12), (2, 0), (3, 30), (4, 8)):
        page.fill(f"#h2-s{seat}", str(points))
    page.select_option("select[name=went_out][form=hand-2-form]", "2")
    page.locator("#h2-s4").press("Enter")
    expect(page.locator("#hand-2")).to_have_attribute("data-state", "saved")
    expect(page.locator("#hand-2-state")).to_have_text(say(language, "Saved"))
    for seat, total in zip(range(1, 5), (0 + 12, 23 + 0, 15 + 30, 41 + 8), strict=True):
        expect(page.locator(f"#total-{seat} strong")).to_have_text(digits(language, total))
    check_page(page, language, "director's sheet")
