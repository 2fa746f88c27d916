"""Write an event, with everything that belongs to it, as a JSON archive:
`manage.py export_event SLUG > event.json` (see core.archive)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core import archive
from core.archive import export as archive_export
from tournaments.models import Event


class Command(BaseCommand):
    help = "Export an event (players, rounds, seating, hands, penalties, standings, history)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument(
            "-o", "--output", help="write to this file instead of the standard output"
        )

    def handle(self, *args, slug: str, output: str | None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event {slug!r} here.")
        text = archive.dumps(archive_export.export_event(event))
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {event.name!r} to {output}.")
        else:
            self.stdout.write(text, ending="")
