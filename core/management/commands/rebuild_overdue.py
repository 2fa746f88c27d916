"""Rebuild here whatever derived data no worker has rebuilt within
REBUILD_HERE_AFTER_SECONDS: `manage.py rebuild_overdue` once, or with `--every N`
every N seconds (the standby process `manage.py run_processes` keeps running).

The workers rebuild within seconds of a change; this only finds work when none is
taking jobs (the broker down, every worker dead), and then needs neither."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from core import derived
from core import tasks as _registers_the_jobs  # noqa: F401  (the services behind each job)


class Command(BaseCommand):
    help = "Rebuild derived data that no worker has rebuilt for too long."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, help="keep running, looking every N seconds")
        parser.add_argument(
            "--after",
            type=float,
            default=None,
            help="stale for longer than this many seconds (default REBUILD_HERE_AFTER_SECONDS)",
        )

    def handle(self, *args, every, after, **options):
        older_than = settings.REBUILD_HERE_AFTER_SECONDS if after is None else after
        while True:
            for kind, key in derived.rebuild_overdue(older_than=older_than):
                self.stdout.write(f"rebuilt {kind} {key}", ending="\n")
                self.stdout.flush()
            if every is None:
                return
            time.sleep(every)
