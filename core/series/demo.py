"""A small demo circuit: three finished legs at three venues, their players drawn from
one pool (so the series has players in every leg, some in two, some in one), a series
with best-2-of-3, eight qualifiers and prizes, and its grand final taking entries with
the qualifiers entered, seeded by series rank. For `make demo`."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.demo import DemoOptions, generate_demo_event, make_players
from core.events.services import create_event
from core.ratings.services import refresh_ratings
from core.series.final import create_final
from core.series.services import add_leg, create_series
from core.series.standings import refresh_series_standings
from core.standings.services import refresh_standings
from tournaments.models import Entry, Event, Player, Series

LEGS = (
    ("negril", "Negril", "Negril, Westmoreland"),
    ("mandeville", "Mandeville", "Mandeville, Manchester"),
    ("port-antonio", "Port Antonio", "Port Antonio, Portland"),
)
FIELD, POOL = 16, 24


@transaction.atomic
def generate_demo_series(
    *, slug: str, name: str, seed: int = 18, by: AbstractBaseUser | None = None
) -> Series:
    rng = random.Random(seed)
    today = timezone.localdate()
    pool: list[Player] = []
    legs = []
    for i, (leg_slug, town, venue) in enumerate(LEGS):
        event = generate_demo_event(
            DemoOptions(
                players=FIELD,
                rounds=2,
                seed=seed + i,
                slug=f"{slug}-{leg_slug}",
                name=f"{name}: {town} leg (demo)",
            )
        )
        Event.objects.filter(pk=event.pk).update(
            starts_on=today - timedelta(days=21 * (len(LEGS) - i)),
            venue=venue,
            prizes=[{"place": 1, "amount": "200.00", "item": ""}],
        )
        generated = list(Player.objects.filter(entries__event=event).order_by("pk"))
        if not pool:  # the first leg's players, and a few who play later legs only
            newcomers = make_players(rng, POOL - FIELD, taken={p.name for p in generated})
            pool = generated + newcomers
        else:  # this leg's field is drawn from the pool
            field = rng.sample(pool, FIELD)
            for entry, player in zip(
                Entry.objects.filter(event=event).order_by("pk"), field, strict=True
            ):
                Entry.objects.filter(pk=entry.pk).update(player=player)
                Entry.history.filter(id=entry.pk).update(player=player)
            Player.objects.filter(pk__in=[p.pk for p in generated]).delete()
        event.refresh_from_db()
        for number in (1, 2):
            refresh_standings(event=event, round_number=number)
        legs.append(event)
    refresh_ratings()  # the legs' closed rounds rated, as closing them would
    series = create_series(
        data={
            "slug": slug,
            "name": name,
            "season": str(today.year),
            "best_of": 2,
            "qualifiers": 8,
            "prizes": [
                {"place": 1, "amount": "1000.00", "item": "the circuit trophy"},
                {"place": 2, "amount": "500.00"},
                {"place": 3, "amount": "250.00"},
            ],
        },
        by=by,
    )
    for event in legs:
        add_leg(series=series, event=event, by=by)
    refresh_series_standings(series=series)
    final = create_event(
        data={
            "slug": f"{slug}-final",
            "name": f"{name}: grand final (demo, taking entries)",
            "starts_on": today + timedelta(days=14),
            "venue": "Kingston, Jamaica",
            "rounds_planned": 3,
            "seating": Event.Seating.SPREAD,
            "status": Event.Status.REGISTRATION,
        },
        by=by,
    )
    create_final(series=series, event=final, by=by)
    return Series.objects.get(pk=series.pk)
