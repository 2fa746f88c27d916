"""A series' grand final: its entries made from the series' qualifiers, seeded by series
rank or by rating across events, with the score a qualifier carries into it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core import derived
from core.common import with_history_user
from core.entries.services import register_entry
from core.errors import InvalidInput, StateConflict
from core.locks import for_request
from core.ratings import selectors as rating_reads
from core.ratings import services as ratings
from core.screens.services import screens_changed
from core.series.services import (
    check_carry_over,
    check_directs,
    check_not_final_elsewhere,
    check_public_event,
)
from core.series.standings import SERIES_STANDINGS, refresh_series_standings
from core.standings.services import queue_standings_refresh
from game import series as game_series
from scoring.models import SeriesStanding
from tournaments.models import Entry, Event, Series

# How the final's entries are seeded: by series rank, or by rating across events.
SEED_BY_SERIES = "series"
SEED_BY_RATING = "rating"
SEED_BY = (SEED_BY_SERIES, SEED_BY_RATING)


def check_seed_by(value: Any) -> str:
    if value not in SEED_BY:
        raise InvalidInput(
            f'Seed the final by "{SEED_BY_SERIES}" (series rank) or "{SEED_BY_RATING}" '
            "(rating across events).",
            field="seed_by",
        )
    return value


def rating_order(qualified: list[int]) -> list[int]:
    """The qualifiers (player ids, in series rank order) ordered by their rating across
    events, highest first (the shown rating, mu - 3 sigma); players not rated yet come
    after every rated one; equal ratings, and the unrated, keep their series order.
    1 query."""
    rated = rating_reads.ratings_of(qualified)
    rank = {player: i for i, player in enumerate(qualified)}
    return sorted(
        qualified,
        key=lambda p: (0, -rated[p], rank[p]) if p in rated else (1, 0.0, rank[p]),
    )


@for_request("series")
def create_final(
    *,
    series: Series,
    event: Event,
    by: AbstractBaseUser | None = None,
    seed_by: str = SEED_BY_SERIES,
) -> list[int]:
    """Register the series' qualifiers in `event`, seeded 1, 2, ... and make it the
    series' final; the player ids in seed order. `seed_by` is "series" (by series rank,
    the default) or "rating" (by rating across events: `rating_order`). The standings,
    and for "rating" the ratings, are brought up to date first if a change is still
    being ranked. Round 1 of the final seated "spread" uses these seeds. A carried-over
    score always follows the series rank, whatever the seeding."""
    check_seed_by(seed_by)
    series = Series.objects.select_for_update().get(pk=series.pk)
    event = Event.objects.select_for_update().get(pk=event.pk)  # the series' lock first
    check_directs(by, event, as_="a series' final")
    if event.series_id == series.pk:
        raise StateConflict(f"{event.name} is a leg of this series, not its final.", field="event")
    if event.status == Event.Status.FINISHED or event.rounds.exists():
        raise StateConflict(
            f"{event.name} has started; the final's entries are made before its first round.",
            field="event",
        )
    check_carry_over(series.carry_over_step, event, field="event", error=StateConflict)
    if series.final_id not in (None, event.pk):
        raise StateConflict("This series already has its final.", field="event")
    check_not_final_elsewhere(series, event, field="event")
    check_public_event(series.public, event, as_="the final")
    if not series.qualifiers:
        raise StateConflict(
            "This series sends nobody to its final: its qualifiers is 0. Set how many "
            "players, by series rank, qualify first.",
            field="qualifiers",
        )
    if derived.is_dirty(SERIES_STANDINGS, series.pk):
        refresh_series_standings(series=series)
    qualified = list(
        SeriesStanding.objects.filter(series=series, qualified=True)
        .order_by("rank")
        .select_related("player")
    )
    if not qualified:
        raise StateConflict("No player has qualified yet: no leg has finished.", field="event")
    series_rank = {s.player_id: i for i, s in enumerate(qualified, start=1)}
    if seed_by == SEED_BY_RATING:
        if derived.is_dirty(ratings.RATINGS, ratings.KEY):
            ratings.refresh_ratings(if_stale=True)
        by_player = {s.player_id: s for s in qualified}
        qualified = [by_player[p] for p in rating_order([s.player_id for s in qualified])]
    if event.status == Event.Status.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION)
    players = {s.player_id for s in qualified}
    # Seeds 1..n are the qualifiers'; anyone else entered already keeps no seed among them.
    Entry.objects.filter(event=event, seed_number__lte=len(qualified)).exclude(
        player_id__in=players
    ).update(seed_number=None)
    Entry.objects.filter(event=event, player_id__in=players).update(seed_number=None)
    Entry.objects.filter(event=event).update(carried_points=0)
    for seed, standing in enumerate(qualified, start=1):
        entry = Entry.objects.filter(event=event, player=standing.player).first()
        if entry is None or entry.status != Entry.Status.ACTIVE:
            entry = register_entry(event=event, player=standing.player, seed_number=seed, by=by)
        carried = game_series.carried_score(series_rank[standing.player_id], series.carry_over_step)
        Entry.objects.filter(pk=entry.pk).update(seed_number=seed, carried_points=carried)
    queue_standings_refresh(event)  # the carried-over scores, before any hand
    series.final = event
    series.final_seeded_at = timezone.now()  # its draw's seed is revealed from now on
    with_history_user(series, by).save(update_fields=["final", "final_seeded_at", "updated_at"])
    screens_changed(event)  # its public page links to the series
    return [s.player_id for s in qualified]
