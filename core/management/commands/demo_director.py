"""Create (or reset) the demo site's director login: only for `make demo`."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create or reset the demo superuser 'director' (password 'kalooki')."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="director")
        parser.add_argument("--password", default="kalooki")

    def handle(self, *args, username: str, password: str, **options):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.org"}
        )
        user.is_staff = user.is_superuser = True
        user.set_password(password)
        user.save()
        verb = "Created" if created else "Reset"
        self.stdout.write(f"{verb} demo login: {username} / {password}")
