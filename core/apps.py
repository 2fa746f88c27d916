from __future__ import annotations

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Kalooki core"

    def ready(self) -> None:
        from core import signals  # noqa: F401 (connects the deletion receivers)
