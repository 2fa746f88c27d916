"""Every series' standings are stale once its shared places, countback and kept leg
places exist: the periodic catch-up ranks each again (and keeps each final leg's places
for a later reopening), as after any change to a leg."""

from django.db import migrations
from django.db.models import F
from django.utils import timezone

SERIES_STANDINGS = "core.refresh_series_standings"  # core.jobs.SERIES_STANDINGS


def mark_stale(apps, schema_editor):
    Series = apps.get_model("tournaments", "Series")
    DerivedState = apps.get_model("scoring", "DerivedState")
    now = timezone.now()
    for pk in Series.objects.values_list("pk", flat=True):
        state, _ = DerivedState.objects.get_or_create(kind=SERIES_STANDINGS, key=pk)
        DerivedState.objects.filter(pk=state.pk).update(changes=F("changes") + 1, dirty_since=now)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_series_shared_places"),
        ("tournaments", "0013_longer_change_reasons"),
    ]

    operations = [migrations.RunPython(mark_stale, migrations.RunPython.noop)]
