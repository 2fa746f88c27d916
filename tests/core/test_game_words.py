"""The game's words in the reader's language (`core.words.translated`): a hand the rules
refuse, a tie note, an adjusted score, a refused setting; English as the engine says it,
Russian and Persian from the catalogue, the values in place and names as written."""

from __future__ import annotations

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from core import selectors, services
from core.errors import HandRejected, InvalidInput, StateConflict
from core.events.rulesets import check_house_data
from core.events.services import check_tiebreaks
from core.series.services import check_prizes, check_series
from core.standings.selectors import AdjustedHand
from core.words import listing, translated
from game import rules
from game.clock import Clock, ClockConflict
from game.rules import HandEntry, SeatEntry
from game.words import joined, say, say_plural
from tests.fixtures import make_event, make_round
from tests.public.test_tie_notes_pages import tied  # noqa: F401 (a fixture)
from tournaments.models import Round


def test_words_are_looked_up_in_the_active_language_with_their_values():
    said = say("seat %(seat)s: no score entered", seat=3)
    with translation.override("ru"):
        assert translated(said) == "место 3: результат не указан"
    with translation.override("fa"):
        assert translated(said) == "صندلی 3: امتیازی وارد نشده است"
    with translation.override("en"):
        assert translated(said) == said


def test_in_english_every_message_is_its_own_text_so_words_skip_the_lookup():
    """`translated` answers English words with their own text: right only while no
    catalogue (Django's, an app's) gives one of the site's messages other English."""
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    with translation.override("en"):
        for entry in catalogue:
            if entry.msgctxt:
                assert pgettext(entry.msgctxt, entry.msgid) == entry.msgid
            elif entry.msgid_plural:
                assert ngettext(entry.msgid, entry.msgid_plural, 1) == entry.msgid
                assert ngettext(entry.msgid, entry.msgid_plural, 2) == entry.msgid_plural
            else:
                assert gettext(entry.msgid) == entry.msgid
    assert len(catalogue) > 500


def test_a_list_says_the_games_words_in_it_and_its_separator_in_the_language():
    said = say("seat %(seat)s: no score entered", seat=3)
    with translation.override("fa"):
        assert listing([said, "Ann"]) == "صندلی 3: امتیازی وارد نشده است، Ann"
    with translation.override("en"):
        assert listing([said, "Ann"]) == "seat 3: no score entered, Ann"


def test_words_within_words_and_plurals_are_translated_too():
    def cards(n: int):
        return say_plural("%(count)s cards", "%(count)s cards", n, count=n)

    with translation.override("ru"):
        assert [translated(cards(n)) for n in (1, 3, 5, 21)] == [
            "1 карта",
            "3 карты",
            "5 карт",
            "21 карта",
        ]
        why = say("hand %(hand)s deals %(dealt)s, plus 6 from three calls", hand=3, dealt=11)
        said = say_plural(
            "seat %(seat)s: %(count)s cards, but a player can hold at most %(most)s (%(why)s)",
            "seat %(seat)s: %(count)s cards, but a player can hold at most %(most)s (%(why)s)",
            24,
            seat=2,
            count=24,
            most=17,
            why=why,
        )
        assert translated(said) == (
            "место 2: 24 карты, а на руке у игрока может быть не больше 17 "
            "(в сделке 3 сдают по 11, плюс 6 за три вызова)"
        )


def test_other_messages_and_exceptions_are_read_as_text():
    with translation.override("ru"):
        assert translated("as typed") == "as typed"
        assert translated(ValueError("plain")) == "plain"
        assert translated(ClockConflict(say("The clock is not paused."))) == "Часы не остановлены."
        both = joined([say("The clock is not paused."), "Ann"], "; ")
        assert translated(both) == "Часы не остановлены.; Ann"


def a_bad_hand() -> rules.HandInvalid:
    entry = HandEntry(
        went_out=1,
        scores=(SeatEntry(seat=2, points=500), SeatEntry(seat=3, points=0), SeatEntry(4, 12)),
    )
    with pytest.raises(rules.HandInvalid) as refused:
        rules.score_hand(
            ruleset=rules.get_ruleset("jamaica"),
            deck=rules.Deck(2, 4),
            number=3,
            seats=[1, 2, 3, 4],
            entry=entry,
        )
    return refused.value


def test_a_refused_hand_is_answered_in_the_readers_language():
    invalid = a_bad_hand()
    with translation.override("en"):
        assert HandRejected(invalid).errors == invalid.by_field()
    with translation.override("ru"):
        scores = HandRejected(invalid).errors["scores"]
    assert scores == [
        "место 2: 500 очков — больше, чем могут стоить карты на руке: их может быть не больше "
        "17, и стоят они не больше 350 (в сделке 3 сдают по 11, плюс 6 за три вызова)",
        "место 3: 0 очков, но 0 может получить только вышедший игрок",
    ]
    with translation.override("fa"):
        scores = HandRejected(invalid).errors["scores"]
    assert scores[1] == "صندلی 3: صفر امتیاز، اما فقط بازیکنی که بیرون رفته می\u200cتواند صفر بگیرد"
    assert scores[0].startswith("صندلی 2: 500 امتیاز") and "350" in scores[0]


def test_an_adjusted_score_is_worded_in_the_readers_language():
    made = AdjustedHand(round=2, table=4, hand=9, score=61, at_fault=False, rule="field_mean")
    fault = AdjustedHand(round=2, table=4, hand=2, score=23, at_fault=True, rule="at_fault")
    with translation.override("en"):
        assert made.text == "round 2, table 4: hand 9 adjusted: 61, the field's mean"
    with translation.override("ru"):
        assert "сделка 9 скорректирована: 61, среднее по остальным столам" in made.text
        assert "сделка 2 скорректирована: 23, виновен: 75-й процентиль" in fault.text
    with translation.override("fa"):
        assert "دست 9 تعدیل شد: 61، میانگین نتایج دیگر میزها" in made.text


@pytest.mark.django_db
def test_a_tie_note_follows_the_reader_while_the_standings_are_kept_once(tied):  # noqa: F811
    w, names = tied
    standings = selectors.standings_after(w.event)
    with translation.override("ru"):
        russian = standings.rows[0].tie_note
    with translation.override("fa"):
        persian = standings.rows[0].tie_note
    with translation.override("en"):
        english = selectors.standings_after(w.event).rows[0].tie_note  # the kept copy, again
    assert english == f"Above {names[1]} (level on 10 points): hands won, 2 to 1."
    assert russian == (
        f"Выше игрока {names[1]} (при равенстве очков: 10): выиграно сделок: 2 против 1."
    )
    assert persian == (
        f"بالاتر از {names[1]} (برابر با 10 امتیاز): دست\u200cهای برده، 2 در برابر 1."
    )


@pytest.mark.django_db
def test_the_leaderboard_shows_the_tie_note_in_the_readers_language(tied):  # noqa: F811
    w, names = tied
    reader = Client()
    reader.cookies["django_language"] = "ru"
    page = reader.get(f"/events/{w.event.slug}/").content.decode()
    assert f"Ниже игрока {names[2]} (при равенстве очков: 10): выиграно сделок: 2 против 1." in page


def test_a_refused_custom_ruleset_is_worded_in_russian():
    values = {"jokers_per_pack": 9, "hands": [{"cards_dealt": 30, "threes": 1, "fours": 0}]}
    with translation.override("ru"), pytest.raises(InvalidInput) as refused:
        check_house_data(values)
    assert refused.value.errors == {
        "jokers_per_pack": ["Укажите от 0 до 8 джокеров на колоду."],
        "hands": ["Сделка 1: сдавайте от 5 до 20 карт, а не 30."],
    }
    with translation.override("en"), pytest.raises(InvalidInput) as english:
        check_house_data(values)
    assert english.value.errors["jokers_per_pack"] == ["Give 0 to 8 jokers per pack."]


def test_a_clock_refusal_from_the_game_becomes_a_service_error_in_russian():
    with pytest.raises(ClockConflict) as refused:
        Clock(minutes=90).pause(None)
    with translation.override("ru"):
        error = InvalidInput(refused.value.args[0], field=refused.value.field)
    assert error.errors == {"action": ["Часы ещё не запущены."]}


@pytest.mark.django_db
def test_a_hand_refused_by_the_service_speaks_russian(tied):  # noqa: F811
    w, _ = tied
    entry = HandEntry(went_out=1, scores=(SeatEntry(2, 0), SeatEntry(3, 5), SeatEntry(4, 7)))
    with translation.override("ru"), pytest.raises(HandRejected) as refused:
        services.record_hand(table=w.table, number=4, entry=entry)
    assert refused.value.errors == {
        "scores": ["место 2: 0 очков, но 0 может получить только вышедший игрок"]
    }


def test_a_refused_prize_table_and_points_scale_are_worded_in_russian():
    with translation.override("ru"), pytest.raises(InvalidInput) as prizes:
        check_prizes([{"place": 1, "amount": "lots"}])
    assert prizes.value.errors == {
        "prizes": [
            "Таблица призов: приз 1: 'lots' — не сумма (пишите её так: 50,000 или J$50,000.00)."
        ]
    }
    with translation.override("ru"), pytest.raises(InvalidInput) as scale:
        check_series({"points_scale": [100, 120]})
    assert scale.value.errors == {
        "points_scale": [
            "Шкала очков: место 2 получает 120 — больше, чем место 1 (100): худшее место "
            "никогда не получает больше."
        ]
    }
    with translation.override("en"), pytest.raises(InvalidInput) as english:
        check_prizes([{"place": 1, "amount": "lots"}])
    assert english.value.errors["prizes"] == [
        "The prize table: prize 1: amount 'lots' is not an amount (write it as 50,000 or "
        "J$50,000.00)."
    ]


def test_refused_tiebreaks_are_worded_in_persian():
    with translation.override("fa"), pytest.raises(InvalidInput) as refused:
        check_tiebreaks(["points", "points"])
    assert refused.value.errors == {
        "tiebreaks": ["معیارهای تساوی\u200cشکنی که بیش از یک بار آمده\u200cاند: points"]
    }


@pytest.mark.django_db
def test_a_table_the_deck_cannot_deal_is_refused_in_russian():
    event = make_event(packs=1, jokers=14, odd_tables="threes")
    round_ = make_round(event, table_sizes=(5, 4), status=Round.Status.DRAFT)
    with translation.override("ru"), pytest.raises(StateConflict) as refused:
        services.publish_round(round=round_)
    assert refused.value.errors == {
        "round": [
            "Колоды не хватит на стол 1 из 5 игроков: в сделке 7 каждому из 5 игроков сдают "
            "по 14 карт (70), и ещё хотя бы одна карта нужна для запаса, но 1 колода и 14 "
            "джокеров — это всего 66 карт. Пересадите игрока за меньший стол."
        ]
    }
