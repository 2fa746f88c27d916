"""A to Z as people sort names: the Unicode Collation Algorithm (pyuca, with the
Unicode default table), so "Émile" comes after "Anna" and before "Zoe", "Łukasz"
beside "Lucy", and letters of every script in their own alphabet's order. Case and
accents decide only between names otherwise equal. Plain Python, no Django."""

from __future__ import annotations

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


def compare(a: str, b: str) -> int:
    """-1, 0 or 1: `a` before, level with or after `b` (a database's collation)."""
    ka, kb = sort_key(a), sort_key(b)
    return (ka > kb) - (ka < kb)
