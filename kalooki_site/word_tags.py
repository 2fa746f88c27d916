"""`{{ value|words }}`, on every template without a load: the game's words (a contract,
a ruleset's name: `game.words.Said`) in the reader's language, through
`core.words.translated`; any other value as it is."""

from __future__ import annotations

from django import template

from core.words import translated

register = template.Library()


@register.filter
def words(value: object) -> object:
    return "" if value is None else translated(value)
