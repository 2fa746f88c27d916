"""A whole event run through the API alone, as an integrator would."""

from __future__ import annotations

import pytest

# Real commits: seating and standings run (eagerly) when the service commits.
pytestmark = pytest.mark.django_db(transaction=True)


def sheet_hand(number: int, seats: list[int]) -> dict:
    """Seat order rotates who goes out; the others hold a few points each."""
    out = seats[(number - 1) % len(seats)]
    return {
        "went_out": out,
        "scores": [{"seat": s, "points": 5 * s + number} for s in seats if s != out],
    }


def test_an_event_from_creation_to_standings(api, root):
    client = api.as_(root)
    created = client.post(
        "/api/v1/events/",
        {"slug": "mobay", "name": "Montego Bay Open", "rounds_planned": 1, "format": "total"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    players = [
        client.post(
            "/api/v1/players/", {"name": f"Player {i}", "country": "JM"}, format="json"
        ).json()
        for i in range(8)
    ]
    for player in players:
        response = client.post(
            "/api/v1/events/mobay/entries/", {"player": player["id"]}, format="json"
        )
        assert response.status_code == 201, response.json()
    assert client.get("/api/v1/events/mobay/entries/").json()["count"] == 8

    started = client.post("/api/v1/events/mobay/rounds/", {"seed": 42}, format="json")
    assert started.status_code == 202
    assert started.json() == {"number": 1, "status": "seating"}
    round_ = client.get("/api/v1/events/mobay/rounds/1/").json()
    assert round_["status"] == "draft" and round_["policy"] == "random" and round_["seed"] == 42
    assert [len(t["seats"]) for t in round_["tables"]] == [4, 4]
    assert round_["quality"]["repeat_meetings"] == 0
    assert client.post("/api/v1/events/mobay/rounds/1/publish/").status_code == 200

    expected: dict[int, int] = {}
    for table in round_["tables"]:
        t = table["number"]
        seats = [s["seat"] for s in table["seats"]]
        player_of = {s["seat"]: s["player"] for s in table["seats"]}
        url = f"/api/v1/events/mobay/rounds/1/tables/{t}/hands/"
        assert client.put(url + "1/", {"redeal": True}, format="json").status_code == 200
        for number in range(1, 10):
            hand = sheet_hand(number, seats)
            if number == 3:
                hand["down_and_out"] = True
            if number == 5:
                loser = next(s for s in seats if s != hand["went_out"])
                hand["penalties"] = [{"seat": loser, "kind": "overcall", "extra_calls": 1}]
            response = client.put(url + f"{number}/", hand, format="json")
            assert response.status_code == 200, response.json()
            for result in response.json()["results"]:
                player = player_of[result["seat"]]
                expected[player] = expected.get(player, 0) + result["score"]
                # The score follows API.md: card points, doubled when down and out, plus penalties.
                factor = 2 if number == 3 and result["seat"] != hand["went_out"] else 1
                assert result["score"] == result["card_points"] * factor + result["penalty_points"]

    closed = client.post("/api/v1/events/mobay/rounds/1/close/", {}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    # Closing the last round does not end the event: the director finishes it.
    assert client.get("/api/v1/events/mobay/standings/").json()["final"] is False
    finished = client.post("/api/v1/events/mobay/finish/", {}, format="json")
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    standings = client.get("/api/v1/events/mobay/standings/").json()
    assert standings["round"] == 1 and standings["final"] is True and standings["version"] >= 1
    rows = standings["standings"]
    assert [r["rank"] for r in rows] == list(range(1, 9))
    assert {r["player"]["id"]: r["points"] for r in rows} == expected
    assert [r["points"] for r in rows] == sorted(r["points"] for r in rows)
    assert all(r["sets_played"] == 1 and r["status"] == "active" for r in rows)
    assert sum(r["hands_won"] for r in rows) == 18
