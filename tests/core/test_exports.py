"""CSV exports of an event: the standings and every hand score (core.standings.exports)."""

from __future__ import annotations

import csv
import io

import pytest

from core.standings import exports
from scoring.models import Hand, HandScore, Standing
from tests.core.shared_events import event_of, played_event_pk
from tests.fixtures import kept_for_the_module
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def read(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def kept(django_db_setup, django_db_blocker) -> int:
    """A played event (its pk): made once for the module's tests."""
    yield from kept_for_the_module(django_db_blocker, played_event_pk)


@pytest.fixture
def event(kept, db):
    return event_of(kept)


def test_the_standings_csv_has_every_entry_in_rank_order(event):
    rows = read(exports.standings_csv(event))
    standings = Standing.objects.filter(round__number=2).select_related("entry__player")
    expected = [
        (str(s.rank), s.entry.player.name, s.entry.player.club, str(s.points), s.status)
        for s in standings.order_by("rank")
    ]
    assert [(r["rank"], r["player"], r["club"], r["points"], r["status"]) for r in rows] == expected
    assert {r["round"] for r in rows} == {"2"}
    assert "withdrawn" in {r["status"] for r in rows}
    andre = next(r for r in rows if r["player"] == "Andre Brown")
    assert andre["country"] == "JM"
    assert andre["player_id"] == str(Player.objects.get(name="Andre Brown").pk)


def test_the_standings_of_an_earlier_round_can_be_asked_for(event):
    rows = read(exports.standings_csv(event, 1))
    assert {r["round"] for r in rows} == {"1"}
    assert len(rows) == 9


def test_an_event_without_standings_exports_the_header_only(event):
    Standing.objects.all().delete()
    assert exports.standings_csv(event) == ",".join(exports.STANDINGS_COLUMNS) + "\r\n"


def test_the_hands_csv_has_a_row_per_seat_of_every_hand_and_one_per_redeal(event):
    rows = read(exports.hands_csv(event))
    scored_rows = HandScore.objects.filter(hand__table__round__event=event).count()
    redeals = Hand.objects.filter(table__round__event=event, outcome="redeal").count()
    assert redeals == 1
    assert len(rows) == scored_rows + redeals
    redeal = next(r for r in rows if r["outcome"] == "redeal")
    assert (redeal["round"], redeal["table"], redeal["hand"], redeal["attempt"]) == (
        "1",
        "1",
        "2",
        "1",
    )
    assert redeal["seat"] == "" and redeal["score"] == ""
    replayed = [r for r in rows if (r["round"], r["table"], r["hand"]) == ("1", "1", "2")]
    assert {r["attempt"] for r in replayed} == {"1", "2"}


def test_a_hand_scores_row_carries_the_contract_penalties_and_doubling(event):
    rows = read(exports.hands_csv(event))
    hand3 = [r for r in rows if (r["round"], r["table"], r["hand"]) == ("1", "2", "3")]
    assert [r["seat"] for r in hand3] == ["1", "2", "3", "4"]
    assert hand3[0]["contract"] == "one three, two fours"
    assert hand3[0]["cards_dealt"] == "11"
    assert hand3[0]["penalties"] == "overcall 100"
    assert hand3[0]["penalty_points"] == "100"
    assert int(hand3[0]["score"]) == int(hand3[0]["card_points"]) + 100
    hand4 = [r for r in rows if (r["round"], r["table"], r["hand"]) == ("1", "2", "4")]
    assert {r["down_and_out"] for r in hand4} == {"yes"}
    losers = [r for r in hand4 if r["card_points"] != "0"]
    assert all(int(r["score"]) == 2 * int(r["card_points"]) for r in losers)
    went_out = hand4[0]["went_out"]
    assert next(r for r in hand4 if r["seat"] == went_out)["score"] == "0"


def test_a_name_that_looks_like_a_formula_is_not_run_by_a_spreadsheet(event):
    Player.objects.filter(name="Andre Brown").update(name='=HYPERLINK("http://x","y")')
    standings = read(exports.standings_csv(event))
    assert '\'=HYPERLINK("http://x","y")' in {r["player"] for r in standings}
    assert all(not r["player"].startswith("=") for r in read(exports.hands_csv(event)))
    assert exports.safe_cell(-5) == -5


def test_exports_run_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    # The hands (3), and the event's namesakes, to tell them apart.
    with django_assert_max_num_queries(4):
        exports.hands_csv(event)
    # The standings (2), and whether a substitute replaced the player who withdrew.
    with django_assert_max_num_queries(3):
        exports.standings_csv(event)
