"""The web and worker processes start with what they loaded frozen out of the cyclic
garbage collector's reach, and collect after every 50,000 new objects
(`kalooki_site.collector`)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings

SHOW = "import gc; print(gc.get_threshold()[0], gc.get_freeze_count() > 10_000)"


@pytest.mark.parametrize(
    "start",
    [
        "import kalooki_site.wsgi",  # as gunicorn loads the site in each web worker
        # as a Celery worker starts (and each of its pool's processes)
        "import django; django.setup(); from kalooki_site.celery import app; "
        "from celery.signals import worker_init; worker_init.send(sender=None)",
    ],
)
def test_a_site_process_tunes_its_collector_once_loaded(start):
    shown = subprocess.run(
        [sys.executable, "-c", f"{start}; {SHOW}"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "kalooki_site.settings_test", "PATH": "/usr/bin"},
    )
    assert shown.stdout.split() == ["50000", "True"]
