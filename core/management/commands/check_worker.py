"""Whether a Celery worker is taking jobs: `manage.py check_worker` exits 0 if one ran
the periodic catch-up within WORKER_SILENT_SECONDS and nothing has stayed stale that
long, else 1 with a line saying what is wrong. For a monitor, or a systemd timer."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.processes.health import problems


class Command(BaseCommand):
    help = "Exit 1 when no Celery worker has taken a job for too long."

    def add_arguments(self, parser):
        parser.add_argument(
            "--seconds",
            type=float,
            default=None,
            help="how long is too long (default WORKER_SILENT_SECONDS)",
        )

    def handle(self, *args, seconds, **options):
        silent_for = settings.WORKER_SILENT_SECONDS if seconds is None else seconds
        found = problems(silent_for=silent_for)
        if found:
            raise CommandError(" ".join(found), returncode=1)
        self.stdout.write("ok: a worker is taking jobs")
