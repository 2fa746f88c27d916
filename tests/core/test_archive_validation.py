"""An archive goes through the same checks as the services and the rules engine, is
refused whole with a clear message, and never prints a traceback (issue 14, finding 3).
Every archive here is well formed and correctly signed: only its content is wrong."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tests.core.test_archive import forget, resigned, row_counts
from tests.fixtures import played_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(alice):
    event = played_event(director=alice)
    doc = json.loads(archive.dumps(archive_export.export_event(event)))
    forget(event)
    return doc


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
