"""The site in English, Russian and Persian: the catalogues and their check."""

from __future__ import annotations

import gzip
import json
import os
import shutil

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from core import archive, caching
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.management.commands.translations import (
    Fragment,
    catalogue_problems,
    fill,
    placeholders,
)
from core.words import translated
from game.rulesets import get_ruleset
from kalooki_site.digits import ascii_digits, persian_digits
from kalooki_site.middleware import read_digits_as_ascii
from scoring.models import Hand
from tests.core.test_archive import forget, resigned
from tests.director.test_event_settings import as_posted
from tests.fixtures import make_world, played_event
from tests.html import HTMX, row, signed_in
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
    placeholders, and each .mo is its .po compiled. The strings are gathered with GNU
    gettext's xgettext: missing, this fails under CI and is skipped elsewhere."""
    if shutil.which("xgettext") is None:
        message = "GNU gettext is not installed: apt-get install gettext"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
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


@pytest.fixture
def bare():
    """A client that names no language (the suite's `client` asks for English)."""
    return Client()


def set_default_language(event: Event, language: str) -> None:
    Event.objects.filter(pk=event.pk).update(language=language)
    caching.reset()  # as the settings page's save does (announce_screen)


def language_of(client, path: str, **headers) -> str:
    response = client.get(path, **headers)
    assert response.status_code == 200, path
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]
    return response["Content-Language"]


def test_the_cookie_comes_before_the_browser_before_the_event_before_english(bare, w):
    page = f"/events/{w.event.slug}/"
    assert language_of(bare, page) == "en"
    set_default_language(w.event, "fa")
    assert language_of(bare, page) == "fa"
    # The director's pages too (here: the way to sign in, for a reader signed out).
    assert bare.get(f"/director/{w.event.slug}/settings/")["Content-Language"] == "fa"
    assert language_of(bare, page, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9") == "fa"
    assert language_of(bare, page, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    bare.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert language_of(bare, page, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9") == "en"


def test_a_page_about_no_event_asks_the_database_nothing_for_its_language(
    bare, w, django_assert_num_queries
):
    set_default_language(w.event, "fa")
    with django_assert_num_queries(0):
        assert bare.get("/accounts/login/")["Content-Language"] == "en"
    assert language_of(bare, "/ratings/", HTTP_ACCEPT_LANGUAGE="fa") == "fa"


def test_the_events_language_is_looked_up_once_then_kept(bare, w, django_assert_num_queries):
    set_default_language(w.event, "ru")
    bare.get(f"/events/{w.event.slug}/")
    with django_assert_num_queries(0):
        assert bare.get(f"/events/{w.event.slug}/live/?v=0&s=0")["Content-Language"] == "ru"


def test_the_switch_remembers_the_choice_and_keeps_the_reader_on_the_page(client, w):
    page = f"/events/{w.event.slug}/?page=1"
    response = client.post("/i18n/setlang/", {"language": "ru", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert language_of(client, page, HTTP_ACCEPT_LANGUAGE="en") == "ru"


def test_the_api_answers_in_the_language_its_client_asks_for(client, w):
    response = client.get(f"/api/v1/events/{w.event.slug}/", HTTP_ACCEPT_LANGUAGE="fa")
    assert response.status_code == 200
    assert response["Content-Language"] == "fa"
    assert client.get(f"/api/v1/events/{w.event.slug}/")["Content-Language"] == "en"


# --- Right to left, and Persian digits -------------------------------------------------


def test_a_persian_page_is_right_to_left_and_says_so(client, w):
    page = client.get(f"/events/{w.event.slug}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert '<html lang="fa" dir="rtl">' in page
    assert 'class="language-switch"' in page
    assert 'value="fa" lang="fa" dir="rtl" aria-pressed="true">فارسی</button>' in page
    english = client.get(f"/events/{w.event.slug}/").content.decode()
    assert '<html lang="en" dir="ltr">' in english
    assert 'value="en" lang="en" dir="ltr" aria-pressed="true">English</button>' in english


@pytest.mark.parametrize("language", ["ru", "fa"])
def test_the_games_words_on_the_pages_are_in_the_readers_language(w, language):
    """A hand's contract comes from the rules engine (`game.words`): the table's public
    sheet, the players' entry page and the director's sheet word it for the reader."""
    contract = get_ruleset(w.event.ruleset).hand(1).contract
    with translation.override(language):
        said = translated(contract)
    assert said != str(contract)
    for client, path in (
        (Client(), f"/events/{w.event.slug}/rounds/1/tables/1/"),
        (signed_in(w.alice), f"/director/{w.event.slug}/rounds/1/tables/1/"),
    ):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = client.get(path).content.decode()
        assert said in page, path
        assert str(contract) not in page, path


@pytest.mark.parametrize("code", ['<td translate="no">AB12</td>', "<td>AB12</td>"])
def test_persian_digits_in_the_text_only_whichever_way_the_page_is_read(code):
    """A page with an element marked translate="no" is read tag by tag; others, faster,
    in one pass: both leave the same things as written."""
    page = (
        '<p title="Round 2" data-v="12">Round 2 of 3 &#39;x&#x27; &amp;</p>'
        '<script>var a = 12;</script><STYLE>.a{width:10px}</STYLE><input value="12">'
        "<textarea>\n12</textarea><code>10H</code><kbd>JK 10H</kbd><!-- 12 --><br/>9"
    )
    expected = (
        '<p title="Round 2" data-v="12">Round ۲ of ۳ &#39;x&#x27; &amp;</p>'
        '<script>var a = 12;</script><STYLE>.a{width:10px}</STYLE><input value="12">'
        "<textarea>\n12</textarea><code>10H</code><kbd>JK 10H</kbd><!-- 12 --><br/>۹"
    )
    kept = code if "translate" in code else code.replace("12", "۱۲")
    assert persian_digits(code + page) == kept + expected


def test_persian_digits_in_the_text_only():
    html = (
        '<p title="Round 2" data-v="12">Round 2 of 3 &#39;x&#x27; &amp;</p>'
        "<script>var a = 12;</script><style>.a{width:10px}</style>"
        '<input value="12"><textarea>12</textarea>'
        '<td class="code" translate="no"><span>AB12</span> 7</td> 8'
        "<code>10H</code><kbd>JK 10H</kbd><!-- 12 --><br/>9"
    )
    assert persian_digits(html) == (
        '<p title="Round 2" data-v="12">Round ۲ of ۳ &#39;x&#x27; &amp;</p>'
        "<script>var a = 12;</script><style>.a{width:10px}</style>"
        '<input value="12"><textarea>12</textarea>'
        '<td class="code" translate="no"><span>AB12</span> 7</td> ۸'
        "<code>10H</code><kbd>JK 10H</kbd><!-- 12 --><br/>۹"
    )


def test_a_persian_page_shows_persian_digits_but_keeps_its_addresses(client, w):
    response = client.get(f"/events/{w.event.slug}/", HTTP_ACCEPT_LANGUAGE="fa")
    page = response.content.decode()
    main = page.split("<main", 1)[1]
    assert "۱" in main
    assert f'href="/events/{w.event.slug}/rounds/1/"' in main
    assert 'src="/static/' in page and 'data-stale-seconds="' in page
    gzipped = client.get(
        f"/events/{w.event.slug}/", HTTP_ACCEPT_LANGUAGE="fa", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert gzipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(gzipped.content).decode() == page


def test_digits_typed_in_persian_are_read_as_numbers(rf):
    request = rf.post("/director/x/", {"points": "۱۲", "other": "٣٤ and 5", "password": "۱۲۳"})
    read_digits_as_ascii(request)
    assert request.POST["points"] == "12"
    assert request.POST["other"] == "34 and 5"
    assert request.POST["password"] == "۱۲۳"
    assert ascii_digits("۰۱۲۳۴۵۶۷۸۹") == "0123456789"


def test_a_score_typed_in_persian_digits_is_saved(client, w):
    client.force_login(w.alice)
    response = client.post(
        f"/director/{w.event.slug}/settings/",
        {**as_posted(w.event), "round_minutes": "۷۵"},
        HTTP_ACCEPT_LANGUAGE="fa",
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(pk=w.event.pk).round_minutes == 75


def test_a_hand_typed_in_persian_digits_is_recorded_as_numbers(w):
    director = signed_in(w.alice)
    typed = row(seat1="۲۳", seat2="۰", seat3="JK AS ۱۰H ۷D", seat4="٤١", went_out="۲")
    response = director.post(w.hand_url(1), typed, HTTP_ACCEPT_LANGUAGE="fa", **HTMX)
    assert response.status_code == 200
    hand = Hand.objects.get(table=w.table, number=1)
    scores = hand.scores.order_by("seat__position").values_list("card_points", "cards")
    assert list(scores) == [(23, ""), (0, ""), (82, "JK AS 10H 7D"), (41, "")]
    assert hand.went_out.position == 2


# --- Cached pages, the event's setting, the API and the archive ----------------------


def test_cached_pages_are_kept_per_language(client, w):
    page = f"/events/{w.event.slug}/"
    russian = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    english = client.get(page).content.decode()
    persian = client.get(page, HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert '<html lang="ru" dir="ltr">' in russian and "Турниры по калуки" in russian
    assert '<html lang="en" dir="ltr">' in english and "Турниры" not in english
    assert '<html lang="fa" dir="rtl">' in persian
    # Served from the cache now, each in its own language.
    assert client.get(page).content.decode() == english
    assert client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode() == russian


def test_the_settings_page_saves_the_events_language_and_pages_follow_it(
    client, bare, w, django_capture_on_commit_callbacks
):
    assert language_of(bare, f"/events/{w.event.slug}/") == "en"
    client.force_login(w.alice)
    page = client.get(f"/director/{w.event.slug}/settings/").content.decode()
    assert 'name="language"' in page and '<option value="fa">' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/director/{w.event.slug}/settings/", {**as_posted(w.event), "language": "fa"}
        )
    assert response.status_code == 302
    assert Event.objects.get(pk=w.event.pk).language == "fa"
    assert language_of(bare, f"/events/{w.event.slug}/") == "fa"


def test_the_api_reads_and_writes_the_events_language(client, w):
    url = f"/api/v1/events/{w.event.slug}/"
    assert client.get(url).json()["language"] == "en"
    client.force_login(w.alice)
    response = client.patch(url, {"language": "ru"}, content_type="application/json")
    assert response.status_code == 200, response.json()
    assert response.json()["language"] == "ru"
    refused = client.patch(url, {"language": "de"}, content_type="application/json")
    assert refused.status_code == 400 and "language" in refused.json()


def test_the_archive_carries_the_language_and_an_older_one_is_english(alice):
    event = played_event(director=alice)
    Event.objects.filter(pk=event.pk).update(language="fa")
    event.refresh_from_db()
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    assert document["payload"]["event"]["language"] == "fa"
    forget(event)
    imported = archive_import.import_event(raw=json.dumps(document)).event
    assert Event.objects.get(pk=imported.pk).language == "fa"
    del document["payload"]["event"]["language"]
    forget(imported)
    imported = archive_import.import_event(raw=resigned(document)).event
    assert Event.objects.get(pk=imported.pk).language == "en"
