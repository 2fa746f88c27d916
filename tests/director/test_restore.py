"""Restoring a version of a hand from its history, with a reason kept in the history:
who may, what a bad request says, what is written."""

from __future__ import annotations

import html
import re

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from core.hands.services import CORRECTION_REASON_MAX
from core.stored_texts.words import reason_words
from scoring.models import Hand, HandScore
from tests.fixtures import hand
from tests.html import signed_in

pytestmark = pytest.mark.django_db


def flashes(response) -> list[str]:
    found = re.findall(r'<li class="flash-\w+">(.*?)</li>', response.content.decode())
    return [html.unescape(text) for text in found]


def scores(w, number: int = 1) -> dict[int, int]:
    rows = HandScore.objects.filter(hand__table=w.table, hand__number=number)
    return dict(rows.values_list("seat__position", "card_points"))


@pytest.fixture
def corrected(w):
    """Hand 1 recorded (version 1), then corrected twice (versions 2 and 3)."""
    services.record_hand(table=w.table, number=1, entry=hand(1, 4), by=w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(2, 4, base=20), by=w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(3, 4, base=30), by=w.alice)
    return w


def test_restoring_a_version_records_it_again_with_the_reason(corrected, director):
    w = corrected
    page = director.get(w.hand_url(1, rest="history/")).content.decode()
    assert "Restore version 1" in page and "Restore version 2" in page
    assert "Restore version 3" not in page  # the version it is at
    response = director.post(
        w.hand_url(1, rest="restore/"),
        {"version": "1", "current": "3", "reason": "  the sheet was misread  "},
        follow=True,
    )
    assert flashes(response) == ["Hand 1 is restored to version 1 (now version 4)."]
    assert scores(w) == {1: 0, 2: 12, 3: 13, 4: 14}
    latest = Hand.objects.get(table=w.table, number=1)
    assert latest.version == 4 and latest.went_out.position == 1
    record = latest.history.latest()
    assert record.history_user == w.alice
    assert reason_words(record.history_change_reason) == "restored version 1: the sheet was misread"
    page = response.content.decode()
    assert "Reason: <q>restored version 1: the sheet was misread</q>" in page


def test_a_stale_or_pointless_restore_is_refused_and_nothing_changes(corrected, director):
    w = corrected
    response = director.post(
        w.hand_url(1, rest="restore/"), {"version": "1", "current": "2"}, follow=True
    )
    assert "version 3, you edited version 2" in flashes(response)[0]
    response = director.post(
        w.hand_url(1, rest="restore/"), {"version": "9", "current": "3"}, follow=True
    )
    assert flashes(response) == ["Hand 1 at table 1 has no version 9."]
    response = director.post(w.hand_url(1, rest="restore/"), {"version": "x"}, follow=True)
    assert "Version to restore: Enter a whole number." in flashes(response)
    assert Hand.objects.get(table=w.table, number=1).version == 3


def test_restoring_the_version_it_is_at_is_refused(corrected):
    w = corrected
    services.restore_hand_version(table=w.table, number=1, version=2, by=w.alice)
    with pytest.raises(StateConflict, match="already says what version 2 said"):
        services.restore_hand_version(table=w.table, number=1, version=2, by=w.alice)
    assert Hand.objects.get(table=w.table, number=1).version == 4


def test_a_redeal_is_not_a_version_to_restore(w):
    from game.rules import HandEntry

    services.record_hand(table=w.table, number=1, entry=HandEntry(redeal=True), by=w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(1, 4), by=w.alice)
    with pytest.raises(InvalidInput, match="is a redeal"):
        services.restore_hand_version(table=w.table, number=1, version=1, by=w.alice)


def test_a_reason_is_kept_short(corrected):
    with pytest.raises(InvalidInput, match="300 characters"):
        services.restore_hand_version(
            table=corrected.table, number=1, version=1, reason="x" * 301, by=corrected.alice
        )


def test_only_the_events_directors_may_restore(corrected):
    w = corrected
    response = signed_in(w.bob).post(
        w.hand_url(1, rest="restore/"), {"version": "1", "current": "3"}
    )
    assert response.status_code == 404
    assert Hand.objects.get(table=w.table, number=1).version == 3


def test_penalties_and_cards_come_back_too(w, director):
    from game.rules import HandEntry, PenaltyEntry, SeatEntry

    first = HandEntry(
        went_out=1,
        scores=(SeatEntry(2, cards="JK AS 10H"), SeatEntry(3, points=7), SeatEntry(4, points=9)),
        penalties=(PenaltyEntry(seat=4, kind="overcall", extra_calls=1),),
    )
    services.record_hand(table=w.table, number=1, entry=first, by=w.alice)
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    services.restore_hand_version(table=w.table, number=1, version=1, by=w.alice)
    latest = Hand.objects.get(table=w.table, number=1)
    assert latest.scores.get(seat__position=2).cards == "JK AS 10H"
    assert list(latest.penalties.values_list("seat__position", "kind")) == [(4, "overcall")]


def test_the_longest_reason_allowed_is_kept_whole_with_its_restored_version(corrected, director):
    """The history keeps "restored version N: " and a reason of the most allowed (on
    PostgreSQL too, where a column's length is enforced)."""
    w = corrected
    reason = "r" * CORRECTION_REASON_MAX
    director.post(
        w.hand_url(1, rest="restore/"), {"version": "1", "current": "3", "reason": reason}
    )
    record = Hand.objects.get(table=w.table, number=1).history.latest()
    assert reason_words(record.history_change_reason) == f"restored version 1: {reason}"
    kept = HandScore.history.filter(hand_id=record.id)
    restored = f"restored version 1: {reason}"
    assert {reason_words(s.history_change_reason) for s in kept} >= {restored}
