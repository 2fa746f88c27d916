"""The director's event-day pages (login required)."""

from __future__ import annotations

urlpatterns: list = []
