"""The director's pages show what the site wrote into the database (a hand's history,
a seating that failed, the rule at time, a model's history in the admin) in the
reader's language, and what a director typed as they typed it."""

from __future__ import annotations

import html

import pytest

from core import services
from core.seating.services import seating_failure
from game.seating import SeatingError
from kalooki_site.digits import TO_ASCII
from tests.director.test_dashboard import draft_round
from tests.fixtures import codes_of, hand, make_world
from tests.html import signed_in
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db

REASON = "the sheet was misread"  # a director's words: never translated


def read(client, url: str, language: str) -> str:
    """The page at `url` in `language` (the switch's cookie), its text as read: entities
    decoded, Persian digits as ASCII."""
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return " ".join(html.unescape(response.content.decode()).translate(TO_ASCII).split())


def test_a_restored_versions_history_is_worded_for_the_reader(w, director):
    services.record_hand(table=w.table, number=1, entry=hand(1, 4), by=w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    services.restore_hand_version(table=w.table, number=1, version=1, reason=REASON, by=w.alice)
    url = w.hand_url(1, rest="history/")
    assert f"restored version 1: {REASON}" in read(director, url, "en")
    assert f"восстановлена версия 1: {REASON}" in read(director, url, "ru")
    assert f"نسخهٔ 1 بازگردانده شد: {REASON}" in read(director, url, "fa")


def test_a_directors_own_reason_is_shown_as_typed_in_every_language(w, director):
    services.record_hand(table=w.table, number=1, entry=hand(1, 4), by=w.alice)
    for reason in (REASON, "reopened", '{"code":"seated"}'):
        latest = services.record_hand(
            table=w.table,
            number=1,
            entry=hand(1, 4, base=len(reason)),
            by=w.alice,
            reason=services.correction_reason(reason),
        )
        assert latest.changed
        for language in ("ru", "fa"):
            page = read(director, w.hand_url(1, rest="history/"), language)
            assert f"<q>{reason}</q>" in page


def test_a_hand_the_players_recorded_names_them_in_the_readers_words():
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    codes = codes_of(w.round)
    client = "203.0.113.7"
    services.propose_hand(
        table=w.table, number=1, entry=hand(2, 4), code=codes[(1, 1)], client=client
    )
    services.confirm_proposal(table=w.table, number=1, code=codes[(1, 3)], client=client)
    names = {s.position: s.entry.player.name for s in w.table.seats.select_related("entry__player")}
    url = w.hand_url(1, rest="history/")
    director = signed_in(w.alice)
    assert f"игроки (ввело место 1 ({names[1]}), подтвердило место 3 ({names[3]}))" in read(
        director, url, "ru"
    )
    assert (
        f"بازیکنان (واردشده توسط صندلی 1 ({names[1]})، تأییدشده توسط صندلی 3 ({names[3]}))"
        in read(director, url, "fa")
    )


def test_a_seating_that_failed_is_worded_for_the_reader(w, director):
    round_2 = draft_round(w)
    Round.objects.filter(pk=round_2.pk).update(
        quality={"error": seating_failure(SeatingError("too few"), 2)}
    )
    english = "The seating could not be made: 3 players are needed to seat a round; 2 are active"
    assert english in read(director, w.url(), "en")
    assert "нужно не меньше 3 игроков; в игре 2 игрока" in read(director, w.url(), "ru")
    assert "دست‌کم 3 بازیکن لازم است؛ 2 بازیکن فعال‌اند" in read(director, w.url(), "fa")


def test_the_default_rule_at_time_is_offered_in_the_readers_words_and_kept_the_default(w, director):
    director.cookies["django_language"] = "ru"
    page = html.unescape(director.get(w.url()).content.decode())
    russian = "Когда время вышло, текущая сделка доигрывается; новая сделка не начинается."
    assert f'value="{russian}"' in page
    director.post(w.url("time-rule/"), {"time_rule": russian})
    w.event.refresh_from_db()
    assert w.event.time_rule is None  # the default still: each reader reads it in theirs
    director.post(w.url("time-rule/"), {"time_rule": "Finish the hand, then stop."})
    assert 'value="Finish the hand, then stop."' in read(director, w.url(), "fa")


def test_the_admins_history_words_the_sites_reasons(w):
    Round.objects.filter(pk=w.round.pk).update(status="closed")
    round_ = Round.objects.get(pk=w.round.pk)
    services.reopen_round(round=round_, reason="table 2 found its sheet", by=w.root)
    url = f"/admin/tournaments/round/{round_.pk}/history/"
    admin = signed_in(w.root)
    assert "reopened: table 2 found its sheet" in read(admin, url, "en")
    assert "повторное открытие: table 2 found its sheet" in read(admin, url, "ru")
    assert "دوباره باز شد: table 2 found its sheet" in read(admin, url, "fa")
