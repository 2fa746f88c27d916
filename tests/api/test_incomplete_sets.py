"""Incomplete sets through the REST API (README, "Standings"): a withdrawn player's
partial set, a leave point stated or corrected, a table of three that loses a player,
a forced close, reopening a round and finishing the event, as an integrator meets
them. Standings are rebuilt after each committed write, as a worker would."""

from __future__ import annotations

import pytest

from core.stored_texts.words import reason_words
from tests.api.conftest import hand_url
from tests.fixtures import make_entries, make_round
from tournaments.models import Entry, Round, Seat

pytestmark = pytest.mark.django_db

EVENT = "/api/v1/events/kingston/"


def body(seats, went_out=None, base=10, **extra) -> dict:
    """A hand's PUT body for exactly these seats: `went_out` (or the first) scores 0."""
    out = seats[0] if went_out is None else went_out
    scores = [{"seat": s, "points": 0 if s == out else base + s} for s in seats]
    return {"went_out": out, "scores": scores, **extra}


def sender(client, capture):
    def send(method: str, url: str, data=None):
        with capture(execute=True):
            return getattr(client, method)(url, data, format="json")

    return send


@pytest.fixture
def client(api, alice, django_capture_on_commit_callbacks):
    """Alice's client; each request's committed work (the standings) runs at once."""
    return sender(api.as_(alice), django_capture_on_commit_callbacks)


def entry_at(round_number: int, table: int, position: int) -> Entry:
    return Seat.objects.get(
        round__number=round_number, table__number=table, position=position
    ).entry


# --- A withdrawn player's partial set ranks after every complete set -------------------


def test_a_withdrawn_players_partial_set_ranks_after_the_complete_ones(client, event):
    entries = make_entries(event, 4)
    make_round(event, entries=entries)
    for number in range(1, 10):  # seat 2 goes out in every hand of round 1
        hand = body([1, 2, 3, 4], went_out=2)
        assert client("put", hand_url(hand=number), hand).status_code == 200
    assert client("post", EVENT + "rounds/1/close/", {}).status_code == 200
    make_round(event, number=2, entries=entries)
    leaver = entries[1]
    assert client("put", hand_url(round_=2, hand=1), body([1, 2, 3, 4], went_out=3, base=3))
    withdrawn = client("patch", EVENT + f"entries/{leaver.pk}/", {"status": "withdrawn"})
    assert withdrawn.status_code == 200
    assert withdrawn.json()["left_after_hand"] == 1  # the last hand entered at the table
    for number in range(2, 10):
        response = client("put", hand_url(round_=2, hand=number), body([1, 3, 4]))
        assert response.status_code == 200, response.json()
    standings = client("get", EVENT + "standings/").json()["standings"]
    last = standings[-1]
    assert (last["player"]["id"], last["status"]) == (leaver.player_id, "withdrawn")
    assert (last["sets_played"], last["sets_incomplete"]) == (2, 1)
    assert last["incomplete"] == [
        {
            "round": 2,
            "table": 1,
            "played": 1,
            "hands": 9,
            "why": "withdrew",
            "text": "round 2, table 1: 1 of 9 hands (withdrew)",
        }
    ]
    # Five points in all, the fewest by far: it used to rank first.
    assert last["points"] == 5 < min(row["points"] for row in standings[:-1])


def test_a_knockout_never_lets_a_withdrawn_player_advance(client, event):
    event.format, event.rounds_planned = "knockout", 2
    event.save()
    make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    leaver = entry_at(1, 1, 2)
    client("put", hand_url(hand=1), body([1, 2, 3, 4], went_out=2))  # 0 after hand 1
    client("patch", EVENT + f"entries/{leaver.pk}/", {"status": "withdrawn"})
    for number in range(2, 10):
        client("put", hand_url(hand=number), body([1, 3, 4]))
    for table in (2, 3):
        for number in range(1, 10):
            client("put", hand_url(table=table, hand=number), body([1, 2, 3, 4]))
    assert client("post", EVENT + "rounds/1/close/", {}).status_code == 200
    standings = client("get", EVENT + "standings/").json()["standings"]
    assert [r["status"] for r in standings].count("active") == 3
    started = client("post", EVENT + "rounds/", {})  # it answered 400 "1 players advanced"
    assert started.status_code == 202, started.json()
    seated = client("get", EVENT + "rounds/2/").json()["tables"][0]["seats"]
    assert leaver.player_id not in {s["player"] for s in seated} and len(seated) == 3


# --- The leave point: stated, corrected, or refused naming the field -------------------


def test_a_leave_point_stated_before_the_sheet_is_typed(client, playing):
    leaver = entry_at(1, 1, 2)
    url = EVENT + f"entries/{leaver.pk}/"
    response = client("patch", url, {"status": "withdrawn", "left_after_hand": 4})
    assert response.status_code == 200 and response.json()["left_after_hand"] == 4
    for number in range(1, 5):  # it answered 400 "seat 2 is not at this table"
        assert client("put", hand_url(hand=number), body([1, 2, 3, 4])).status_code == 200
    refused = client("put", hand_url(hand=5), body([1, 2, 3, 4]))
    assert refused.status_code == 400
    assert refused.json() == {"scores": ["seat 2 is not at this table (seats 1, 3, 4)"]}
    assert client("put", hand_url(hand=5), body([1, 3, 4])).status_code == 200
    # The director corrects the leave point: hand 5 was recorded without the player.
    moved = client("patch", url, {"left_after_hand": 6})
    assert moved.status_code == 409
    assert "Hand 5 at table 1 was recorded without" in moved.json()["left_after_hand"][0]
    earlier = client("patch", url, {"left_after_hand": 3})
    assert earlier.status_code == 409
    assert "has a score in hand 4 at table 1" in earlier.json()["left_after_hand"][0]
    assert client("get", url).json()["left_after_hand"] == 4


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "status"),
        ({"status": "active", "left_after_hand": 3}, "left_after_hand"),
        ({"status": "withdrawn", "left_after_hand": -1}, "left_after_hand"),
        ({"status": "withdrawn", "left_after_hand": 10}, "left_after_hand"),
        ({"left_after_hand": "three"}, "left_after_hand"),
    ],
)
def test_a_bad_leave_point_is_400_naming_the_field(client, playing, data, field):
    leaver = entry_at(1, 1, 2)
    response = client("patch", EVENT + f"entries/{leaver.pk}/", data)
    assert response.status_code == 400 and field in response.json(), response.json()
    assert Entry.objects.get(pk=leaver.pk).status == "active"


# --- A table of three that loses a player is closed with the reason --------------------


def test_a_table_of_three_that_loses_a_player_is_closed_with_the_reason(client, event):
    make_round(event, table_sizes=(3,), entries=make_entries(event, 3))
    for number in (1, 2):
        client("put", hand_url(hand=number), body([1, 2, 3]))
    leaver = entry_at(1, 1, 3)
    client("patch", EVENT + f"entries/{leaver.pk}/", {"status": "withdrawn"})
    refused = client("put", hand_url(hand=3), body([1, 2]))
    assert refused.status_code == 409
    assert refused.json()["number"][0].startswith(
        "Table 1 cannot play hand 3: only 2 players are left"
    )
    table = client("get", EVENT + "rounds/1/tables/1/").json()
    assert (table["state"], table["closed_after_hand"]) == ("closed", 2)
    assert table["why"].startswith("Closed after hand 2: fewer than three players were left")
    # Nothing more to enter: the round closes without force.
    assert client("post", EVENT + "rounds/1/close/", {}).json()["forced_close"] is False


# --- A forced close: the hands unplayed adjusted, reopenable, not the end -------------


def test_a_forced_close_adjusts_the_hands_unplayed_and_reopening_undoes_it(client, event):
    event.rounds_planned = 1
    event.save()
    make_round(event, table_sizes=(4, 4), entries=make_entries(event, 8))
    for number in range(1, 10):  # table 1: seat 1 out every hand, the others 12, 13, 14
        client("put", hand_url(table=1, hand=number), body([1, 2, 3, 4]))
    client("put", hand_url(table=2, hand=1), body([1, 2, 3, 4]))  # seat 1: 0 after 1 hand
    closed = client("post", EVENT + "rounds/1/close/", {"force": True})
    assert closed.status_code == 200 and closed.json()["forced_close"] is True
    assert client("get", EVENT).json()["status"] == "running"  # it used to finish itself
    # Hands 2-9 at table 2 are scored at the field's mean of each: (0+12+13+14)/4 = 9.75,
    # so 10 each; table 2's sets are complete, and rank by their adjusted totals.
    table = client("get", EVENT + "rounds/1/tables/2/").json()
    assert table["state"] == "forced" and "hands 2-9 missing" in table["why"]
    assert "scored from the field" in table["why"]
    assert len(table["adjusted"]) == 8 * 4
    assert {(a["score"], a["at_fault"], a["rule"]) for a in table["adjusted"]} == {
        (10, False, "field_mean")
    }
    assert table["adjusted"][0]["text"] == "hand 2 adjusted: 10, the field's mean"
    assert [t["total"] for t in table["totals"]] == [80, 92, 93, 94]
    standings = client("get", EVENT + "standings/").json()
    assert standings["final"] is False
    by_player = {r["player"]["id"]: r for r in standings["standings"]}
    lucky = by_player[entry_at(1, 2, 1).player_id]
    assert (lucky["rank"], lucky["points"], lucky["sets_incomplete"]) == (2, 80, 0)
    assert (lucky["adjusted_hands"], lucky["at_fault_hands"]) == (8, 0)
    assert lucky["adjusted"][0] == {
        "round": 1,
        "table": 2,
        "hand": 2,
        "score": 10,
        "at_fault": False,
        "rule": "field_mean",
        "text": "round 1, table 2: hand 2 adjusted: 10, the field's mean",
    }
    assert by_player[entry_at(1, 1, 2).player_id]["adjusted_hands"] == 0
    # Reopened (recorded): nothing is adjusted while the round is in play again.
    reopened = client("post", EVENT + "rounds/1/reopen/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "published"
    kept = Round.history.filter(number=1).values_list("history_change_reason", flat=True)
    assert "reopened" in {reason_words(reason) for reason in kept}
    assert client("get", EVENT + "rounds/1/tables/2/").json()["adjusted"] == []
    live = client("get", EVENT + "standings/").json()["standings"]
    assert all(r["adjusted_hands"] == 0 for r in live)
    assert client("post", EVENT + "finish/").status_code == 409
    for number in range(2, 10):
        client("put", hand_url(table=2, hand=number), body([1, 2, 3, 4]))
    assert client("post", EVENT + "rounds/1/close/", {}).json()["forced_close"] is False
    assert client("get", EVENT + "rounds/1/tables/2/").json()["adjusted"] == []
    finished = client("post", EVENT + "finish/")
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    assert client("get", EVENT + "standings/").json()["final"] is True


def test_reopening_is_for_directors_and_the_latest_closed_round_only(api, client, playing):
    assert client("post", EVENT + "rounds/1/reopen/").status_code == 409  # in play
    assert api.as_().post(EVENT + "rounds/1/reopen/").status_code in (401, 403)
    assert api.as_().post(EVENT + "finish/").status_code in (401, 403)
