"""The migration that made the English the site stored into codes worded for each
reader (tournaments 0018 and 0019): the history's reasons the site wrote (an imported
row's author kept), the default rule at time, a finished event's "Round N reopened:
why" and a seating that failed for too few players; a director's own words are left
as they are."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from core import stored_texts as st
from core.stored_texts.words import reason_words
from scoring.models import Hand
from tests.migrating import migrate, migrate_to_latest
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("tournaments", "0017_event_language")
OLD_DEFAULT = "At time, the hand in play is finished; no new hand is started."
TOO_FEW = "3 players are needed to seat a round; 2 are active"


def history_row(apps, obj, reason: str) -> None:
    """A history row of `obj` as django-simple-history wrote it, with `reason`."""
    app, name = obj._meta.app_label, type(obj).__name__
    historical = apps.get_model(app, f"Historical{name}")
    values = {
        field.attname: getattr(obj, field.attname)
        for field in historical._meta.concrete_fields
        if hasattr(obj, field.attname) and field.attname != "history_id"
    }
    historical.objects.create(
        **values,
        history_date=timezone.now(),
        history_type="~",
        history_change_reason=reason,
    )


def test_the_english_stored_before_becomes_codes_and_the_directors_words_stay():
    apps = migrate(BEFORE)
    try:
        old = {name: apps.get_model("tournaments", name) for name in ("Event", "Round", "Table")}
        event = old["Event"].objects.create(
            slug="kingston",
            name="Kingston Open",
            status="running",
            results_changed_at=timezone.now(),
            results_changed_reason="Round 2 reopened: table 3's hand 1 was added up wrong",
        )
        own = old["Event"].objects.create(slug="ocho", name="Ocho Rios", time_rule="Stop.")
        assert event.time_rule == OLD_DEFAULT
        history_row(apps, event, "counted instead of kingston-copy")
        round_ = old["Round"].objects.create(
            event=event, number=2, status="draft", quality={"error": TOO_FEW}
        )
        history_row(apps, round_, "reopened: table 2 found its sheet")
        history_row(apps, round_, "forced: 2 tables with hands missing")
        table = old["Table"].objects.create(round=round_, number=1)
        hand = apps.get_model("scoring", "Hand").objects.create(
            table=table, number=1, attempt=1, contract="c", cards_dealt=9, outcome="redeal"
        )
        history_row(apps, hand, "restored version 1: the sheet was misread")
        history_row(
            apps, hand, "alice (imported): entered by seat 1 (Ann), confirmed by seat 2 (Ben)"
        )
        history_row(apps, hand, "reopened")  # a director's reason for a correction
    finally:
        migrate_to_latest()

    event, own = Event.objects.get(slug="kingston"), Event.objects.get(slug="ocho")
    assert (event.time_rule, own.time_rule) == (None, "Stop.")
    assert (event.results_changed_round, event.results_changed_reason) == (
        2,
        "table 3's hand 1 was added up wrong",
    )
    round_ = Round.objects.get(event=event)
    assert st.parsed(round_.quality["error"]) == (st.TOO_FEW_PLAYERS, {"count": 2, "least": 3})
    hand = Hand.objects.get(table__round=round_)
    rounds = list(round_.history.order_by("history_id").values_list("history_change_reason"))
    hands = list(hand.history.order_by("history_id").values_list("history_change_reason"))
    kept = [reason for (reason,) in [*rounds, *hands]]
    assert kept[-1] == "reopened"  # the director's words, as they typed them
    assert [st.code_of(reason) for reason in kept[:3]] == [st.REOPENED, st.FORCED, st.RESTORED]
    assert kept[3].startswith("alice (imported): {")
    with translation.override("en"):
        assert [reason_words(reason) for reason in kept] == [
            "reopened: table 2 found its sheet",
            "forced: 2 tables with hands missing",
            "restored version 1: the sheet was misread",
            "alice (imported): entered by seat 1 (Ann), confirmed by seat 2 (Ben)",
            "reopened",
        ]
        assert event.time_rule_text == OLD_DEFAULT
    with translation.override("ru"):
        assert event.results_changed_text == (
            "Тур 2 открыт заново: table 3's hand 1 was added up wrong"
        )
        assert reason_words(kept[0]) == "повторное открытие: table 2 found its sheet"
        assert event.time_rule_text.startswith("Когда время вышло")
    events = Event.history.filter(id=event.pk).values_list("history_change_reason", flat=True)
    assert [st.code_of(reason) for reason in events] == [st.COUNTED]
