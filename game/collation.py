"""A to Z as people sort names: the Unicode Collation Algorithm (pyuca, with the
Unicode default table), so "Émile" comes after "Anna" and before "Zoe", "Łukasz"
beside "Lucy", and letters of every script in their own alphabet's order. Case and
accents decide only between names otherwise equal. Plain Python, no Django."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pyuca import Collator

_collator: list[Collator] = []


def collator() -> Collator:
    """One collator per process, built on first use (it reads the Unicode table)."""
    if not _collator:
        _collator.append(Collator())
    return _collator[0]


@lru_cache(maxsize=65_536)
def sort_key(text: str) -> tuple[int, ...]:
    """The key that sorts `text` among others by the Unicode Collation Algorithm."""
    return collator().sort_key(text)


# Letters Unicode does not decompose into a base letter and a mark, as people type
# them without the accent.
UNMARKED = str.maketrans(
    {
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "ø": "o",
        "ħ": "h",
        "ı": "i",
        "ŧ": "t",
        "ŀ": "l",
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
    }
)


@lru_cache(maxsize=65_536)
def folded(text: str) -> str:
    """`text` as a search compares it: case and accents set aside ("Ñúñez" -> "nunez",
    "Łukasz" -> "lukasz"), so what a player types on a phone finds the name."""
    return "".join(plain_letter(c) for c in unicodedata.normalize("NFC", text.casefold()))


@lru_cache(maxsize=4096)
def plain_letter(char: str) -> str:
    """A Latin or Greek letter without its marks (another script's letters are kept
    whole: Russian й is not и)."""
    if not unicodedata.name(char, "").startswith(("LATIN", "GREEK")):
        return char
    plain = unicodedata.normalize("NFKD", char)
    return "".join(c for c in plain if not unicodedata.combining(c)).translate(UNMARKED)


def matches(search: str, *texts: str) -> bool:
    """Whether `search` is part of any of `texts`, case and accents set aside."""
    needle = folded(search.strip())
    return any(needle in folded(text or "") for text in texts)
