"""A series' standings, rebuilt by a background job from the legs' final standings
(`game.series` ranks them).

A leg's standings rebuild marks its series' standings stale (`derived.changed`), so
the series catches up after every change to a leg, as the event standings do after
every change to a hand: collapsed, idempotent, and rebuilt by the periodic catch-up
after a fault. A leg scores once it is final: finished, or its last planned round
closed.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F

from core import background, derived
from core.series import selectors as read
from game import series as game_series
from scoring.models import SeriesStanding
from tournaments.models import Event, Series

SERIES_STANDINGS = background.SERIES_STANDINGS
COLLAPSE_SECONDS = 1.0


def queue_series_refresh(series_id: int) -> None:
    """Mark the series' standings stale in this transaction; rebuilt once it commits."""
    derived.changed(SERIES_STANDINGS, series_id, countdown=COLLAPSE_SECONDS)


@background.runs(SERIES_STANDINGS)
def refresh_series_job(series_id: int) -> int | None:
    """The background job: rebuild unless an earlier run covered every change."""
    if not derived.is_dirty(SERIES_STANDINGS, series_id):
        return None
    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        derived.forget(SERIES_STANDINGS, series_id)
        return None
    return refresh_series_standings(series=series, if_stale=True)


def counted_places(legs: list, *, frozen: bool = False) -> tuple[dict[int, list], set[int]]:
    """event id -> the leg's places the series counts, and the legs counted as they
    stood: a final leg's places are read and kept on the leg (`Event.series_places`); a
    leg reopened since (no longer final) counts as it was kept, provisionally, until it
    is final again. 2 queries, and 1 write per leg whose places changed.

    `frozen` (the final has begun): the legs count exactly as they were kept when it
    began, and nothing is read or kept anew; a leg that became final since is not
    counted until the organiser reopens the series."""
    if frozen:
        kept = {leg.pk: [tuple(p) for p in leg.series_places] for leg in legs if leg.series_places}
        return kept, set()
    places = read.final_places(legs)
    provisional = set()
    for leg in legs:
        if leg.pk in places:
            kept = [list(p) for p in places[leg.pk]]
            if leg.series_places != kept:
                Event.objects.filter(pk=leg.pk).update(series_places=kept)
        elif leg.series_places:
            places[leg.pk] = [tuple(p) for p in leg.series_places]
            provisional.add(leg.pk)
    return places, provisional


@transaction.atomic
def refresh_series_standings(*, series: Series, if_stale: bool = False) -> int:
    """Rebuild the series standings from the legs' final places; the new version. Takes
    the series' row lock, so two rebuilds run one after the other."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if if_stale and not derived.is_dirty(SERIES_STANDINGS, series.pk):
        return series.standings_version
    changes = derived.seen(SERIES_STANDINGS, series.pk)
    legs = read.legs_of(series)
    order = {leg.pk: i for i, leg in enumerate(legs)}
    places, provisional = counted_places(legs, frozen=read.qualification_frozen(series))
    rows = game_series.standings(
        [
            game_series.LegPlace(order[event_id], player, place, shared)
            for event_id, leg_places in places.items()
            for player, place, shared in leg_places
        ],
        scale=series.points_scale,
        best_of=series.best_of,
        qualifiers=series.qualifiers,
        draw_seed=series.draw_seed,
        ties_qualify=series.ties_qualify,
    )
    groups = game_series.tied_groups(rows)
    group_of = {rank: i for i, group in enumerate(groups, start=1) for rank in group}
    SeriesStanding.objects.filter(series=series).delete()
    SeriesStanding.objects.bulk_create(
        [
            SeriesStanding(
                series=series,
                player_id=r.player,
                rank=r.rank,
                points=as_points(r.points),
                events_played=r.events_played,
                best_place=r.best_place,
                results=[
                    {
                        "event": legs[x.leg].slug,
                        "place": x.place,
                        "points": game_series.shown(x.points),
                        "counted": x.counted,
                        "shared": x.shared,
                        "provisional": legs[x.leg].pk in provisional,
                    }
                    for x in r.results
                ],
                qualified=r.qualified,
                tie_group=group_of[r.rank],
                decided_by=r.decided_by,
                latest_leg=legs[r.latest_leg].slug if r.latest_leg is not None else "",
            )
            for r in rows
        ],
        batch_size=2000,
    )
    Series.objects.filter(pk=series.pk).update(standings_version=F("standings_version") + 1)
    derived.built(SERIES_STANDINGS, series.pk, changes)
    return series.standings_version + 1


def as_points(value) -> Decimal:
    """Series points as stored: two decimals (a third of a place's points rounds)."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))
