from __future__ import annotations

import copy

import pytest

from scoring.models import Hand, HandScore
from tests.api.conftest import GOOD_HAND, hand_url

pytestmark = pytest.mark.django_db


def test_put_records_the_hand_and_answers_the_document(api, alice, playing):
    response = api.as_(alice).put(hand_url(), GOOD_HAND, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["number"] == 1 and body["contract"] == "three threes" and body["cards_dealt"] == 9
    assert (body["outcome"], body["went_out"], body["down_and_out"], body["version"]) == (
        "scored",
        2,
        False,
        1,
    )
    by_seat = {r["seat"]: r for r in body["results"]}
    assert by_seat[3] == {
        "seat": 3,
        "player": by_seat[3]["player"],
        "card_points": 82,
        "penalty_points": 0,
        "score": 82,
        "cards": "JK AS 10H 7D",
        "sat_out": False,
    }
    assert response["ETag"] == '"1"'
    assert api.as_().get(hand_url()).json() == body


def test_score_is_doubled_card_points_plus_penalties(api, alice, playing):
    hand = copy.deepcopy(GOOD_HAND)
    hand["down_and_out"] = True
    hand["penalties"] = [{"seat": 4, "kind": "overcall", "extra_calls": 1}]
    body = api.as_(alice).put(hand_url(), hand, format="json").json()
    scores = {
        r["seat"]: (r["card_points"], r["penalty_points"], r["score"]) for r in body["results"]
    }
    assert scores == {1: (23, 0, 46), 2: (0, 0, 0), 3: (82, 0, 164), 4: (41, 100, 182)}


def test_a_stale_if_match_gets_412_and_writes_nothing(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    changed = copy.deepcopy(GOOD_HAND)
    changed["scores"][0]["points"] = 30
    assert client.put(hand_url(), changed, format="json", HTTP_IF_MATCH='"1"').status_code == 200
    stale = copy.deepcopy(GOOD_HAND)
    stale["scores"][0]["points"] = 99
    response = client.put(hand_url(), stale, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
    assert "version" in response.json()
    assert HandScore.objects.get(seat__position=1).card_points == 30


def test_resending_an_identical_hand_is_harmless(api, alice, playing):
    client = api.as_(alice)
    first = client.put(hand_url(), GOOD_HAND, format="json").json()
    again = client.put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH='"1"')
    assert again.status_code == 200
    assert again.json()["version"] == first["version"] == 1


def test_a_redeal_then_the_scored_deal(api, alice, playing):
    client = api.as_(alice)
    redeal = client.put(hand_url(hand=4), {"redeal": True}, format="json").json()
    assert (redeal["outcome"], redeal["results"], redeal["version"]) == ("redeal", [], 1)
    body = client.put(hand_url(hand=4), GOOD_HAND, format="json").json()
    assert (body["outcome"], body["deals"], body["version"]) == ("scored", 2, 2)


def with_penalty_and_doubled():
    hand = copy.deepcopy(GOOD_HAND)
    hand["down_and_out"] = True
    hand["penalties"] = [{"seat": 4, "kind": "overcall", "extra_calls": 1}]
    return hand


def corrected():
    hand = copy.deepcopy(GOOD_HAND)
    hand["scores"][0]["points"] = 30
    return hand


@pytest.mark.parametrize(
    "saves",
    [
        [GOOD_HAND],
        [GOOD_HAND, GOOD_HAND],  # a resend: nothing written, the same answer
        [GOOD_HAND, corrected()],
        [GOOD_HAND, with_penalty_and_doubled()],
        [with_penalty_and_doubled(), GOOD_HAND],  # the penalty goes
        [{"redeal": True}],
        [{"redeal": True}, GOOD_HAND],
        [GOOD_HAND, {"redeal": True}],
    ],
    ids=["new", "resend", "correction", "penalty-added", "penalty-removed", "redeal",
         "redeal-then-scored", "scored-then-redealt"],
)  # fmt: skip
def test_a_puts_answer_is_the_hand_as_a_get_reads_it_afterwards(api, alice, playing, saves):
    """The PUT answers from what the save holds, without reading the hand again: it must
    be exactly the document (and the ETag) a GET reads from the database."""
    client = api.as_(alice)
    for body in saves:
        answer = client.put(hand_url(hand=4), body, format="json")
        assert answer.status_code == 200, answer.json()
        read = api.as_().get(hand_url(hand=4))
        assert answer.json() == read.json()
        assert answer["ETag"] == read["ETag"]


def test_delete_removes_the_hand(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    assert client.delete(hand_url()).status_code == 204
    assert client.get(hand_url()).status_code == 404
    assert client.delete(hand_url()).status_code == 404
    assert not Hand.objects.exists()


def test_the_table_document_has_seats_hands_and_running_totals(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(hand=1), GOOD_HAND, format="json")
    client.put(hand_url(hand=2), GOOD_HAND, format="json")
    body = api.as_().get("/api/v1/events/kingston/rounds/1/tables/1/").json()
    assert [s["seat"] for s in body["seats"]] == [1, 2, 3, 4]
    assert [h["number"] for h in body["hands"]] == [1, 2]
    assert {t["seat"]: t["total"] for t in body["totals"]} == {1: 46, 2: 0, 3: 164, 4: 82}
    assert body["hands"][0]["totals"] == {"1": 23, "2": 0, "3": 82, "4": 41}
    assert (body["hands_scored"], body["hands_needed"]) == (2, 9)


BAD = [
    ("non-number points", {"scores": [{"seat": 1, "points": "ten"}]}, "scores", "whole number"),
    ("negative points", {"scores": [{"seat": 1, "points": -5}]}, "scores", "negative"),
    ("unknown card", {"scores": [{"seat": 3, "cards": "JK 1H"}]}, "scores", '"1H"'),
    (
        "two players out",
        {"scores": [{"seat": 1, "points": 0}]},
        "scores",
        "only the player who went out",
    ),
    ("seat not at the table", {"scores": [{"seat": 6, "points": 5}]}, "scores", "seat 6"),
    (
        "penalty for the winner",
        {"penalties": [{"seat": 2, "kind": "overcall"}]},
        "penalties",
        "went out",
    ),
    (
        "unknown penalty",
        {"penalties": [{"seat": 1, "kind": "cheating"}]},
        "penalties",
        "not a penalty",
    ),
    ("went_out not a seat", {"went_out": "two"}, "went_out", "seat number"),
    ("unknown field", {"winner": 2}, "winner", "not a field"),
    ("scores not a list", {"scores": "23 0 82 41"}, "scores", "list"),
]


@pytest.mark.parametrize(("case", "change", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_400_naming_the_field_and_writes_nothing(
    api, alice, playing, case, change, field, words
):
    hand = copy.deepcopy(GOOD_HAND)
    for key, value in change.items():
        if key == "scores" and isinstance(value, list):
            by_seat = {s["seat"]: s for s in hand["scores"]}
            for item in value:
                by_seat[item["seat"]] = item
            hand["scores"] = list(by_seat.values())
        else:
            hand[key] = value
    response = api.as_(alice).put(hand_url(), hand, format="json")
    assert response.status_code == 400, response.json()
    assert words in " ".join(response.json()[field]), response.json()
    assert not Hand.objects.exists()


def test_hand_ten_of_a_nine_hand_set_is_400_on_number(api, alice, playing):
    response = api.as_(alice).put(hand_url(hand=10), GOOD_HAND, format="json")
    assert response.status_code == 400
    assert "hand 10 does not exist" in response.json()["number"][0]


def test_a_body_that_is_not_an_object_is_400(api, alice, playing):
    response = api.as_(alice).put(hand_url(), [1, 2], format="json")
    assert response.status_code == 400
    assert "object" in response.json()["non_field_errors"][0]


def test_a_malformed_if_match_is_400(api, alice, playing):
    response = api.as_(alice).put(hand_url(), GOOD_HAND, format="json", HTTP_IF_MATCH="yesterday")
    assert response.status_code == 400 and "If-Match" in response.json()


def test_unknown_round_table_or_hand_is_404(api, alice, playing):
    client = api.as_(alice)
    assert client.get(hand_url(round_=9)).status_code == 404
    assert client.get(hand_url(table=9)).status_code == 404
    assert client.put(hand_url(table=9), GOOD_HAND, format="json").status_code == 404
    assert client.get(hand_url(hand=3)).status_code == 404
    assert client.get(hand_url(slug="nowhere")).status_code == 404


def test_a_correction_carries_its_reason_into_the_history(api, alice, playing):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    changed = copy.deepcopy(GOOD_HAND)
    changed["scores"][0]["points"] = 30
    changed["reason"] = "  seat 1 counted   the ace as 1  "
    response = client.put(hand_url(), changed, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.json()
    assert "reason" not in response.json()  # the hand's document, not the request's
    hand = Hand.objects.get()
    record = hand.history.latest()
    assert (record.version, record.history_user) == (2, alice)
    assert record.history_change_reason == "seat 1 counted the ace as 1"
    score = HandScore.history.filter(seat__position=1).latest()
    assert (score.card_points, score.history_change_reason) == (30, record.history_change_reason)


@pytest.mark.parametrize(
    ("reason", "words"),
    [("x" * 301, "300 characters (this one has 301)"), (42, "text"), (["why"], "text")],
    ids=["too long", "a number", "a list"],
)
def test_a_bad_reason_is_400_on_reason_and_writes_nothing(api, alice, playing, reason, words):
    client = api.as_(alice)
    client.put(hand_url(), GOOD_HAND, format="json")
    changed = copy.deepcopy(GOOD_HAND)
    changed["scores"][0]["points"] = 30
    changed["reason"] = reason
    response = client.put(hand_url(), changed, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 400, response.json()
    assert list(response.json()) == ["reason"]
    assert words in response.json()["reason"][0]
    assert Hand.objects.get().version == 1
    assert HandScore.objects.get(seat__position=1).card_points == 23
    assert Hand.history.count() == 1


def test_the_schema_documents_the_reason_of_a_directors_put(api):
    schema = api.as_().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    body = schema["components"]["schemas"]["DirectorHandInput"]["properties"]
    assert body["reason"]["maxLength"] == 300
    assert "history" in body["reason"]["description"]
    path = schema["paths"]["/api/v1/events/{slug}/rounds/{number}/tables/{table}/hands/{hand}/"]
    assert path["put"]["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/DirectorHandInput"
    }


@pytest.mark.parametrize("where", [dict(table=9), dict(round_=7)], ids=["table", "round"])
def test_a_put_for_a_table_that_does_not_exist_is_404_and_writes_nothing(
    api, alice, playing, where
):
    response = api.as_(alice).put(hand_url(**where), GOOD_HAND, format="json")
    assert response.status_code == 404
    assert response.json() == {"detail": "No such table."}
    assert not Hand.objects.exists()
