"""Words a person reads, written by the game in English and kept so the site can say
them again in the reader's language. No Django here.

`say("seat %(seat)s: no score entered", seat=3)` is the English text itself (a `str`,
so whatever reads a message as text reads what it always did) carrying its template
and values; `core.words.translated` looks the template up in the reader's language and
fills it with the values, each said again in that language too where it is words
itself. The template is always a literal with named placeholders: `manage.py
translations` gathers every `say(...)` and `say_plural(...)` of the sources for the
translators.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class Said(str):
    """Words to be read: the English text, with the template and the values it was made
    from (`plural` and `number`: the plural template, and the number that chooses)."""

    template: str
    params: Mapping[str, object]
    plural: str | None
    number: int | None

    def __new__(
        cls,
        template: str,
        params: Mapping[str, object] | None = None,
        plural: str | None = None,
        number: int | None = None,
    ) -> Said:
        params = dict(params or {})
        chosen = template if plural is None or number == 1 else plural
        said = super().__new__(cls, chosen % params)
        said.template, said.params, said.plural, said.number = template, params, plural, number
        return said

    def __reduce__(self):
        # Kept in a cache or sent to a worker as what it was made from, with its English
        # text (so reading it back fills no template: a 4,096-player standings document
        # holds thousands).
        return (said_again, (str(self), self.template, self.params, self.plural, self.number))


def said_again(
    text: str,
    template: str,
    params: Mapping[str, object],
    plural: str | None,
    number: int | None,
) -> Said:
    """A `Said` read back from a cache: its text as it was made, not made again."""
    said = str.__new__(Said, text)
    said.template, said.params, said.plural, said.number = template, params, plural, number
    return said


class Joined(str):
    """Several things said one after the other, `separator` between them."""

    parts: tuple[str, ...]
    separator: str

    def __new__(cls, parts: Iterable[str], separator: str = " ") -> Joined:
        parts = tuple(parts)
        joined = super().__new__(cls, separator.join(parts))
        joined.parts, joined.separator = parts, separator
        return joined

    def __reduce__(self):
        return (type(self), (self.parts, self.separator))


def say(template: str, /, **params: object) -> Said:
    """`template % params`, as English words that can be said again in another language."""
    return Said(template, params)


def say_plural(singular: str, plural: str, number: int, /, **params: object) -> Said:
    """Words whose form follows `number` (in English: `singular` for 1, else `plural`;
    a language with other forms has its own)."""
    return Said(singular, params, plural, number)


def joined(parts: Iterable[str], separator: str = " ") -> Joined:
    return Joined(parts, separator)
