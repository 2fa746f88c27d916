"""The Celery app: configured from Django settings (CELERY_* names)."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

from kalooki_site import collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings")

app = Celery("kalooki_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@worker_process_init.connect
def tune_collector(**kwargs) -> None:
    """The worker's collector, as the web processes' (`kalooki_site.collector`)."""
    collector.tune()
