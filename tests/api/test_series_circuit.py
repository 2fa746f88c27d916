"""A whole three-leg circuit and its grand final, through the API alone."""

from __future__ import annotations

import pytest

from tests.api.test_full_event import sheet_hand

# Real commits: seating, event standings and series standings run when services commit.
pytestmark = pytest.mark.django_db(transaction=True)

SCALE = [10, 8, 6, 5, 4, 3, 2, 1]


def play_event(client, slug: str, name: str, player_ids: list[int], *, finish: bool) -> list:
    """Create a one-round event, enter the players, play every hand, close the round (and
    finish the event); its final standings."""
    created = client.post(
        "/api/v1/events/",
        {"slug": slug, "name": name, "rounds_planned": 1, "starts_on": f"2026-0{len(slug)}-01"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    for player in player_ids:
        response = client.post(f"/api/v1/events/{slug}/entries/", {"player": player}, format="json")
        assert response.status_code == 201, response.json()
    return play_round(client, slug, finish=finish)


def play_round(client, slug: str, *, finish: bool, policy: str | None = None) -> list:
    body = {"seed": 7} | ({"policy": policy} if policy else {})
    assert client.post(f"/api/v1/events/{slug}/rounds/", body, format="json").status_code == 202
    round_ = client.get(f"/api/v1/events/{slug}/rounds/1/").json()
    assert client.post(f"/api/v1/events/{slug}/rounds/1/publish/").status_code == 200
    for table in round_["tables"]:
        seats = [s["seat"] for s in table["seats"]]
        url = f"/api/v1/events/{slug}/rounds/1/tables/{table['number']}/hands/"
        for number in range(1, 10):
            hand = sheet_hand(number, seats)
            # Table 2 scores a little more, so places differ across tables.
            hand["scores"] = [
                {"seat": s["seat"], "points": s["points"] + table["number"]} for s in hand["scores"]
            ]
            response = client.put(url + f"{number}/", hand, format="json")
            assert response.status_code == 200, response.json()
    closed = client.post(f"/api/v1/events/{slug}/rounds/1/close/", {}, format="json")
    assert closed.status_code == 200
    if finish:
        assert client.post(f"/api/v1/events/{slug}/finish/", {}, format="json").status_code == 200
    return client.get(f"/api/v1/events/{slug}/standings/").json()["standings"]


def test_a_three_leg_circuit_and_its_final(api, root):
    client = api.as_(root)
    created = client.post(
        "/api/v1/series/",
        {
            "slug": "super-2027",
            "name": "Super Kalooki Circuit",
            "season": "2027",
            "points_scale": SCALE,
            "best_of": 2,
            "qualifiers": 4,
            "prizes": [{"place": 1, "amount": 1000}, {"place": 2, "amount": 500}],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["final"] is None and created.json()["best_of"] == 2

    players = [
        client.post("/api/v1/players/", {"name": f"Player {i}"}, format="json").json()["id"]
        for i in range(12)
    ]
    fields = {
        "leg-a": players[0:8],
        "leg-bb": players[4:12],
        "leg-ccc": players[0:4] + players[8:12],
    }
    places: dict[int, list[tuple[str, int]]] = {}
    for slug, field in fields.items():
        standings = play_event(client, slug, slug.upper(), field, finish=slug != "leg-ccc")
        added = client.post("/api/v1/series/super-2027/events/", {"event": slug}, format="json")
        assert added.status_code == 201, added.json()
        for row in standings:
            places.setdefault(row["player"]["id"], []).append((slug, row["rank"]))

    legs = client.get("/api/v1/series/super-2027/events/").json()
    assert [leg["event"] for leg in legs] == ["leg-a", "leg-bb", "leg-ccc"]
    # The third leg was not finished, but its last planned round is closed: it scores.
    assert all(leg["scored"] for leg in legs)

    document = client.get("/api/v1/series/super-2027/standings/").json()
    assert document["version"] >= 1
    rows = document["standings"]
    assert [r["rank"] for r in rows] == list(range(1, 13))
    for row in rows:
        mine = places[row["player"]["id"]]
        assert [(r["event"], r["place"]) for r in row["results"]] == mine
        assert row["events_played"] == len(mine) == 2  # every player missed one leg
        points = sorted((SCALE[p - 1] if p <= len(SCALE) else 0 for _, p in mine), reverse=True)
        assert row["points"] == sum(points[:2])
        assert all(r["counted"] for r in row["results"])
        assert row["qualified"] == (row["rank"] <= 4)
    for better, worse in zip(rows, rows[1:], strict=False):
        assert (better["points"], -better["best_place"]) >= (worse["points"], -worse["best_place"])
    assert rows[0]["prize"]["amount"] == "1000.00"

    # best_of 1: a player's second leg is dropped, and the standings follow.
    patched = client.patch("/api/v1/series/super-2027/", {"best_of": 1}, format="json")
    assert patched.status_code == 200
    rows = client.get("/api/v1/series/super-2027/standings/").json()["standings"]
    assert all(sum(r["counted"] for r in row["results"]) == 1 for row in rows)
    assert all(row["points"] == max(r["points"] for r in row["results"]) for row in rows)

    # The grand final: the qualifiers entered in one action, seeded by series rank.
    qualifiers = [row["player"]["id"] for row in rows if row["qualified"]]
    assert len(qualifiers) == 4
    created = client.post(
        "/api/v1/events/",
        {"slug": "grand-final", "name": "Grand Final", "rounds_planned": 1},
        format="json",
    )
    assert created.status_code == 201
    # It waits for every leg to be finished by its director, the third one too.
    assert client.post("/api/v1/events/leg-ccc/finish/", {}, format="json").status_code == 200
    final = client.post("/api/v1/series/super-2027/final/", {"event": "grand-final"}, format="json")
    assert final.status_code == 200, final.json()
    assert final.json() == {"event": "grand-final", "entries": qualifiers, "seed_by": "series"}
    entries = client.get("/api/v1/events/grand-final/entries/").json()["results"]
    assert sorted((e["seed_number"], e["player"]) for e in entries) == list(
        enumerate(qualifiers, start=1)
    )
    assert client.get("/api/v1/series/super-2027/").json()["final"] == "grand-final"

    standings = play_round(client, "grand-final", finish=True, policy="spread")
    assert sorted(r["player"]["id"] for r in standings) == sorted(qualifiers)
    assert [r["rank"] for r in standings] == [1, 2, 3, 4]
    # The final is no leg: the series standings are unchanged by it.
    again = client.get("/api/v1/series/super-2027/standings/").json()["standings"]
    assert [r["player"]["id"] for r in again] == [r["player"]["id"] for r in rows]
