from __future__ import annotations

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Kalooki core"

    def ready(self) -> None:
        from core import collation, signals  # noqa: F401 (connects their receivers)
