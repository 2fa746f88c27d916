"""Pages, papers and refusals read in Russian and Persian hold no English a reader
would have to read: each page below is fetched in both languages and must not hold
the English it once showed (Django's own error page, a form field's bare name, the
JSON parser's words, the ruleset's English name on the score sheets), and must hold
the words now said instead. Lists are written with the language's separators: in
Persian "، " and "؛ ", never the Latin comma and semicolon after Persian text."""

from __future__ import annotations

import io
import re
from typing import NamedTuple

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from django.views.defaults import server_error
from pypdf import PdfReader

from core import services
from core.words import translated
from game.rules import HandEntry, HandInvalid, SeatEntry
from tests.core.test_series import leg
from tests.fixtures import (
    engine_problems,
    kept_for_the_module,
    make_event,
    make_round,
    make_user,
    played_event,
)
from tests.html import signed_in
from tournaments.models import Player

pytestmark = pytest.mark.django_db

LANGUAGES = ("ru", "fa")


def world() -> str:
    """Kingston (round 2 in play), a Trinidad event seated, a series of two finished
    legs; alice directs them all and may create events. Gives her username."""
    alice = make_user("alice", superuser=True)
    kingston = played_event(director=alice)
    trinidad = make_event(slug="port-of-spain", name="Port of Spain Open", ruleset="trinidad")
    trinidad.directors.add(alice)
    make_round(trinidad, table_sizes=(4,))
    series = services.create_series(
        data={"slug": "circuit", "name": "Island Circuit", "season": "2027",
              "points_scale": [10, 6, 4, 3, 2], "qualifiers": 3},
        by=alice,
    )  # fmt: skip
    cast = list(Player.objects.filter(entries__event=kingston).order_by("pk"))
    for day in (1, 2):
        leg(series, cast[:4], day=day, name=f"Leg {day}").directors.add(alice)
    return alice.username


@pytest.fixture(scope="module")
def world_kept(django_db_setup, django_db_blocker):
    """`world`, made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, world)


@pytest.fixture
def alice(world_kept, db):
    """alice of `world`, read afresh for the test."""
    return get_user_model().objects.get(username=world_kept)


class Visit(NamedTuple):
    name: str
    method: str  # "get", or "post" (its answer followed to the page that says it)
    url: str
    data: dict[str, object]
    status: int
    absent: tuple[str, ...]  # English once shown here
    expected: dict[str, str]  # by language: the words shown now


VISITS = [
    Visit(
        "no such page",
        "get",
        "/events/no-such-event/",
        {},
        404,
        ("Not Found", "The requested resource was not found on this server."),
        {"ru": "Страница не найдена", "fa": "صفحه پیدا نشد"},
    ),
    Visit(
        "a clock action refused",
        "post",
        "/director/kingston/rounds/2/clock/",
        {"action": "nonsense"},
        200,
        ("Action:",),
        {"ru": "Действие:", "fa": "اقدام:"},
    ),
    Visit(
        "a leg refused",
        "post",
        "/organiser/circuit/legs/",
        {},
        200,
        ("Event:",),
        {"ru": "Турнир:", "fa": "مسابقه:"},
    ),
    Visit(
        "an archive that is not JSON",
        "post",
        "/director/archive/import/",
        {"archive": b"{not json"},
        400,
        ("Expecting property name", "line 1 column 2"),
        {"ru": "строка 1, столбец 2", "fa": "سطر ۱، ستون ۲"},
    ),
    Visit(
        "the series' results",
        "get",
        "/organiser/circuit/",
        {},
        200,
        (),
        {"ru": "; ", "fa": "؛ "},
    ),
]


def fetch(client: Client, visit: Visit):
    data: dict[str, object] = {}
    for key, value in visit.data.items():
        if isinstance(value, bytes):
            value = io.BytesIO(value)
            value.name = "archive.json"
        data[key] = value
    # The middleware leaves the language it chose active: given back after the answer.
    with translation.override(translation.get_language()):
        if visit.method == "get":
            return client.get(visit.url)
        return client.post(visit.url, data, follow=True)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("visit", VISITS, ids=[v.name for v in VISITS])
def test_a_page_in_russian_or_persian_holds_no_english_it_once_showed(visit, language, alice):
    client = signed_in(alice)
    client.cookies["django_language"] = language
    response = fetch(client, visit)
    assert response.status_code == visit.status
    page = response.content.decode()
    for english in visit.absent:
        assert english not in page, f"{visit.name} ({language}): {english!r}"
    assert visit.expected[language] in page


LATIN_AFTER_PERSIAN = re.compile(r"[\u0600-\u06ff\u06f0-\u06f9][;,] ")


@pytest.mark.parametrize("visit", VISITS, ids=[v.name for v in VISITS])
def test_a_persian_page_writes_its_lists_with_persian_separators(visit, alice):
    client = signed_in(alice)
    client.cookies["django_language"] = "fa"
    page = fetch(client, visit).content.decode()
    assert not LATIN_AFTER_PERSIAN.search(page), LATIN_AFTER_PERSIAN.search(page)


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize(
    ("language", "expected"), [("ru", "Калуки Тринидада и Тобаго"), ("fa", None)]
)
def test_the_score_sheets_name_the_ruleset_in_the_page_language(language, expected, alice):
    client = signed_in(alice)
    client.cookies["django_language"] = language
    with translation.override(translation.get_language()):
        response = client.get("/director/port-of-spain/toolkit/rounds/1/score-sheets.pdf")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Trinidad and Tobago Kalooki" not in text
    if expected is not None:  # pypdf reads Persian back as shaped glyphs
        assert expected in text


def refused_entry() -> HandInvalid:
    """A hand with two things wrong: a score for the seat that went out, and none for
    another."""
    problems = engine_problems(HandEntry(went_out=1, scores=(SeatEntry(1, 5), SeatEntry(2, 10))))
    assert len(problems) >= 2
    return HandInvalid(problems)


@pytest.mark.parametrize(("language", "separator"), [("en", "; "), ("ru", "; "), ("fa", "؛ ")])
def test_a_refused_entrys_problems_are_joined_as_the_language_writes_a_list(language, separator):
    with translation.override(language):
        words = translated(refused_entry())
    assert separator in words
    if language == "fa":
        assert "; " not in words


def test_a_list_of_seats_inside_a_problem_takes_the_persian_comma():
    scores = (SeatEntry(1, 0), SeatEntry(2, 0), SeatEntry(3, 10), SeatEntry(4, 10))
    nobody_out = HandEntry(scores=scores)
    listed = [p.message for p in engine_problems(nobody_out) if ", " in p.message]
    assert listed
    with translation.override("fa"):
        said = [translated(message) for message in listed]
    assert all(", " not in words and "، " in words for words in said), said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_error_page_of_a_failure_speaks_the_readers_language(rf, language):
    """Should anything fail, the reader is told so in their language (Django renders
    500.html without a request context; the middleware's language is still active)."""
    with translation.override(language):
        page = server_error(rf.get("/")).content.decode()
        expected = translation.gettext("Something went wrong")
    assert expected != "Something went wrong"
    assert f'<html lang="{language}"' in page and expected in page
    assert ('dir="rtl"' in page) == (language == "fa")
