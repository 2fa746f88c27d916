"""Whether the site's copy of a published event equals this install's:

    manage.py compare_event SLUG --site https://kalooki.example.org --link kp_...

exits 0 when the two archives agree (leaving out what each site keeps for itself,
`core.publishing.compare`), and lists where they differ otherwise (exit 1).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.archive.export import build_payload
from core.publishing.compare import differences
from core.publishing.sending import Stopped, Unreachable, call
from tournaments.models import Event, Publication


class Command(BaseCommand):
    help = "Compare the site's copy of a published event with this install's."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--site", required=True)
        parser.add_argument("--link", required=True)

    def handle(self, *args, slug, site, link, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event {slug!r} here.")
        asking = Publication(event=event, site=site.rstrip("/"), link=link)
        try:
            answer = call(asking, "GET", "archive/")
        except (Unreachable, Stopped) as error:
            raise CommandError(f"The site's copy could not be read: {error}") from error
        payload = answer.body.get("payload")
        if answer.status != 200 or not isinstance(payload, dict):
            raise CommandError(f"The site answered {answer.status}: {answer.body}")
        found = differences(build_payload(event), payload)
        if found:
            self.stdout.write(f"The site's copy of {slug} differs from this one:")
            for line in found:
                self.stdout.write(f"- {line}")
            raise SystemExit(1)
        self.stdout.write(f"The site's copy of {slug} equals this one.")
