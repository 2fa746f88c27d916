"""The game's words in the reader's language. The rules engine and the tournament maths
(`game/`) know no Django: what they say to people (a hand's problems, a refused prize
table, a tie note) is English carrying its template (`game.words.Said`). Wherever such
words become a page, an answer or a refusal, they pass through `translated`, which says
them again in the language active now."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import get_language, gettext, ngettext, pgettext

from game.words import Joined, Said

# The language the game's words are written in: said in it, they are their own text
# (every template, value and plural chosen as the catalogue would), so a page in it
# skips the lookups (a 4,096-player projector: 44,000 of them, a quarter of its time).
SOURCE = "en"


def separator(english: str) -> str:
    """A list's separator in the reader's language: ", " and "; " are Persian's "، "
    and "؛ "; any other (a space) as it is."""
    if english == ", ":
        return pgettext("list separator", ", ")
    if english == "; ":
        return pgettext("list separator", "; ")
    return english


def listing(items: Iterable[object], english: str = ", ") -> str:
    """`items` one after the other, as a list is written in the reader's language (the
    game's words among them said in it too)."""
    return separator(english).join(translated(item) for item in items)


def translated(message: object) -> str:
    """`message` in the active language: words the game said (or an exception raised
    with them) looked up in the catalogue, with their values, words themselves,
    translated in turn; any other message as it is, as text."""
    if isinstance(message, BaseException):
        said = message.args[0] if len(message.args) == 1 else None
        message = said if isinstance(said, (Said, Joined)) else str(message)
    if isinstance(message, Joined):
        return separator(message.separator).join(translated(part) for part in message.parts)
    if not isinstance(message, Said) or get_language() == SOURCE:
        return str(message)
    params = {
        name: translated(value) if isinstance(value, (Said, Joined)) else value
        for name, value in message.params.items()
    }
    if message.plural is None:
        template = gettext(message.template)
    else:
        template = ngettext(message.template, message.plural, message.number)
    return template % params
