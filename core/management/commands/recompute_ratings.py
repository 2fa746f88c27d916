"""Rate every closed round of every public event again, from nothing:
`manage.py recompute_ratings`. The background job gives the same numbers
incrementally (core.ratings.services); this is for a check or after a repair."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from core.ratings import selectors as read
from core.ratings.services import refresh_ratings


class Command(BaseCommand):
    help = "Recompute every player's rating from every closed round of every public event."

    def handle(self, *args, **options):
        version = refresh_ratings(full=True)
        rated = read.ratings_table(min_sets=1)
        self.stdout.write(
            f"Rated {len(read.rounds_to_rate())} rounds; {len(rated)} players rated "
            f"(ratings version {version})."
        )
