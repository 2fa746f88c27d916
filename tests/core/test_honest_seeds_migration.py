"""The migration that gave existing events and series honest draw seeds (tournaments
0008, `honest_seeds`). Before it every seed was a number, 0 unless someone set it, so
anyone could compute the draw before play. It promises:

- an event whose seed has not decided a tie gets a fresh secret seed (256 random bits);
- an event where two players of one round were level on everything but the draw keeps
  its seed: its ties stand as they were drawn; so does a knockout with any standings
  (its cuts may have used the draw without leaving it in the rows);
- a series without standings gets a fresh seed, one with standings keeps its own; a
  series whose final was seeded before the migration is noted as seeded then.

Run here on rows made as they were before it, with the migration's own models."""

from __future__ import annotations

import importlib
import re

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from scoring.models import SeriesStanding, Standing
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event, Player, Round, Series

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("tournaments.migrations.0008_draw_commitment")
SECRET = re.compile(r"[0-9a-f]{64}")


def run_migration() -> None:
    """`honest_seeds` with the apps registry as the migration sees it."""
    state = MigrationLoader(connection).project_state(("tournaments", "0008_draw_commitment"))
    MIGRATION.honest_seeds(state.apps, None)


def old_event(slug: str, seed: str = "0", **fields) -> Event:
    """An event as made before: its seed a number (0 unless someone set it)."""
    event = make_event(slug=slug, **fields)
    Event.objects.filter(pk=event.pk).update(draw_seed=seed)
    return event


def standings(event: Event, *rounds: list[list]) -> None:
    """Standings rows, one list of tiebreaks per entry, for rounds 1, 2, ... (closed)."""
    entries = make_entries(event, max(len(rows) for rows in rounds))
    for number, rows in enumerate(rounds, start=1):
        round_ = make_round(
            event, number=number, table_sizes=(len(rows),), entries=entries[: len(rows)]
        )
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
        for rank, (entry, tiebreaks) in enumerate(zip(entries, rows, strict=False), start=1):
            Standing.objects.create(
                event=event, round=round_, entry=entry, rank=rank, tiebreaks=tiebreaks
            )


def keys(points: int, hands_won: int, draw: str) -> list:
    return [["points", points], ["hands_won", hands_won], ["draw", draw]]


def seed_of(model, pk: int) -> str:
    return model.objects.values_list("draw_seed", flat=True).get(pk=pk)


def test_an_event_whose_seed_decided_no_tie_gets_a_fresh_secret_seed():
    unplayed = old_event("unplayed")
    distinct = old_event("distinct", seed="7")
    standings(distinct, [keys(120, 2, "aa"), keys(130, 2, "bb"), keys(130, 1, "cc")])
    # Level on everything but the draw, but in different rounds: no tie was drawn.
    across = old_event("across", seed="7")
    standings(across, [keys(120, 2, "aa"), keys(130, 1, "bb")], [keys(130, 1, "aa")])
    knockout_unplayed = old_event("ko-unplayed", format=Event.Format.KNOCKOUT)

    run_migration()

    seeds = [seed_of(Event, e.pk) for e in (unplayed, distinct, across, knockout_unplayed)]
    assert all(SECRET.fullmatch(seed) for seed in seeds), seeds
    assert len(set(seeds)) == len(seeds)  # each its own, none the old 0 or 7


def test_an_event_whose_seed_decided_a_tie_keeps_it():
    drawn = old_event("drawn", seed="7")
    # Two players level on every key but the draw in round 2: the draw decided it.
    standings(
        drawn,
        [keys(120, 2, "aa"), keys(130, 1, "bb")],
        [keys(250, 3, "aa"), keys(250, 3, "bb")],
    )
    knockout = old_event("knockout", seed="0", format=Event.Format.KNOCKOUT)
    standings(knockout, [keys(120, 2, "aa"), keys(130, 1, "bb")])  # no level rows

    run_migration()

    assert seed_of(Event, drawn.pk) == "7"
    assert seed_of(Event, knockout.pk) == "0"


def test_a_series_keeps_its_seed_only_where_it_ranked_players():
    fresh = Series.objects.create(slug="fresh", name="Fresh")
    ranked = Series.objects.create(slug="ranked", name="Ranked")
    final = make_event(slug="final")
    with_final = Series.objects.create(slug="with-final", name="With final", final=final)
    Series.objects.filter(pk__in=[fresh.pk, ranked.pk, with_final.pk]).update(draw_seed="0")
    SeriesStanding.objects.create(
        series=ranked, player=Player.objects.create(name="P"), rank=1, best_place=1
    )
    Series.objects.filter(pk=with_final.pk).update(final_seeded_at=None)
    with_final.refresh_from_db()

    run_migration()

    assert SECRET.fullmatch(seed_of(Series, fresh.pk))
    assert SECRET.fullmatch(seed_of(Series, with_final.pk))
    assert seed_of(Series, ranked.pk) == "0"
    seeded_at = Series.objects.values_list("final_seeded_at", flat=True).get(pk=with_final.pk)
    assert seeded_at == with_final.updated_at
    assert Series.objects.get(pk=fresh.pk).final_seeded_at is None
