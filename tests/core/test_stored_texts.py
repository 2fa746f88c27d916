"""What the site writes into the database (a history's reasons, a finished event's
results changed, a seating that failed) is kept as a code with its values and worded
for each reader (`core.stored_texts`); the English stored before is read back as codes
where it is recognisable, by the migration and by the archive."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from core import archive, services
from core import stored_texts as st
from core.archive import export as archive_export
from core.archive import importer as archive_import
from core.common import author_and_reason
from core.errors import StateConflict
from core.stored_texts import english
from core.stored_texts.words import reason_words, stored_time_rule, worded
from tests.core.test_archive import forget, resigned
from tests.fixtures import make_entries, make_event, played_event
from tournaments.models import Event, Round

# What the site wrote in English on each kind of row, before its texts were codes.
ENGLISH = {
    "hand": [
        "restored version 2: the sheet was misread",
        "restored version 3",
        "entered by seat 1 (Ann (Jr)), confirmed by seat 4 (Ben)",
        "the version entered by seat 1 (Ann)",
        "the version of seat 3 (Cy), who disputed the entry of seat 1 (Ann)",
        "demo data",
    ],
    "proposal": [
        "entered by seat 2 (Ann)",
        "replaced by seat 3 (Ben)",
        "version given by seat 1 (Ann)",
        "disputed by seat 4 (Ben)",
        "entered by seat 2 (Ann), confirmed by seat 3 (Ben)",
        "overruled by a director's entry",
        "overruled: the directors enter the hands now",
    ],
    "round": [
        "forced: 1 table with hands missing",
        "forced: 2 tables with hands missing",
        "reopened",
        "reopened: table 2 found its sheet",
        "discarded: round 2 was reopened",
        "discarded: the final was seeded again",
    ],
    "seat": [
        "seated",
        "at fault: slow play",
        "no longer at fault",
        "Sub Stitute replaces Ann Brown",
        "discarded: round 1 was reopened",
    ],
    "entry": [
        "no-show, replaced by Sub Stitute",
        "substitute for Ann Brown",
        "left the final: no longer a qualifier",
    ],
    "series": [
        "final seeded: leg 3 was rained off",
        "reopened: a leg was corrected",
        "final: grand-final, counted instead",
    ],
    "event": [
        "Round 2 reopened: table 3's hand 1 was added up wrong",
        "replaced by an imported archive",
        "left out of ratings and series: kingston-copy counts",
        "counted instead of kingston",
        "counted",
    ],
}


@pytest.mark.parametrize(
    ("kind", "text"), [(kind, text) for kind, texts in ENGLISH.items() for text in texts]
)
def test_the_english_stored_before_becomes_a_code_worded_as_it_was(kind, text):
    code = english.reason_from_english(text, kind)
    assert st.parsed(code) is not None, code
    with translation.override("en"):
        assert reason_words(code) == text
    # An imported row keeps its author, named in the reason.
    imported = english.reason_from_english(f"alice (imported): {text}", kind)
    assert imported == f"alice (imported): {code}"
    with translation.override("en"):
        assert reason_words(imported) == f"alice (imported): {text}"


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("hand", "reopened"),  # a director's reason for a correction, not the site's
        ("hand", "seat 1's 3 was read as 2"),
        ("seat", "Ann replaces Ben replaces Cy"),  # which name is which cannot be told
        ("round", "forced"),
        ("entry", "Sub Stitute replaces Ann"),
    ],
)
def test_a_directors_own_words_are_left_as_they_are(kind, text):
    assert english.reason_from_english(text, kind) == text


def test_the_codes_are_worded_in_the_readers_language_and_the_directors_words_kept():
    restored = st.stored(st.RESTORED, version=2, reason="the sheet was misread")
    players = st.stored(st.PLAYERS, **st.seat(1, "Ann Brown"), by_seat=4, by_name="Ben Grant")
    with translation.override("ru"):
        assert worded(restored) == "восстановлена версия 2: the sheet was misread"
        assert worded(players) == "ввело место 1 (Ann Brown), подтвердило место 4 (Ben Grant)"
    with translation.override("fa"):
        assert worded(restored) == "نسخهٔ 2 بازگردانده شد: the sheet was misread"
        assert worded(players) == (
            "واردشده توسط صندلی 1 (Ann Brown)، تأییدشده توسط صندلی 4 (Ben Grant)"
        )


def test_a_text_that_is_not_a_code_or_does_not_fit_its_words_is_shown_as_stored():
    assert worded("the sheet was misread") == "the sheet was misread"
    assert worded(None) == ""
    unknown = '{"code":"from_a_later_version","x":1}'
    assert worded(unknown) == unknown
    missing = st.stored(st.RESTORED)  # no version to word
    assert worded(missing) == missing


def test_a_directors_reason_that_reads_like_a_code_is_kept_as_typed():
    typed = '{"code":"seated"}'
    kept = services.correction_reason(typed)
    assert kept != typed and st.untyped(kept) == typed
    with translation.override("ru"):
        assert worded(kept) == typed
    assert services.correction_reason("wrong seat") == "wrong seat"


def test_the_default_rule_at_time_in_any_language_is_stored_as_the_default():
    with translation.override("ru"):
        shown = Event(time_rule=None).time_rule_text
    assert shown.startswith("Когда время вышло")
    assert stored_time_rule(shown) is None
    assert stored_time_rule(english.OLD_DEFAULT_TIME_RULE) is None
    assert stored_time_rule("Stop at once.") == "Stop at once."
    assert stored_time_rule("") == ""  # no rule shown at time


@pytest.mark.django_db
def test_a_seating_that_failed_for_too_few_players_is_kept_as_a_code(alice):
    event = make_event(slug="two-players")
    make_entries(event, 2)
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.SEATING)
    services.seat_round(round_id=round_.pk)
    round_.refresh_from_db()
    assert st.parsed(round_.quality["error"]) == (
        st.TOO_FEW_PLAYERS,
        {"count": 2, "least": 3},
    )
    with translation.override("en"):
        assert worded(round_.quality["error"]) == (
            "3 players are needed to seat a round; 2 are active"
        )
    with translation.override("ru"), pytest.raises(StateConflict) as refused:
        services.publish_round(round=round_, by=alice)
    assert "нужно не меньше 3 игроков; в игре 2 игрока" in str(refused.value)


# --- the archive ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_archive_written_before_the_codes_is_read_as_codes(alice):
    """An older archive's English (the history's reasons, the default rule at time, the
    round reopened in the results changed, a seating that failed) comes in as codes."""
    event = played_event(director=alice)
    document = json.loads(archive.dumps(archive_export.export_event(event)))
    payload = document["payload"]
    payload["history"]["rounds"][0]["history_change_reason"] = "reopened: table 2 found its sheet"
    payload["history"]["seats"][0]["history_change_reason"] = "seated"
    payload["event"]["time_rule"] = english.OLD_DEFAULT_TIME_RULE
    payload["event"]["results_changed_at"] = "2026-05-01T18:00:00+00:00"
    payload["event"]["results_changed_reason"] = "Round 1 reopened: table 3 added hand 1 wrong"
    del payload["event"]["results_changed_round"]
    quality = {**payload["rounds"][1]["quality"]}
    quality["error"] = "3 players are needed to seat a round; 2 are active"
    payload["rounds"][1]["quality"] = quality
    forget(event)

    imported = Event.objects.get(pk=archive_import.import_event(raw=resigned(document)).event.pk)
    assert imported.time_rule is None
    assert (imported.results_changed_round, imported.results_changed_reason) == (
        1,
        "table 3 added hand 1 wrong",
    )
    round_1 = imported.rounds.get(number=1)
    kept = round_1.history.values_list("history_change_reason", flat=True)
    with translation.override("ru"):
        assert imported.results_changed_text == "Тур 1 открыт заново: table 3 added hand 1 wrong"
        reasons = {worded(author_and_reason(reason)[1]) for reason in kept}
        assert "повторное открытие: table 2 found its sheet" in reasons
        error = imported.rounds.get(number=2).quality["error"]
        assert worded(error).endswith("в игре 2 игрока")
    # Exported again, the new fields travel as they are stored.
    again = archive_export.export_event(imported)["payload"]["event"]
    assert (again["time_rule"], again["results_changed_round"]) == (None, 1)
