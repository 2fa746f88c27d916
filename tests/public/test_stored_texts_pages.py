"""The public pages and the API show what the site stored for an event (a finished
event's results changed, the default rule at time) in the reader's language, and what
its director typed as they typed it."""

from __future__ import annotations

import html

import pytest
from django.utils import timezone

from tests.fixtures import make_event, make_round, named_entries
from tournaments.models import Event

pytestmark = pytest.mark.django_db

REASON = "table three's hand was added up wrong"  # the director's words
RUSSIAN_RULE = "Когда время вышло, текущая сделка доигрывается; новая сделка не начинается."
PERSIAN_RULE = "با پایان زمان، دستِ در جریان تمام می‌شود و دست تازه‌ای شروع نمی‌شود."


@pytest.fixture
def event() -> Event:
    """Round 1 in play (two tables of four); its results changed after it had finished,
    when round 1 was reopened."""
    event = make_event(slug="kingston", name="Kingston Open")
    names = ["Omar", "Lorna", "Kemar", "Andre", "Yvonne", "Beverley", "Carlton", "Delroy"]
    make_round(event, table_sizes=(4, 4), entries=named_entries(event, names))
    Event.objects.filter(pk=event.pk).update(
        results_changed_at=timezone.now(), results_changed_round=1, results_changed_reason=REASON
    )
    return event


def read(client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Language"] == language
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_results_changed_say_the_round_reopened_in_the_readers_words(client, event):
    assert f"Round 1 reopened: {REASON}" in read(client, "/events/kingston/", "en")
    assert f"Тур 1 открыт заново: {REASON}" in read(client, "/events/kingston/", "ru")
    assert f"دور ۱ دوباره باز شد: {REASON}" in read(client, "/events/kingston/", "fa")


def test_the_default_rule_at_time_is_shown_in_the_readers_words(client, event):
    assert "At time, the hand in play is finished" in read(
        client, "/events/kingston/projector/", "en"
    )
    assert RUSSIAN_RULE in read(client, "/events/kingston/projector/", "ru")
    assert PERSIAN_RULE in read(client, "/events/kingston/projector/", "fa")


def test_a_rule_the_director_wrote_is_shown_as_written(client, event):
    Event.objects.filter(pk=event.pk).update(time_rule="Finish the hand in play, then stop.")
    for language in ("ru", "fa"):
        page = read(client, "/events/kingston/projector/", language)
        assert "Finish the hand in play, then stop." in page
        assert RUSSIAN_RULE not in page and PERSIAN_RULE not in page


def test_the_api_gives_the_effective_rule_and_the_results_changed_in_the_clients_language(
    client, event
):
    english = client.get("/api/v1/events/kingston/").json()
    assert english["time_rule"].startswith("At time, the hand in play is finished")
    assert english["results_changed_reason"] == f"Round 1 reopened: {REASON}"
    russian = client.get("/api/v1/events/kingston/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert russian["time_rule"] == RUSSIAN_RULE
    assert russian["results_changed_reason"] == f"Тур 1 открыт заново: {REASON}"
    clock = client.get("/api/v1/events/kingston/rounds/1/clock/", HTTP_ACCEPT_LANGUAGE="fa")
    assert clock.json()["time_rule"] == PERSIAN_RULE
