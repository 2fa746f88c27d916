"""Every event gets an identity (`uid`), and one event of an identity counts.

An existing event's identity is derived from its creation time and draw seed
(`game.identity.derived_uid`), as an archive from before identities is given one when
it is read: so an old archive of an event is known as that event here. Events already
imported twice from one archive (the same creation time and seed: one event) share an
identity, and only one of them counts in the ratings and series from now on: a leg of
a series if one is, else the first made; the others are copies, left out (and out of
any series) until an organiser puts one in instead. The ratings and those series'
standings are marked stale, so the periodic catch-up counts each played set once."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import F
from django.utils import timezone

import game.identity

RATINGS = "core.refresh_ratings"  # core.ratings.services.RATINGS (key 0)
SERIES_STANDINGS = "core.refresh_series_standings"  # core.jobs.SERIES_STANDINGS


def mark_stale(DerivedState, kind: str, key: int, now) -> None:
    state, _ = DerivedState.objects.get_or_create(kind=kind, key=key)
    DerivedState.objects.filter(pk=state.pk).update(changes=F("changes") + 1, dirty_since=now)


def give_identities(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    HistoricalEvent = apps.get_model("tournaments", "HistoricalEvent")
    DerivedState = apps.get_model("scoring", "DerivedState")
    by_uid: dict = {}
    rows = Event.objects.order_by("pk").values_list("pk", "created_at", "draw_seed", "series_id")
    for pk, created_at, draw_seed, series_id in rows:
        uid = game.identity.derived_uid(created_at, draw_seed)
        Event.objects.filter(pk=pk).update(uid=uid)
        HistoricalEvent.objects.filter(id=pk).update(uid=uid)
        by_uid.setdefault(uid, []).append((pk, series_id))
    now = timezone.now()
    stale_series = set()
    copies = False
    for events in by_uid.values():
        if len(events) < 2:
            continue
        copies = True
        counted = next((pk for pk, series in events if series is not None), events[0][0])
        for pk, series in events:
            if pk == counted:
                continue
            Event.objects.filter(pk=pk).update(counted=False, series=None, series_places=None)
            if series is not None:
                stale_series.add(series)
    if copies:
        mark_stale(DerivedState, RATINGS, 0, now)
    for series in sorted(stale_series):
        mark_stale(DerivedState, SERIES_STANDINGS, series, now)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_prize_currency"),
        ("scoring", "0012_rank_every_series_again"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="counted",
            field=models.BooleanField(default=True, editable=False),
        ),
        migrations.AddField(
            model_name="historicalevent",
            name="counted",
            field=models.BooleanField(default=True, editable=False),
        ),
        migrations.AddField(
            model_name="event",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.AddField(
            model_name="historicalevent",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(give_identities, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="uid",
            field=models.UUIDField(db_index=True, default=game.identity.new_uid, editable=False),
        ),
        migrations.AlterField(
            model_name="historicalevent",
            name="uid",
            field=models.UUIDField(db_index=True, default=game.identity.new_uid, editable=False),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                condition=models.Q(("counted", True)),
                fields=("uid",),
                name="event_counted_once",
                violation_error_message="Another event of this identity counts already.",
            ),
        ),
    ]
