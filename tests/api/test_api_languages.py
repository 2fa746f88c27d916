"""The API in its client's language (README, "Languages"): the language asked for in
Accept-Language (or the switch's cookie a browser sends), else English, whatever the
event's default; its words change, its names, codes and digits never do; and a
document kept for one language is never served in another."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from tests.api.conftest import hand_url
from tests.api.test_incomplete_sets import body, sender
from tests.fixtures import make_entries, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db

EVENT = "/api/v1/events/kingston/"


def said(language: str, text: str) -> str:
    """`text` as the catalogue words it in `language` (and checked to be translated)."""
    with translation.override(language):
        found = gettext(text)
    assert found != text, f"{text!r} has no {language} translation"
    return found


@pytest.fixture
def client(api, alice, django_capture_on_commit_callbacks):
    return sender(api.as_(alice), django_capture_on_commit_callbacks)


def test_a_program_that_asks_for_nothing_reads_english_whatever_the_events_language(api, event):
    Event.objects.filter(pk=event.pk).update(language="fa")
    response = api.as_().get(EVENT + "standings/", {"round": "x"})
    assert response.status_code == 400
    assert response.json() == {"round": ["Give a round number."]}
    assert response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize("language", ["ru", "fa"])
def test_an_error_detail_in_the_language_asked_for(api, event, language):
    response = api.as_().get(EVENT + "standings/", {"round": "x"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.json() == {"round": [said(language, "Give a round number.")]}
    assert response["Content-Language"] == language


def test_the_switchs_cookie_is_a_choice_too(api, event):
    reader = api.as_()
    reader.cookies["django_language"] = "ru"
    response = reader.get(EVENT + "standings/", {"round": "x"})
    assert response.json() == {"round": [said("ru", "Give a round number.")]}


def test_a_persian_answer_keeps_its_digits_and_codes(api, alice, playing):
    bad = {"went_out": 9, "scores": [{"seat": 1, "points": 12}]}
    response = api.as_(alice).put(hand_url(), bad, format="json", HTTP_ACCEPT_LANGUAGE="fa")
    assert response.status_code == 400
    text = response.content.decode()
    assert "۹" not in text and "۱۲" not in text  # the numbers a program reads stay ASCII
    assert response["Content-Language"] == "fa"


def test_the_standings_texts_follow_the_language_and_never_cross(client, api, event):
    entries = make_entries(event, 4)
    make_round(event, entries=entries)
    assert client("put", hand_url(hand=1), body([1, 2, 3, 4])).status_code == 200
    leaver = entries[1]
    assert (
        client("patch", EVENT + f"entries/{leaver.pk}/", {"status": "withdrawn"}).status_code == 200
    )
    for number in range(2, 10):
        assert client("put", hand_url(hand=number), body([1, 3, 4])).status_code == 200
    url = EVENT + "standings/"

    def note(response) -> str:
        rows = [r for r in response.json()["standings"] if r["incomplete"]]
        return rows[0]["incomplete"][0]["text"]

    english = api.as_().get(url)
    russian = api.as_().get(url, HTTP_ACCEPT_LANGUAGE="ru")
    persian = api.as_().get(url, HTTP_ACCEPT_LANGUAGE="fa")
    assert note(english) == "round 1, table 1: 1 of 9 hands (withdrew)"
    assert said("ru", "withdrew") in note(russian)
    assert said("fa", "withdrew") in note(persian)
    # Each kept copy answers its own language only, now and on the next read.
    assert note(api.as_().get(url)) == note(english)
    assert note(api.as_().get(url, HTTP_ACCEPT_LANGUAGE="ru")) == note(russian)
    assert len({english["ETag"], russian["ETag"], persian["ETag"]}) == 3
    # A client holding the English copy is not told its copy is the Russian one.
    asked = api.as_().get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=english["ETag"])
    assert asked.status_code == 200 and note(asked) == note(russian)
