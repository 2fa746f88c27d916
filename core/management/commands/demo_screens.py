"""Start the demo events' round clocks afresh: only for `make demo`."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.demo import demo_screens
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Start the clock of each named demo event's round in play afresh (and put up an "
        "announcement if none is showing), so a demo loaded long ago still shows it running."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="+")

    def handle(self, *args, slugs: list[str], **options):
        for slug in slugs:
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise CommandError(f"No event {slug!r}.")
            demo_screens(event)
            self.stdout.write(f"{event.name}: the round in play's clock is running.")
