"""Rebuild standings in full from the hand scores: `manage.py rebuild_standings SLUG
[SLUG ...]` or `--all`. Every hand save keeps its table's set totals and the standings
follow from those (`core.hands.set_totals`); this adds up every hand score again,
writes the set totals from them and ranks, as an import or a reopened round does by
itself. The result is the same as the incremental rebuild's (a property test checks)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from core.services import refresh_standings
from tournaments.models import Event


class Command(BaseCommand):
    help = "Rebuild events' standings in full from their hand scores."

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="the events' slugs")
        parser.add_argument("--all", action="store_true", help="every event")

    def handle(self, *args, slugs: list[str], all: bool, **options):
        if all == bool(slugs):
            raise CommandError("Name the events' slugs, or give --all (not both).")
        events = list(Event.objects.order_by("pk") if all else Event.objects.filter(slug__in=slugs))
        missing = sorted(set(slugs) - {event.slug for event in events})
        if missing:
            raise CommandError(f"No event {', '.join(repr(slug) for slug in missing)} here.")
        for event in events:
            started = time.perf_counter()
            version = refresh_standings(event=event, full=True)
            took = (time.perf_counter() - started) * 1000
            self.stdout.write(f"{event.slug}: standings version {version} ({took:.0f} ms)")
