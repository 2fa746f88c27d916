from __future__ import annotations

from kalooki_site.celery import app as celery_app

__all__ = ("celery_app",)
