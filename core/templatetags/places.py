"""Template filters for places in a ranking: `{{ place|ordinal }}` gives 1st, 2nd, 3rd,
4th ... 11th, 12th, 13th ... 21st, 22nd, 23rd ... 111th."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()
SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


@register.filter
def ordinal(value: Any) -> str:
    """A whole number as an English ordinal; anything else as it is."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return "" if value is None else str(value)
    # 11, 12 and 13 (and 111, 212 ...) are "th", whatever their last digit says.
    suffix = "th" if abs(number) % 100 in (11, 12, 13) else SUFFIXES.get(abs(number) % 10, "th")
    return f"{number}{suffix}"
