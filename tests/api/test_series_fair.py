"""Circuits that stay fair, through the API (README, "Circuits"): a leg's draw hands
out no series points, series ties go to a published countback, level players carry the
same into the final, and the final stays in step with its series."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.test import Client

from core import services
from tests.core.ratings_world import closed_round
from tests.fixtures import hand_at, make_event, make_round
from tournaments.models import Entry, Event, Player

# Real commits: the series standings are rebuilt when a leg's standings commit.
pytestmark = pytest.mark.django_db(transaction=True)

SERIES = "/api/v1/series/circuit/"


@pytest.fixture
def players(db) -> list[Player]:
    return [Player.objects.create(name=f"P{i}") for i in range(10)]


@pytest.fixture
def series(root):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "qualifiers": 4, "carry_over_step": 25},
        by=root,
    )


def two_table_leg(series, players: list[Player], *, day: int, finish: bool = True) -> Event:
    """A one-round leg at two tables of four that score alike hand for hand (the first
    seated goes out every hand): players[0] and players[4] level on everything but the
    draw, players[1] and players[5], and so on."""
    event = make_event(slug=f"leg-{day}", starts_on=date(2027, 1, day), rounds_planned=1)
    services.add_leg(series=series, event=event)
    closed_round(event, [players[0:4], players[4:8]])
    if finish:
        services.finish_event(event=event)
    return event


def standings(client) -> dict[str, dict]:
    rows = client.get(SERIES + "standings/").json()["standings"]
    return {row["player"]["name"]: row for row in rows}


def test_players_level_but_for_a_legs_draw_share_its_series_points(api, root, series, players):
    """The leg's draw used to give 100 and 80 to two players level on everything else."""
    two_table_leg(series, players, day=1)
    rows = standings(api.as_())
    # Scale 100, 80, 65, 55, 50, 45, 40, 36: 1st-2nd shared 90, 3rd-4th 60, 5th-6th 47.5.
    assert [rows[f"P{i}"]["points"] for i in (0, 4, 1, 5, 2, 6, 3, 7)] == [
        90, 90, 60, 60, 47.5, 47.5, 38, 38,
    ]  # fmt: skip
    result = rows["P2"]["results"][0]
    assert (result["place"], result["points"], result["shared"]) == (5, 47.5, True)
    second = min((rows["P0"], rows["P4"]), key=lambda r: -r["rank"])
    assert second["decided_by"] == "draw"
    assert second["tie_note"].endswith("below by the series' draw")


def test_the_countback_looks_at_results_then_the_latest_leg_before_the_draw(api, root, players):
    """P1 and P5 are level on points (6 + 6) and on their counted places (a 2nd and a
    3rd each): the latest leg both played separates them (P5 2nd there). P0 and P8 are
    level on everything (a 1st each, never at one leg together): the draw."""
    series = services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 6, 0]}, by=root
    )
    p = players
    for day, table in ((1, [p[0], p[1], p[5], p[3]]), (2, [p[8], p[5], p[1], p[9]])):
        event = make_event(
            slug=f"leg-{day}", name=f"Leg {day}", starts_on=date(2027, 1, day), rounds_planned=1
        )
        services.add_leg(series=series, event=event)
        closed_round(event, [table])
        services.finish_event(event=event)
    rows = standings(api.as_())
    assert rows["P5"]["points"] == rows["P1"]["points"] == 12
    assert rows["P5"]["rank"] < rows["P1"]["rank"]
    assert rows["P1"]["decided_by"] == "latest_leg"
    assert rows["P1"]["tie_note"] == (
        "level on points with P5: below on the latest leg both played (Leg 2)"
    )
    later = max((rows["P0"], rows["P8"]), key=lambda r: r["rank"])
    assert later["decided_by"] == "draw"


def test_level_players_carry_the_same_and_a_wildcard_the_lowest_qualifiers(
    api, root, series, players
):
    """Three players level on points used to carry 0, 25 and 50, split by legs not
    counted and the draw; an entrant who was no qualifier carried 0, like the leader."""
    two_table_leg(series, players, day=1)
    two_table_leg(series, players, day=2)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    Entry.objects.create(event=final, player=players[9])  # a wildcard
    client = api.as_(root)
    seeded = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert seeded.status_code == 200, seeded.json()
    listed = client.get("/api/v1/events/final/entries/").json()["results"]
    entries = {e["name"]: e for e in listed}
    carried = {name: entries[name]["carried_points"] for name in ("P0", "P4", "P1", "P5")}
    # P0 and P4 level (carry rank 1's 0), P1 and P5 level (rank 3's: 2 * 25).
    assert carried == {"P0": 0, "P4": 0, "P1": 50, "P5": 50}
    assert entries["P9"]["carried_points"] == 50  # the lowest qualifier's carry
    page = client.get("/events/final/").content.decode()
    assert "Carries into the final" in page and "not a qualifier" in page


def test_the_final_waits_for_the_legs_unless_forced_with_a_reason(api, root, series, players):
    two_table_leg(series, players, day=1)
    two_table_leg(series, players, day=2)
    in_play = make_event(slug="leg-3", starts_on=date(2027, 1, 3), rounds_planned=1)
    services.add_leg(series=series, event=in_play)
    make_round(in_play)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    client = api.as_(root)
    refused = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["legs"][0].startswith(f"Not every leg is finished: {in_play.name}.")
    no_reason = client.post(SERIES + "final/", {"event": "final", "force": True}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    assert not Entry.objects.filter(event=final).exists()
    forced = client.post(
        SERIES + "final/",
        {"event": "final", "force": True, "reason": "the venue of leg 3 flooded"},
        format="json",
    )
    assert forced.status_code == 200
    assert client.get(SERIES).json()["final_forced_reason"] == "the venue of leg 3 flooded"
    page = client.get("/series/circuit/").content.decode()
    assert "seeded before every leg had finished: the venue of leg 3 flooded" in page


def test_a_leg_counts_as_finished_only_once_its_director_finished_it(api, root, series, players):
    """A leg whose last planned round is closed scores in the series' standings, but
    its director may still reopen the round or add one: the final waits for it."""
    two_table_leg(series, players, day=1)
    closed = two_table_leg(series, players, day=2, finish=False)  # its last round closed
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    client = api.as_(root)
    assert rows_scored(client) == 2  # it scores already
    refused = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["legs"][0].startswith(f"Not every leg is finished: {closed.name}.")
    assert not Entry.objects.filter(event=final).exists()
    # The organiser's page says so too, and offers to force it with a reason.
    organiser = Client()
    organiser.force_login(root)
    page = organiser.get("/organiser/circuit/").content.decode()
    assert f"Not every leg is finished: {closed.name}." in page and 'name="force"' in page
    services.finish_event(event=closed)
    page = organiser.get("/organiser/circuit/").content.decode()
    assert "Not every leg is finished" not in page
    seeded = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert seeded.status_code == 200, seeded.json()
    assert client.get(SERIES).json()["final_forced_reason"] == ""


def rows_scored(client) -> int:
    """How many legs the series' standings count for their leader."""
    return len(
        [r for r in client.get(SERIES + "standings/").json()["standings"][0]["results"] if r]
    )


def test_a_final_out_of_step_says_what_would_change_and_is_reseeded(api, root, series, players):
    two_table_leg(series, players, day=1)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    client = api.as_(root)
    assert client.post(SERIES + "final/", {"event": "final"}, format="json").status_code == 200
    assert client.get(SERIES).json()["final_out_of_step"] is False
    assert client.patch(SERIES, {"qualifiers": 2}, format="json").status_code == 200
    shown = client.get(SERIES).json()
    assert shown["final_out_of_step"] is True
    leaving = [
        c for c in shown["final_changes"] if c.endswith("would leave (no longer a qualifier)")
    ]
    assert len(leaving) == 2
    organiser = Client()
    organiser.force_login(root)
    page = organiser.get("/organiser/circuit/").content.decode()
    assert "The final is out of step with the series." in page
    assert page.count("would leave (no longer a qualifier)") == 2
    again = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert again.status_code == 200 and len(again.json()["entries"]) == 2
    assert Entry.objects.filter(event=final).count() == 2  # the two others left
    assert client.get(SERIES).json()["final_out_of_step"] is False
    # An entrant who is not a qualifier, and the series' carry for them set: the final is
    # out of step until seeded again.
    services.register_entry(event=final, player=players[9])
    assert client.patch(SERIES, {"wildcard_carry": 30}, format="json").status_code == 200
    shown = client.get(SERIES).json()
    assert shown["final_changes"] == ["P9 (not a qualifier) would carry 30 (now 0)"]
    assert client.post(SERIES + "final/", {"event": "final"}, format="json").status_code == 200
    assert Entry.objects.get(event=final, player=players[9]).carried_points == 30
    assert client.get(SERIES).json()["final_out_of_step"] is False
    # A round seated meanwhile, nothing played: seeding again discards it.
    make_round(final, table_sizes=(3,))
    assert client.patch(SERIES, {"qualifiers": 3}, format="json").status_code == 200
    reseeded = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert reseeded.status_code == 200 and len(reseeded.json()["entries"]) == 3
    assert not final.rounds.exists()
    # Once its first hand is recorded, the final has begun: no more seeding, and the
    # series' qualification is frozen.
    round_ = make_round(final, table_sizes=(4,), entries=list(final.entries.all()))
    services.record_hand(table=round_.tables.get(), number=1, entry=hand_at([1, 2, 3, 4]))
    refused = client.patch(SERIES, {"qualifiers": 4}, format="json")
    assert refused.status_code == 409 and "frozen" in refused.json()["qualifiers"][0]
    late = client.post(SERIES + "final/", {"event": "final"}, format="json")
    assert late.status_code == 409
    assert late.json()["event"][0].endswith("so it can no longer be seeded again.")


def test_a_reopened_leg_counts_as_it_stood_until_it_is_final_again(api, root, series, players):
    """Reopening a finished leg's last round used to drop the leg from the series at once:
    players fell out of qualification while a correction was being made."""
    leg = two_table_leg(series, players, day=1)
    before = {name: row["points"] for name, row in standings(api.as_()).items()}
    services.reopen_round(round=leg.rounds.get(), reason="a score to check", by=root)
    rows = standings(api.as_())
    assert {name: row["points"] for name, row in rows.items()} == before
    assert all(r["results"][0]["provisional"] for r in rows.values())
    page = api.as_().get("/series/circuit/").content.decode()
    assert "provisional" in page
    services.close_round(round=leg.rounds.get(), by=root)
    services.finish_event(event=leg)
    assert not any(r["results"][0]["provisional"] for r in standings(api.as_()).values())


def test_once_the_final_has_begun_the_qualification_is_frozen_until_reopened(
    api, root, series, players
):
    leg = two_table_leg(series, players, day=1)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    client = api.as_(root)
    assert client.post(SERIES + "final/", {"event": "final"}, format="json").status_code == 200
    round_ = make_round(final, table_sizes=(4,), entries=list(final.entries.all()))
    services.record_hand(table=round_.tables.get(), number=1, entry=hand_at([1, 2, 3, 4]))
    refused = client.patch(SERIES, {"qualifiers": 2}, format="json")
    assert refused.status_code == 409
    assert "the series' qualification is frozen" in refused.json()["qualifiers"][0]
    reopen_leg = client.post(
        f"/api/v1/events/{leg.slug}/rounds/1/reopen/", {"reason": "a typo"}, format="json"
    )
    assert reopen_leg.status_code == 409 and "frozen" in reopen_leg.json()["round"][0]
    assert client.post(SERIES + "reopen/", {"reason": ""}, format="json").status_code == 400
    reopened = client.post(
        SERIES + "reopen/", {"reason": "leg 1's sheet had a typo"}, format="json"
    )
    assert reopened.status_code == 200
    assert reopened.json()["reopened_reason"] == "leg 1's sheet had a typo"
    again = client.post(
        f"/api/v1/events/{leg.slug}/rounds/1/reopen/", {"reason": "a typo"}, format="json"
    )
    assert again.status_code == 200
    page = client.get("/series/circuit/").content.decode()
    assert "after its final began: leg 1&#x27;s sheet had a typo" in page


def test_the_organisers_page_seeds_a_final_early_only_with_a_reason(root, series, players):
    two_table_leg(series, players, day=1)
    in_play = make_event(slug="leg-2", starts_on=date(2027, 1, 2), rounds_planned=1)
    services.add_leg(series=series, event=in_play)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    organiser = Client()
    organiser.force_login(root)
    page = organiser.get("/organiser/circuit/").content.decode()
    assert f"Not every leg is finished: {in_play.name}." in page
    refused = organiser.post("/organiser/circuit/final/", {"event": "final"}, follow=True)
    assert f"Not every leg is finished: {in_play.name}." in refused.content.decode()
    assert not Entry.objects.filter(event=final).exists()
    forced = organiser.post(
        "/organiser/circuit/final/",
        {"event": "final", "force": "on", "reason": "leg 2 is postponed to next season"},
        follow=True,
    )
    assert "4 qualifiers are entered in Final" in forced.content.decode()
    series.refresh_from_db()
    assert series.final_forced_reason == "leg 2 is postponed to next season"


def test_the_series_csv_and_pdf_say_which_places_were_shared(api, series, players):
    two_table_leg(series, players, day=1)
    text = api.as_().get("/series/circuit/standings.csv").content.decode("utf-8-sig")
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(text))}
    assert rows["P2"]["points"] == "47.5"
    assert rows["P2"]["results"].endswith("place 5, 47.5 points (place shared)")
    assert any(row["tie_note"].endswith("below by the series' draw") for row in rows.values())
    pdf = api.as_().get("/series/circuit/standings.pdf").content
    assert pdf.startswith(b"%PDF")


def test_the_series_page_names_its_legs_and_calls_its_prizes_provisional_until_the_end(
    api, root, players
):
    series = services.create_series(
        data={"slug": "circuit", "name": "Circuit", "prizes": [{"place": 1, "amount": 100}]},
        by=root,
    )
    two_table_leg(series, players, day=1)
    later = make_event(slug="leg-2", name="Leg Two", starts_on=date(2027, 1, 2))
    services.add_leg(series=series, event=later)
    page = api.as_().get("/series/circuit/").content.decode()
    assert '<th scope="col" class="num leg-name">Leg Two</th>' in page
    assert "Provisional: the prizes go by the final series rank" in page
    services.remove_leg(series=series, event=later)
    page = api.as_().get("/series/circuit/").content.decode()
    assert "Provisional: the prizes go by the final series rank" not in page
