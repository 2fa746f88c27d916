"""The papers print in the director's language: asked for in Russian or Persian (the
language cookie), the find-your-table list and the results speak it, with every name
as written whatever its script; a Persian paper is laid out right to left (its first
column at the right), with Persian digits, and a paragraph wrapped over several lines
reads from its first line down.

The text is read back two ways: pypdf for the names (as the other paper tests do), and
PDFium for where each word sits on the page (it reads a right-to-left line in reading
order, and gives each character's box)."""

from __future__ import annotations

import io
import re
import unicodedata

import pypdfium2
import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from core import services
from tests.fixtures import hand, kept_for_the_module, make_event, make_round, named_entries
from tests.fixtures import make_user as new_user
from tests.html import signed_in

pytestmark = pytest.mark.django_db

NAMES = [
    "Łukasz Żółć",  # Latin, Polish
    "Nguyễn Văn An",  # Latin, Vietnamese
    "Дмитрий Шостакович",  # Cyrillic
    "Γιώργος Παπαδάκης",  # Greek
    "مهسا رضایی",  # Persian
    "علی کاظمی",  # Persian, with its own letters (ک, ی)
    "Արամ Խաչատրյան",  # Armenian
    "ნინო ბერიძე",  # Georgian
    "דוד כהן",  # Hebrew
]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """A finished round of two tables (five and four) of players named in seven
    scripts, its standings built; the director who prints."""

    def build():
        director = new_user("papers-director")
        event = make_event(slug="papers", name="Kalooki World Open", rounds_planned=2)
        event.directors.add(director)
        round_ = make_round(event, table_sizes=(5, 4), entries=named_entries(event, NAMES))
        for table in round_.tables.all():
            size = table.seats.count()
            for number in range(1, event.rules.hand_count + 1):
                services.record_hand(table=table, number=number, entry=hand(1, size))
        services.close_round(round=round_)
        services.refresh_standings(event=event)
        return event, director

    yield from kept_for_the_module(django_db_blocker, build)


def printed(world, paper: str, language: str) -> bytes:
    event, director = world
    client = signed_in(director)
    client.cookies["django_language"] = language
    if paper == "find":
        url = reverse("toolkit-find-table", args=[event.slug, 1])
    elif paper == "sheets":
        url = reverse("toolkit-score-sheets", args=[event.slug, 1])
    else:
        url = reverse("toolkit-results", args=[event.slug])
    # The middleware leaves the language it chose active: given back after the answer.
    with translation.override(translation.get_language()):
        response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def pypdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def name_printed(name: str, text: str) -> bool:
    """A right-to-left name is drawn in its letters' joined forms, which NFKC returns
    to the letters typed."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return name in unicodedata.normalize("NFKC", text)
    return name in text


class Page:
    """A page's text as PDFium reads it, with each character's box."""

    def __init__(self, pdf: bytes, number: int = 0):
        document = pypdfium2.PdfDocument(pdf)
        try:
            textpage = document[number].get_textpage()
            count = textpage.count_chars()
            self.text = textpage.get_text_range(0, count)
            self.boxes = [textpage.get_charbox(i, loose=True) for i in range(count)]
        finally:
            document.close()

    def line_with(self, *words: str) -> int:
        """Where the first line holding all `words` starts in the text."""
        start = 0
        for line in self.text.split("\r\n"):
            if all(word in line for word in words):
                return start
            start += len(line) + 2
        raise AssertionError(words)

    def where(self, words: str, after: int = 0) -> tuple[float, float]:
        """(x, y) of the middle of `words` (the first found from `after` on)."""
        start = self.text.find(words, after)
        assert start >= 0, words
        boxes = self.boxes[start : start + len(words)]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        return (left + right) / 2, sum(b[1] for b in boxes) / len(boxes)


DIGITS = re.compile("[۰-۹]+")


def said(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


@pytest.mark.parametrize("language", ["ru", "fa"])
@pytest.mark.parametrize("paper", ["find", "results"])
def test_the_paper_speaks_the_language_with_every_name_as_written(world, paper, language):
    pdf = printed(world, paper, language)
    text = pypdf_text(pdf)
    missing = [name for name in NAMES if not name_printed(name, text)]
    assert missing == []
    read = Page(pdf).text
    headings = ["Player", "Club"] + (["Table", "Seat"] if paper == "find" else ["Rank", "Points"])
    for heading in headings:
        assert said(language, heading) != heading
        assert said(language, heading) in read
    title = "Find your table" if paper == "find" else "Standings after round"
    assert title not in read and "Player" not in read
    if language == "fa":  # Persian digits, as the Persian pages show
        assert re.search("[0-9]", read) is None and re.search("[۰-۹]", read)
    else:
        assert re.search("[0-9]", read)


@pytest.mark.parametrize("paper", ["find", "results"])
def test_a_persian_papers_table_runs_from_the_right(world, paper):
    page = Page(printed(world, paper, "fa"))
    last = "Seat" if paper == "find" else "Points"
    headings = [said("fa", h) for h in ("Player", "Club", last)]
    row = page.line_with(*headings)
    (player_x, heading_y), (club_x, _y), (last_x, _y) = [page.where(h, row) for h in headings]
    assert player_x > club_x > last_x
    if paper == "results":
        assert page.where(said("fa", "Rank"), row)[0] > player_x
    # A name (left to right itself) sits in its column at the right, and its row's
    # numbers (Persian digits) to its left, but for its rank at the far right.
    name_x, name_y = page.where("Łukasz Żółć")
    assert name_x > club_x and name_y < heading_y
    numbers = [page.where(found.group(), found.start()) for found in DIGITS.finditer(page.text)]
    row = sorted(x for x, y in numbers if name_y - 12 < y < name_y + 2)  # its cells' middle
    if paper == "find":  # table and seat
        assert len(row) == 2 and all(x < club_x for x in row)
    else:  # points, sets and hands won; the rank (and the tie note's figures: its cell)
        *row, rank = row
        assert rank > name_x
        assert len([x for x in row if x < club_x]) == 3


def test_the_same_table_runs_from_the_left_in_russian(world):
    page = Page(printed(world, "find", "ru"))
    headings = [said("ru", h) for h in ("Player", "Club", "Seat")]
    row = page.line_with(*headings)
    xs = [page.where(h, row)[0] for h in headings]
    assert xs == sorted(xs)


def test_a_wrapped_persian_paragraph_reads_from_its_first_line_down(world):
    """The score sheet's notes run over several lines in Persian: their first words are
    on the paragraph's first line, their last words on its last."""
    page = Page(printed(world, "sheets", "fa"))
    first = said("fa", "Write each seat's card points; the player who went out scores 0.")
    last = said("fa", "A redeal: write R beside the hand and play it again.")
    opening = " ".join(first.split()[:3])
    closing = " ".join(last.split()[-2:]).rstrip(".")
    opening_x, opening_y = page.where(opening)
    closing_x, closing_y = page.where(closing, page.text.find(opening))
    assert opening_y - closing_y > 15  # lines apart, the first above
    # A right-to-left paragraph starts at the right, as it is read.
    assert opening_x > closing_x
