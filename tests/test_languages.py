"""The site in English, Russian and Persian: the catalogues and their check."""

from __future__ import annotations

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

from core import caching
from core.management.commands.translations import (
    Fragment,
    catalogue_problems,
    fill,
    placeholders,
)
from tests.fixtures import make_world
from tournaments.models import Event


def catalogue(*entries: polib.POEntry, language: str = "ru") -> polib.POFile:
    po = polib.POFile()
    po.metadata = {"Language": language, "Plural-Forms": "nplurals=3; plural=(n%10==1 ? 0 : 1);"}
    for entry in entries:
        po.append(entry)
    return po


def compiled(po: polib.POFile, tmp_path) -> polib.MOFile:
    path = tmp_path / "django.mo"
    po.save_as_mofile(str(path))
    return polib.mofile(str(path))


def test_the_catalogues_are_complete_and_current():
    """What CI checks: every marked string is in each .po, translated, with its
    placeholders, and each .mo is its .po compiled."""
    call_command("translations", "--check")


def test_placeholders_are_named_or_counted():
    assert placeholders("%(event)s: round %(round)s, 50%% done") == {"%(event)": 1, "%(round)": 1}
    assert placeholders("%s of %s") == {"%s": 2}
    assert placeholders("{name} and {name}, {{literal}}") == {"{name}": 1}


def test_the_check_finds_a_missing_translation_and_a_dropped_placeholder(tmp_path):
    po = catalogue(
        polib.POEntry(msgid="Leaderboard", msgstr="Таблица"),
        polib.POEntry(msgid="Round %(round)s", msgstr="Раунд"),
        polib.POEntry(msgid="Tables", msgstr=""),
        polib.POEntry(msgid="Seat", msgstr="Место", flags=["fuzzy"]),
        polib.POEntry(msgid="Table %s", msgstr="Стол %s %s"),
    )
    problems = catalogue_problems(
        po,
        "ru",
        marked={
            (None, "Leaderboard"),
            (None, "Round %(round)s"),
            (None, "Tables"),
            (None, "Seat"),
            (None, "Table %s"),
            (None, "Players"),
        },
        mo=compiled(po, tmp_path),
    )
    assert problems == [
        'ru: "Players" is marked in the sources but not in the .po',
        'ru: "Round %(round)s": the translation drops %(round)',
        'ru: "Tables" has no translation',
        'ru: "Seat" is fuzzy',
        'ru: "Table %s": the translation adds %s',
    ]


def test_the_check_finds_a_stale_mo_and_a_po_behind_its_fragment(tmp_path):
    po = catalogue(polib.POEntry(msgid="Leaderboard", msgstr="Таблица"))
    mo = compiled(catalogue(polib.POEntry(msgid="Leaderboard", msgstr="Турнир")), tmp_path)
    fragment = Fragment("public.json", (None, "Leaderboard"), None, {"ru": "Таблица очков"})
    problems = catalogue_problems(po, "ru", mo=mo, fragments=[fragment])
    assert problems == [
        "ru: the .mo is not the .po compiled (run manage.py translations)",
        'ru: "Leaderboard" differs from public.json (run manage.py translations)',
    ]


def test_plural_forms_are_checked_and_counted(tmp_path):
    entry = polib.POEntry(
        msgid="%(counter)s table",
        msgid_plural="%(counter)s tables",
        msgstr_plural={0: "%(counter)s стол", 1: "%(counter)s стола"},
    )
    entry_ok = polib.POEntry(
        msgid="%(counter)s player",
        msgid_plural="%(counter)s players",
        msgstr_plural={0: "%(counter)s игрок", 1: "%(counter)s игрока", 2: "%(counter)s игроков"},
    )
    po = catalogue(entry, entry_ok)
    problems = catalogue_problems(po, "ru", mo=compiled(po, tmp_path))
    assert problems == ['ru: "%(counter)s table" has 2 plural forms, not 3']


def test_a_fragment_fills_the_catalogue_and_clears_fuzzy():
    po = catalogue(
        polib.POEntry(msgid="Seat", msgstr="Сиденье", flags=["fuzzy"]),
        polib.POEntry(msgid="Seat", msgctxt="verb", msgstr=""),
    )
    unknown = fill(
        po,
        "ru",
        [
            Fragment("director.json", (None, "Seat"), None, {"ru": "Место"}),
            Fragment("director.json", ("verb", "Seat"), None, {"ru": "Рассадить"}),
            Fragment("director.json", (None, "Gone"), None, {"ru": "Нет"}),
        ],
    )
    assert [(e.msgctxt, e.msgstr, e.flags) for e in po] == [
        (None, "Место", []),
        ("verb", "Рассадить", []),
    ]
    assert unknown == ['director.json: "Gone" is not marked in the sources']


@pytest.mark.parametrize("text", ["%(name)s", "%(name)d"])
def test_a_named_placeholder_may_change_its_position(text):
    assert placeholders(f"Hello {text}!") == placeholders(f"{text}, здравствуйте!")


# --- Which language a page speaks ------------------------------------------------------


@pytest.fixture
def w(db):
    return make_world()


def set_default_language(event: Event, language: str) -> None:
    Event.objects.filter(pk=event.pk).update(language=language)
    caching.reset()  # as the settings page's save does (announce_screen)


def language_of(client, path: str, **headers) -> str:
    response = client.get(path, **headers)
    assert response.status_code == 200, path
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]
    return response["Content-Language"]


def test_the_cookie_comes_before_the_browser_before_the_event_before_english(client, w):
    page = f"/events/{w.event.slug}/"
    assert language_of(client, page) == "en"
    set_default_language(w.event, "fa")
    assert language_of(client, page) == "fa"
    assert language_of(client, page, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9") == "fa"
    assert language_of(client, page, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert language_of(client, page, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9") == "en"


def test_a_page_about_no_event_asks_the_database_nothing_for_its_language(
    client, w, django_assert_num_queries
):
    set_default_language(w.event, "fa")
    with django_assert_num_queries(0):
        assert client.get("/accounts/login/")["Content-Language"] == "en"
    assert language_of(client, "/ratings/", HTTP_ACCEPT_LANGUAGE="fa") == "fa"


def test_the_switch_remembers_the_choice_and_keeps_the_reader_on_the_page(client, w):
    page = f"/events/{w.event.slug}/?page=1"
    response = client.post("/i18n/setlang/", {"language": "ru", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert language_of(client, page, HTTP_ACCEPT_LANGUAGE="en") == "ru"


def test_the_api_speaks_english_whatever_the_reader_asks(client, w):
    response = client.get(f"/api/v1/events/{w.event.slug}/", HTTP_ACCEPT_LANGUAGE="fa")
    assert response.status_code == 200
    assert "Content-Language" not in response
