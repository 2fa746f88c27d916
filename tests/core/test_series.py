"""A series through its services: legs score once final, the standings are rebuilt by
their background job (stale-marked, caught up after a lost job), the final's entries
come from the qualifiers, and prizes are shared between players tied before the draw."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from core import background, derived, services
from core.errors import InvalidInput, StateConflict
from core.series import selectors as reads
from core.tasks import catch_up
from game.rules import HandEntry, SeatEntry
from scoring.models import DerivedState, SeriesStanding, Standing
from tests.fixtures import hand_at, make_event, make_round
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db(transaction=True)
SERIES = background.SERIES_STANDINGS


def leg(
    series,
    players: list[Player],
    *,
    day: int,
    finish: bool = True,
    no_show: Player | None = None,
    **fields,
) -> Event:
    """A one-round leg at one table where the players finish in the order given (and
    `no_show`, entered too, withdraws before round 1)."""
    event = make_event(slug=f"leg-{day}", starts_on=date(2027, 1, day), rounds_planned=1, **fields)
    if series is not None:
        services.add_leg(series=series, event=event)
    entries = [Entry.objects.create(event=event, player=p) for p in players]
    if no_show is not None:
        services.withdraw_entry(entry=Entry.objects.create(event=event, player=no_show))
    round_ = make_round(event, table_sizes=(len(players),), entries=entries)
    table = round_.tables.get()
    seats = list(range(1, len(players) + 1))
    with transaction.atomic():  # one standings rebuild for the nine hands (see `play`)
        for number in range(1, 10):
            services.record_hand(table=table, number=number, entry=hand_at(seats, went_out=1))
    services.close_round(round=round_)
    if finish:
        services.finish_event(event=event)
    return event


@pytest.fixture
def players(db):
    return [Player.objects.create(name=f"P{i}") for i in range(8)]


@pytest.fixture
def series(root):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 4, 3, 2],
              "best_of": 2, "qualifiers": 3},
        by=root,
    )  # fmt: skip


def table(series) -> list[tuple[str, int, int, bool]]:
    return [
        (s.player.name, s.rank, s.points, s.qualified)
        for s in SeriesStanding.objects.filter(series=series).select_related("player")
    ]


def test_a_leg_scores_once_its_last_round_closes_and_the_job_rebuilds(series, players):
    p = players
    leg(series, [p[0], p[1], p[2], p[3]], day=1)
    leg(series, [p[1], p[0], p[4], p[5]], day=2)
    leg(series, [p[2], p[1], p[0], p[6]], day=3)
    series.refresh_from_db()
    assert series.standings_version >= 3
    assert not derived.is_dirty(SERIES, series.pk)
    rows = {s.player.name: s for s in SeriesStanding.objects.filter(series=series)}
    # P0: 10, 6, 4 -> best two 16; P1: 6, 10, 6 -> 16; level on points and on their
    # counted places (1st and 2nd): the latest leg both played separates them (P1 2nd,
    # P0 3rd), not the draw.
    assert rows["P0"].points == rows["P1"].points == 16
    assert [r["counted"] for r in rows["P0"].results] == [True, True, False]
    assert (rows["P1"].rank, rows["P0"].rank) == (1, 2)
    assert (rows["P0"].decided_by, rows["P0"].latest_leg) == ("latest_leg", "leg-3")
    assert rows["P0"].tie_group != rows["P1"].tie_group
    assert rows["P2"].rank == 3 and rows["P2"].points == 14  # 4 then 10
    assert [q for *_, q in table(series)] == [True, True, True] + [False] * 4


def test_a_leg_still_in_play_does_not_score(series, players):
    event = make_event(slug="open", rounds_planned=2)
    services.add_leg(series=series, event=event)
    entries = [Entry.objects.create(event=event, player=p) for p in players[:4]]
    round_ = make_round(event, entries=entries)
    for number in range(1, 10):
        services.record_hand(table=round_.tables.get(), number=number, entry=hand_at([1, 2, 3, 4]))
    services.close_round(round=round_)  # round 1 of 2: not final
    assert Standing.objects.filter(event=event).exists()
    assert not SeriesStanding.objects.filter(series=series).exists()


def test_a_lost_job_is_caught_up(series, players, monkeypatch):
    monkeypatch.setitem(background.JOBS, SERIES, lambda series_id: None)  # the job is lost
    leg(series, players[:4], day=1)
    monkeypatch.undo()
    assert not SeriesStanding.objects.exists()
    assert derived.is_dirty(SERIES, series.pk)
    DerivedState.objects.update(dirty_since=timezone.now() - timedelta(seconds=30))
    assert catch_up() >= 1
    assert [name for name, *_ in table(series)] == ["P0", "P1", "P2", "P3"]
    assert not derived.is_dirty(SERIES, series.pk)


def test_an_event_is_a_leg_of_one_series_only(series, root, players):
    other = services.create_series(data={"slug": "other", "name": "Other"}, by=root)
    event = make_event(slug="shared")
    services.add_leg(series=series, event=event)
    with pytest.raises(StateConflict) as refused:
        services.add_leg(series=other, event=event)
    assert "another series" in refused.value.errors["event"][0]


def test_the_final_takes_the_qualifiers_seeded_by_series_rank(series, players):
    p = players
    leg(series, [p[0], p[1], p[2], p[3]], day=1)
    leg(series, [p[4], p[5], p[6], p[7]], day=2)
    final = make_event(slug="final", status=Event.Status.DRAFT)
    Entry.objects.create(event=final, player=p[7], seed_number=1)  # entered early
    order = services.create_final(series=series, event=final)
    ranked = [s.player_id for s in SeriesStanding.objects.filter(series=series, qualified=True)]
    assert order == ranked and len(order) == 3
    seeds = dict(Entry.objects.filter(event=final).values_list("player_id", "seed_number"))
    assert [seeds[pid] for pid in order] == [1, 2, 3]
    assert seeds[p[7].pk] is None  # not a qualifier: gives up the first seed
    series.refresh_from_db()
    assert series.final_id == final.pk
    with pytest.raises(StateConflict):  # a leg cannot be the final
        services.create_final(series=series, event=Event.objects.get(slug="leg-1"))


def test_a_final_that_started_or_has_no_qualifiers_is_refused(series, players):
    final = make_event(slug="final")
    with pytest.raises(StateConflict) as refused:
        services.create_final(series=series, event=final)
    assert "No player has qualified" in refused.value.errors["event"][0]
    make_round(final)
    with pytest.raises(StateConflict):
        services.create_final(series=series, event=final)


def test_bad_series_settings_are_refused_naming_the_field(root):
    for data, field in (
        ({"points_scale": [5, 10]}, "points_scale"),
        ({"prizes": [{"place": 0, "amount": 3}]}, "prizes"),
        ({"colour": "red"}, "colour"),
    ):
        with pytest.raises(InvalidInput) as refused:
            services.create_series(data={"slug": "s", "name": "S", **data}, by=root)
        assert field in refused.value.errors


def test_tied_players_share_the_series_prizes(root, players):
    series = services.create_series(
        data={"slug": "prize", "name": "Prize", "points_scale": [10, 6, 6, 0],
              "prizes": [{"place": 1, "amount": 100}, {"place": 2, "amount": 50},
                         {"place": 3, "amount": 25}], "prize_ties": "share"},
        by=root,
    )  # fmt: skip
    p = players
    # P1 2nd in leg 1, P2 2nd in leg 2: level on points (6) and places (a 2nd), never at
    # one leg together, so the countback cannot split them: the prizes are shared.
    leg(series, [p[0], p[1], p[3], p[4]], day=1)
    leg(series, [p[0], p[2], p[5], p[6]], day=2)
    series.refresh_from_db()
    by_name = {r.player.name: r for r in reads.series_standings(series)}
    assert by_name["P2"].decided_by == "draw" or by_name["P1"].decided_by == "draw"
    assert by_name["P0"].prize.amount == Decimal("100.00")
    assert by_name["P1"].prize.amount == by_name["P2"].prize.amount == Decimal("37.50")
    assert by_name["P1"].prize.shared_with == (by_name["P2"].rank,)
    services.update_series(series=series, data={"prize_ties": "draw"})
    series.refresh_from_db()
    amounts = {r.rank: r.prize.amount for r in reads.series_standings(series) if r.prize}
    assert amounts == {1: Decimal("100.00"), 2: Decimal("50.00"), 3: Decimal("25.00")}


def test_players_tied_before_the_draw_share_an_events_prizes(players):
    event = make_event(slug="tied", rounds_planned=1)
    services.update_event(
        event=event,
        data={"prizes": [{"place": 2, "amount": "90"}, {"place": 3, "amount": 30}],
              "prize_ties": "share"},
    )  # fmt: skip
    entries = [Entry.objects.create(event=event, player=p) for p in players[:4]]
    round_ = make_round(event, entries=entries)
    table_ = round_.tables.get()
    for number in range(1, 10):  # seats 2 and 3 score alike in every hand
        entry = HandEntry(went_out=1, scores=(SeatEntry(2, 10), SeatEntry(3, 10), SeatEntry(4, 30)))
        services.record_hand(table=table_, number=number, entry=entry)
    services.close_round(round=round_)
    event.refresh_from_db()
    standings = list(Standing.objects.filter(event=event).order_by("rank"))
    prizes = reads.event_prizes(event, standings)
    assert prizes[2].amount == prizes[3].amount == Decimal("60.00")
    assert prizes[2].shared_with == (3,)
    event.prize_ties = "draw"
    prizes = reads.event_prizes(event, standings)
    assert (prizes[2].amount, prizes[3].amount) == (Decimal("90.00"), Decimal("30.00"))


def test_the_final_can_start_from_a_carried_over_score(series, players):
    p = players
    leg(series, [p[0], p[1], p[2], p[3]], day=1)
    services.update_series(series=series, data={"carry_over_step": 25})
    final = make_event(slug="final", status=Event.Status.REGISTRATION, rounds_planned=1)
    order = services.create_final(series=series, event=final)
    carried = dict(Entry.objects.filter(event=final).values_list("player_id", "carried_points"))
    assert [carried[pid] for pid in order] == [0, 25, 50]
    # A hand where all three score alike: the carried-over score decides, and shows.
    entries = list(Entry.objects.filter(event=final).order_by("seed_number"))
    round_ = make_round(final, table_sizes=(3,), entries=entries)
    for number in range(1, 10):
        entry = HandEntry(went_out=1, scores=(SeatEntry(2, 10), SeatEntry(3, 10)))
        services.record_hand(table=round_.tables.get(), number=number, entry=entry)
    services.close_round(round=round_)
    points = dict(Standing.objects.filter(event=final).values_list("entry__player_id", "points"))
    assert [points[pid] for pid in order] == [0, 90 + 25, 90 + 50]


def test_a_carried_over_score_needs_a_final_ranked_by_total_points(series, players):
    leg(series, players[:4], day=1)
    services.update_series(series=series, data={"carry_over_step": 10})
    final = make_event(slug="final", format=Event.Format.TABLE_POINTS)
    with pytest.raises(StateConflict) as refused:
        services.create_final(series=series, event=final)
    assert 'format "total"' in refused.value.errors["event"][0]
