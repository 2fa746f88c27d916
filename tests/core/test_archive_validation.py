"""An archive goes through the same checks as the services and the rules engine, is
refused whole with a clear message, and never prints a traceback.
Every archive here is well formed and correctly signed: only its content is wrong."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tests.core.test_archive import forget, resigned, row_counts
from tests.fixtures import kept_for_the_module, make_alice, played_event
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker):
    """alice's played event exported, then forgotten as if this were another site: made
    once for the module's tests (alice stays, as she would for each test)."""

    def build() -> dict:
        event = played_event(director=make_alice())
        doc = json.loads(archive.dumps(archive_export.export_event(event)))
        forget(event)
        return doc

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def document(exported, db):
    """A copy of the archive of alice's played event, for the test to damage."""
    return copy.deepcopy(exported)


def rows(doc: dict, section: str) -> list[dict]:
    return doc["payload"][section]


def scored_hand(doc: dict, number: int = 1) -> dict:
    return next(h for h in rows(doc, "hands") if h["number"] == number and h["outcome"] == "scored")


def seat_at_another_table(doc: dict, hand: dict) -> int:
    table = hand["table"]
    return next(
        s["id"]
        for s in rows(doc, "seats")
        if s["table"] != table
        and next(t for t in rows(doc, "tables") if t["id"] == s["table"])["round"]
        == next(t for t in rows(doc, "tables") if t["id"] == table)["round"]
    )


def edit_settings(**values):
    def change(doc):
        doc["payload"]["event"].update(values)

    return change


def edit_hand_number(doc):
    scored_hand(doc)["number"] = 99


def edit_went_out_elsewhere(doc):
    hand = scored_hand(doc)
    hand["went_out"] = seat_at_another_table(doc, hand)


def edit_huge_score(doc):
    hand = scored_hand(doc, 5)
    score = next(
        s for s in rows(doc, "hand_scores") if s["hand"] == hand["id"] and s["card_points"] > 0
    )
    score["card_points"], score["score"] = 5, 2_000_000_000


def edit_quality(doc):
    rows(doc, "rounds")[0]["quality"] = {"repeat_pairs": "garbage", "colour": 1}


def edit_contract(doc):
    scored_hand(doc)["contract"] = "anything goes"


def edit_table_size(doc):
    """Round 2's table 2 (no hands yet) split into two tables of two."""
    round2 = rows(doc, "rounds")[1]["id"]
    table2 = next(t for t in rows(doc, "tables") if t["round"] == round2 and t["number"] == 2)
    table3 = {**table2, "id": max(t["id"] for t in rows(doc, "tables")) + 1, "number": 3}
    rows(doc, "tables").append(table3)
    for seat in rows(doc, "seats"):
        if seat["table"] == table2["id"] and seat["position"] > 2:
            seat["table"], seat["position"] = table3["id"], seat["position"] - 2
            seat["first_dealer"] = seat["position"] == 1


def edit_policy(doc):
    rows(doc, "rounds")[0]["policy"] = "bribery"


def table_row(doc: dict, round_number: int, number: int) -> dict:
    round_id = next(r["id"] for r in rows(doc, "rounds") if r["number"] == round_number)
    return next(t for t in rows(doc, "tables") if t["round"] == round_id and t["number"] == number)


def round_row(doc: dict, number: int) -> dict:
    return next(r for r in rows(doc, "rounds") if r["number"] == number)


def edit_table_end(round_number: int, table: int, hand: int):
    def change(doc):
        table_row(doc, round_number, table)["closed_after_hand"] = hand

    return change


def leave_below_three(doc):
    """Round 2's table 1 (5 seats, one withdrawn): two more leave after hand 2, so only
    two are left for hand 3, yet the table is not closed."""
    table = table_row(doc, 2, 1)["id"]
    for seat in rows(doc, "seats"):
        if seat["table"] == table and seat["position"] in (3, 4):
            seat["left_after_hand"] = 2


def edit_forced_close(number: int):
    def change(doc):
        round_row(doc, number)["forced_close"] = True

    return change


def drop_last_hand(doc):
    """Round 1's table 2 loses its last hand: the closed round has a hand missing, but
    is not marked closed with force."""
    table = table_row(doc, 1, 2)["id"]
    last = max(h["number"] for h in rows(doc, "hands") if h["table"] == table)
    gone = {h["id"] for h in rows(doc, "hands") if h["table"] == table and h["number"] == last}
    doc["payload"]["hands"] = [h for h in rows(doc, "hands") if h["id"] not in gone]
    for section in ("hand_scores", "penalties"):
        doc["payload"][section] = [r for r in rows(doc, section) if r["hand"] not in gone]


CASES = [
    ("table points not numbers", edit_settings(table_points="abc"), "table_points"),
    ("an unknown tiebreak", edit_settings(tiebreaks=["bogus"]), "tiebreaks"),
    ("a director penalty out of range", edit_settings(director_penalty=5000), "director_penalty"),
    ("hand 99 of a 9-hand set", edit_hand_number, "hand 99"),
    ("went out at another table", edit_went_out_elsewhere, "another table"),
    ("a score the rules do not give", edit_huge_score, "not what the rules give"),
    ("garbage in a round's quality", edit_quality, "quality"),
    ("a contract not the ruleset's", edit_contract, "three threes"),
    ("tables of two", edit_table_size, "3 to 6 players"),
    ("an unknown seating policy", edit_policy, "not a seating policy"),
    (
        "a fully played table closed after hand 1",
        edit_table_end(1, 1, 1),
        "round 1, table 1: it is closed after hand 1, but at least three of its players",
    ),
    (
        "a table closed after hand 99",
        edit_table_end(1, 2, 99),
        "round 1, table 2: it is closed after hand 99",
    ),
    (
        "a table that lost one player of five closed early",
        edit_table_end(2, 1, 2),
        "round 2, table 1: it is closed after hand 2, but at least three",
    ),
    (
        "a table left with two players not closed",
        leave_below_three,
        "round 2, table 1: fewer than three of its players are left after hand 2",
    ),
    (
        "a complete round closed with force",
        edit_forced_close(1),
        "round 1: it is marked closed with force, but no hand is missing",
    ),
    (
        "a round in play marked closed with force",
        edit_forced_close(2),
        "round 2: it is published, but marked closed with force",
    ),
    (
        "a round closed with a hand missing, not forced",
        drop_last_hand,
        r"round 1: it is closed with hands missing \(table 2 has 8 of 9 hands\)",
    ),
    (
        "a finished event with a round in play",
        edit_settings(status="finished"),
        "the event is finished: round: Round 2 is published",
    ),
]


@pytest.mark.parametrize(("name", "edit", "message"), CASES, ids=[c[0] for c in CASES])
def test_an_archive_the_services_would_refuse_is_refused_whole(document, name, edit, message):
    edit(document)
    before = row_counts()
    with pytest.raises(archive.ArchiveError, match=message) as refused:
        archive_import.import_event(raw=resigned(document))
    assert str(refused.value).startswith("The archive is not valid: ")
    assert str(refused.value).endswith("Nothing was imported.")
    assert row_counts() == before


def test_the_untouched_archive_imports(document):
    archive_import.import_event(raw=resigned(document))
    assert Event.objects.filter(slug="kingston").exists()


def test_a_table_closed_where_its_leave_points_end_it_imports(document):
    leave_below_three(document)
    edit_table_end(2, 1, 2)(document)
    archive_import.import_event(raw=resigned(document))
    table = Table.objects.get(round__event__slug="kingston", round__number=2, number=1)
    assert table.closed_after_hand == 2


def test_a_round_forced_closed_with_a_hand_missing_imports(document):
    drop_last_hand(document)
    edit_forced_close(1)(document)
    archive_import.import_event(raw=resigned(document))
    assert Event.objects.get(slug="kingston").rounds.get(number=1).forced_close


HOSTILE = [
    ("nested JSON", "[" * 100_000 + "]" * 100_000),
    ("NaN", '{"format": "kalooki-event", "version": 1, "checksum": "x", "payload": NaN}'),
    ("Infinity in the payload", '{"payload": {"a": Infinity}}'),
]


@pytest.mark.parametrize(("name", "text"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_json_is_refused_with_a_message_not_a_traceback(tmp_path, name, text):
    path = tmp_path / "archive.json"
    path.write_text(text)
    with pytest.raises(archive.ArchiveError, match="not an event archive"):
        archive_import.import_event(raw=text)
    with pytest.raises(CommandError, match="not an event archive"):
        call_command("import_event", str(path), stdout=io.StringIO(), stderr=io.StringIO())


def test_a_nan_inside_a_signed_payload_is_refused(document):
    document["payload"]["event"]["packs"] = float("nan")
    text = json.dumps(document)  # Python writes NaN; JSON has no such number
    with pytest.raises(archive.ArchiveError, match="not an event archive"):
        archive_import.import_event(raw=text)


def test_the_command_prints_the_reason_and_no_traceback(document, tmp_path):
    edit_settings(table_points="abc")(document)
    path = tmp_path / "bad.json"
    path.write_text(resigned(document))
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert "table_points" in str(refused.value) and "Traceback" not in str(refused.value)
