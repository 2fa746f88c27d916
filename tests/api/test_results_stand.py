"""Played results stand (README, "Standings" and "Circuits"): a finished event's results
change only through a round reopened with a reason, never by withdrawing a player
afterwards; once a series' final has begun its qualification is frozen, even against a
leg that finishes later; and every entrant of a seeded final who is not a qualifier (a
wildcard entered later, a reserve who replaced a qualifier) carries the series' carry
for other entrants, shown as such."""

from __future__ import annotations

from datetime import date

import pytest

from core import services
from tests.api import test_series_fair as fair
from tests.api.test_series_fair import SERIES, standings, two_table_leg
from tests.fixtures import hand_at, make_event, make_round, play
from tournaments.models import Entry, Event

# Real commits: the series standings are rebuilt when a leg's standings commit.
pytestmark = pytest.mark.django_db(transaction=True)

# Ten players and a circuit of four qualifiers, carrying 25 a series rank.
players, series = fair.players, fair.series


def seeded_final(client, root) -> Event:
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    final.directors.add(root)
    body = {"event": "final", "force": True, "reason": "seeded early"}
    seeded = client.post(SERIES + "final/", body, format="json")
    assert seeded.status_code == 200, seeded.json()
    return final


def begin(final: Event) -> None:
    """The final's first hand is recorded: it has begun."""
    round_ = make_round(
        final, table_sizes=(4,), entries=list(final.entries.filter(status=Entry.Status.ACTIVE))
    )
    services.record_hand(table=round_.tables.get(), number=1, entry=hand_at([1, 2, 3, 4]))


def test_a_finished_events_results_are_not_changed_by_withdrawing_a_player(api, root, players):
    """A withdrawal after a knockout finished used to move its winner to 2nd, with the
    event still finished and no reason asked."""
    event = make_event(slug="cup", name="Cup", format="knockout", rounds_planned=1)
    event.directors.add(root)
    two = make_round(event, table_sizes=(4,), entries=[
        Entry.objects.create(event=event, player=p, seed_number=i)
        for i, p in enumerate(players[:4], start=1)
    ])  # fmt: skip
    play(two.tables.get(), range(1, 10), range(1, 5))
    services.close_round(round=two)
    services.finish_event(event=event)
    client = api.as_(root)
    before = client.get("/api/v1/events/cup/standings/").json()["standings"]
    winner = Entry.objects.get(event=event, player=players[0])

    refused = client.patch(
        f"/api/v1/events/cup/entries/{winner.pk}/", {"status": "withdrawn"}, format="json"
    )

    assert refused.status_code == 409
    assert "reopen its last round (with a reason)" in refused.json()["status"][0]
    winner.refresh_from_db()
    assert winner.status == Entry.Status.ACTIVE
    assert client.get("/api/v1/events/cup/standings/").json()["standings"] == before


def test_a_leg_finished_after_the_final_began_counts_only_once_the_series_is_reopened(
    api, root, series, players
):
    """The final was forced while leg 2 was in play; leg 2 then finished and its results
    used to redraw the qualification under a final already being played."""
    two_table_leg(series, players, day=1)
    late = make_event(slug="leg-2", name="Leg 2", starts_on=date(2027, 1, 2), rounds_planned=1)
    late.directors.add(root)
    services.add_leg(series=series, event=late)
    reversed_cast = list(reversed(players[:8]))  # leg 1's last players win leg 2
    round_ = make_round(late, table_sizes=(4, 4), entries=[
        Entry.objects.create(event=late, player=p, seed_number=i)
        for i, p in enumerate(reversed_cast, start=1)
    ])  # fmt: skip
    client = api.as_(root)
    final = seeded_final(client, root)
    begin(final)
    frozen = {name: (row["rank"], row["points"]) for name, row in standings(client).items()}

    for table in round_.tables.all():
        play(table, range(1, 10), range(1, 5))
    assert client.post("/api/v1/events/leg-2/rounds/1/close/").status_code == 200
    assert client.post("/api/v1/events/leg-2/finish/").status_code == 200

    assert {n: (r["rank"], r["points"]) for n, r in standings(client).items()} == frozen
    assert client.get(SERIES).json()["final_out_of_step"] is False
    page = client.get("/series/circuit/").content.decode()
    assert "not counted: it finished after the final began" in page

    reopened = client.post(SERIES + "reopen/", {"reason": "count leg 2"}, format="json")
    assert reopened.status_code == 200
    counted = standings(client)
    assert all(len(row["results"]) == 2 for row in counted.values())
    assert "not counted" not in client.get("/series/circuit/").content.decode()


def test_a_reserve_and_a_late_wildcard_carry_the_series_carry_for_other_entrants(
    api, root, series, players
):
    """A reserve replacing a no-show qualifier, and a wildcard entered after seeding, used
    to carry 0 (the leader's carry), and the final then read as out of step for good."""
    two_table_leg(series, players, day=1)
    client = api.as_(root)
    final = seeded_final(client, root)
    entries = {e["name"]: e for e in client.get("/api/v1/events/final/entries/").json()["results"]}
    lowest = max(e["carried_points"] for e in entries.values())
    assert lowest > 0
    no_show = Entry.objects.get(event=final, player__name="P0")

    reserve = services.substitute_entry(entry=no_show, player_entry=None, name="Reserve", by=root)
    wildcard = services.register_entry(event=final, player=players[9], by=root)

    entries = {e["name"]: e for e in client.get("/api/v1/events/final/entries/").json()["results"]}
    assert entries["Reserve"]["carried_points"] == lowest
    assert entries["P9"]["carried_points"] == lowest
    assert (reserve.seed_number, wildcard.seed_number) == (no_show.seed_number, None)
    shown = client.get(SERIES).json()
    assert shown["final_out_of_step"] is False, shown["final_changes"]

    begin(final)
    refused = client.patch(SERIES, {"wildcard_carry": 30}, format="json")
    assert refused.status_code == 409 and "frozen" in refused.json()["wildcard_carry"][0]
    step = client.patch(SERIES, {"carry_over_step": 10}, format="json")
    assert step.status_code == 409
