"""Load the demo circuit: `manage.py demo_series` (three finished legs and a final
taking entries)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.series.demo import generate_demo_series
from tournaments.models import Series


class Command(BaseCommand):
    help = "Create a demo series: three finished legs and a grand final taking entries."

    def add_arguments(self, parser):
        parser.add_argument("--slug", default="jamaica-circuit")
        parser.add_argument("--name", default="Jamaica Kalooki Circuit")
        parser.add_argument("--seed", type=int, default=18)
        parser.add_argument(
            "--organiser", default="director", help="The user who organises it (if they exist)."
        )
        parser.add_argument(
            "--if-missing", action="store_true", help="Do nothing when the series exists."
        )

    def handle(self, *args, **opts):
        if Series.objects.filter(slug=opts["slug"]).exists():
            if not opts["if_missing"]:
                raise CommandError(f"A series {opts['slug']!r} exists already.")
            self.stdout.write(f"Demo series {opts['slug']!r} is already loaded.")
            return
        organiser = get_user_model().objects.filter(username=opts["organiser"]).first()
        series = generate_demo_series(
            slug=opts["slug"], name=opts["name"], seed=opts["seed"], by=organiser
        )
        self.stdout.write(
            f"Created the series {series.name!r} ({series.slug}): {series.legs.count()} legs, "
            f"final {series.final.slug} with {series.final.entries.count()} qualifiers entered."
        )
