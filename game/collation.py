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


# The longest text the caches below keep: the longest name or club the site stores. A
# longer one (a search typed by anyone) is worked out each time, so no reader can fill
# a process with long texts.
CACHED_LENGTH = 120


def sort_key(text: str) -> tuple[int, ...]:
    """The key that sorts `text` among others by the Unicode Collation Algorithm."""
    if len(text) > CACHED_LENGTH:
        return collator().sort_key(text)
    return _kept_sort_key(text)


# About 1 KB a name of 28 letters, 3.6 KB one of 120 accented letters: 8,192 of them
# (twice a national championship's names and clubs) hold 8 MB, 30 MB at the very most.
@lru_cache(maxsize=8192)
def _kept_sort_key(text: str) -> tuple[int, ...]:
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


def folded(text: str) -> str:
    """`text` as a search compares it: case and accents set aside ("Ñúñez" -> "nunez",
    "Łukasz" -> "lukasz"), so what a player types on a phone finds the name."""
    if len(text) > CACHED_LENGTH:
        return _fold(text)
    return _kept_folded(text)


# About 250 bytes a text of 120 letters (the text and its folded copy): 16 MB at most.
@lru_cache(maxsize=65_536)
def _kept_folded(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
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
