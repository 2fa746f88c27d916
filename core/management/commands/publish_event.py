"""Publish an event from this (venue) install to the public site, live:

    manage.py publish_event SLUG --site https://kalooki.example.org --link kp_...

follows the event and sends each change soon after it is saved, resuming from the
site's acknowledgement after any break. `--once` sends everything pending, waits for
the site's acknowledgement and exits 0 (non-zero, with the reason, when the site
refuses or cannot be reached). `--all` follows every event set to publish (the
dashboard's *Publish to a site*); `manage.py run_processes` runs it so.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.publishing.outbox import start_publishing
from core.publishing.sending import Publisher, Stopped, Unreachable, follow, send_pending
from tournaments.models import Event, Publication


class Command(BaseCommand):
    help = "Publish an event to the public site as it changes (or --once, or --all)."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the event's slug here")
        parser.add_argument("--site", help="the site's address, e.g. https://kalooki.example.org")
        parser.add_argument("--link", help="the publishing link the site gave")
        parser.add_argument("--once", action="store_true", help="send what is pending, then exit")
        parser.add_argument("--all", action="store_true", help="follow every event publishing")
        parser.add_argument("--every", type=float, default=1.0, help="seconds between looks")

    def handle(self, *args, slug, site, link, once, all, every, **options):
        if all:
            if slug or once:
                raise CommandError("--all follows every event: give no slug and no --once.")
            follow(None, every=every)
            return
        if not slug:
            raise CommandError("Name the event (its slug), or give --all.")
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event {slug!r} here.")
        if site or link:
            if not (site and link):
                raise CommandError("Give both --site and --link.")
            try:
                start_publishing(event=event, site=site, link=link)
            except ServiceError as error:
                raise CommandError(str(error)) from error
        publication = Publication.objects.filter(event=event).first()
        if publication is None:
            raise CommandError(f"{slug} is not set to publish: give --site and --link.")
        if not once:
            follow([slug], every=every)
            return
        publisher = Publisher(publication)
        publisher.look()
        try:
            send_pending(publication)
        except Unreachable as error:
            raise CommandError(f"The site could not be reached: {error}") from error
        except Stopped as error:
            Publication.objects.filter(pk=publication.pk).update(refused=str(error))
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Published {slug}: the site has every change, up to change {publication.acknowledged}."
        )
