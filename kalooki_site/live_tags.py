"""Template tags for the live pages' timings (`{% load live %}`), read from the
settings when a page is rendered, so the test settings can shorten them."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def screen_stale_seconds() -> int:
    """How long a venue screen goes without an answer before it says its data is old."""
    return settings.SCREEN_STALE_SECONDS
