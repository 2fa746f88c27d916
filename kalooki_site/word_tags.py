"""`{{ value|words }}`, on every template without a load: the game's words (a contract,
a ruleset's name: `game.words.Said`) in the reader's language, through
`core.words.translated`; any other value as it is. `{{ list|listing }}` (or
`|listing:"; "`): a list joined as the reader's language writes one ("، " in Persian);
`{{ ", "|separator }}` that separator alone, between a loop's items."""

from __future__ import annotations

from django import template

from core.words import listing as joined_list
from core.words import separator as list_separator
from core.words import translated

register = template.Library()


@register.filter
def words(value: object) -> object:
    return "" if value is None else translated(value)


@register.filter
def listing(values: object, english: str = ", ") -> str:
    return joined_list(values or (), english)


@register.filter
def separator(english: str) -> str:
    return list_separator(english)
