"""Prize tables: what each final place wins, and who takes it when players are tied.

A prize table is a list of prizes by place, each an amount of money, an item, or both.
Players tied on every score before the seeded draw either take their places as the
draw ordered them (`DRAW`), or share (`SHARE`): the amounts of the places they cover
are added and split equally (the poker and chess convention), to the cent, any cent
left over going to the first in the draw. An item cannot be split: it goes to the
player the draw placed there, shared or not. Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from game.words import say, say_plural

DRAW = "draw"
SHARE = "share"
TIE_POLICIES = (DRAW, SHARE)
MAX_PLACES = 500
MAX_AMOUNT = Decimal("100000000")
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Prize:
    place: int
    amount: Decimal = Decimal(0)
    item: str = ""

    def as_dict(self) -> dict:
        return {"place": self.place, "amount": str(self.amount), "item": self.item}


@dataclass(frozen=True)
class Award:
    """What one player wins: `place` is their rank; `shared_with` the ranks they share
    the amounts with (empty: nobody)."""

    rank: int
    amount: Decimal
    item: str
    shared_with: tuple[int, ...] = ()

    @property
    def shared(self) -> bool:
        return bool(self.shared_with)


def tied_groups(rows: Iterable, tie_key: Callable[[object], object]) -> list[list[int]]:
    """The ranks of rows (each with a `rank`) tied on `tie_key` (what they scored before
    the draw), in groups of rank order; a group of one is not tied. What a prize table
    may share between players."""
    groups: list[list[int]] = []
    previous = None
    for row in sorted(rows, key=lambda r: r.rank):
        key = tie_key(row)
        if groups and key == previous:
            groups[-1].append(row.rank)
        else:
            groups.append([row.rank])
        previous = key
    return groups


def check_table(raw: object) -> tuple[Prize, ...]:
    """A prize table as sent ([{"place", "amount", "item"}]), checked; ValueError names
    the entry and what is wrong."""
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        raise ValueError(say('must be a list of {"place", "amount", "item"}'))
    if len(raw) > MAX_PLACES:
        raise ValueError(
            say_plural(
                "may have at most %(most)s places",
                "may have at most %(most)s places",
                MAX_PLACES,
                most=MAX_PLACES,
            )
        )
    prizes: dict[int, Prize] = {}
    for i, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise ValueError(
                say('prize %(prize)s: must be an object {"place", "amount", "item"}', prize=i)
            )
        unknown = set(entry) - {"place", "amount", "item"}
        if unknown:
            keys = ", ".join(sorted(map(str, unknown)))
            raise ValueError(say("prize %(prize)s: unknown keys %(keys)s", prize=i, keys=keys))
        place = entry.get("place")
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= MAX_PLACES:
            raise ValueError(
                say(
                    "prize %(prize)s: place must be a whole number 1 to %(most)s",
                    prize=i,
                    most=MAX_PLACES,
                )
            )
        if place in prizes:
            raise ValueError(
                say("prize %(prize)s: place %(place)s is given twice", prize=i, place=place)
            )
        amount = _amount(entry.get("amount", 0), i)
        item = entry.get("item", "") or ""
        if not isinstance(item, str) or len(item) > 200:
            raise ValueError(
                say_plural(
                    "prize %(prize)s: item must be text of at most %(most)s characters",
                    "prize %(prize)s: item must be text of at most %(most)s characters",
                    200,
                    prize=i,
                    most=200,
                )
            )
        if not amount and not item.strip():
            raise ValueError(say("prize %(prize)s: give an amount, an item or both", prize=i))
        prizes[place] = Prize(place=place, amount=amount, item=item.strip())
    return tuple(sorted(prizes.values(), key=lambda p: p.place))


# An amount as people write one: a currency before it (J$, TT$, US$, $, JMD, €), and
# thousands grouped by commas or spaces: "J$50,000", "50 000", "50000.00".
CURRENCY_MARK = re.compile(r"^(?:[A-Za-z]{1,3}\s?[$£€¥]?|[$£€¥])\s*")
GROUPED = re.compile(r"^\d{1,3}(?:[,\s\u00a0\u202f]\d{3})+(?:\.\d+)?$")


def parse_amount(text: str) -> Decimal:
    """An amount typed as people type it; ValueError when it is not one."""
    number = CURRENCY_MARK.sub("", text.strip())
    if GROUPED.match(number):
        number = re.sub(r"[,\s\u00a0\u202f]", "", number)
    if not re.fullmatch(r"\d+(?:\.\d+)?|\.\d+", number):
        raise ValueError(text)
    return Decimal(number)


def _amount(raw: object, i: int) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, (int, str, float, Decimal)):
        raise ValueError(say("prize %(prize)s: amount must be a number", prize=i))
    try:
        amount = parse_amount(raw) if isinstance(raw, str) else Decimal(str(raw))
    except (InvalidOperation, ValueError):
        raise ValueError(
            say(
                "prize %(prize)s: amount %(amount)s is not an amount (write it as 50,000 or "
                "J$50,000.00)",
                prize=i,
                amount=repr(raw),
            )
        ) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_AMOUNT:
        raise ValueError(
            say("prize %(prize)s: amount must be 0 to %(most)s", prize=i, most=MAX_AMOUNT)
        )
    if amount != amount.quantize(CENT):
        raise ValueError(say("prize %(prize)s: amount has more than two decimals", prize=i))
    return amount.quantize(CENT)


def awards(
    prizes: Sequence[Prize], groups: Sequence[Sequence[int]], *, policy: str = DRAW
) -> dict[int, Award]:
    """Each rank's award, by rank. `groups` are the ranks in order, those tied on every
    score before the draw in one group (`[[1], [2, 3], [4]]`)."""
    if policy not in TIE_POLICIES:
        raise ValueError(f"policy must be one of {', '.join(TIE_POLICIES)}, not {policy!r}")
    by_place = {p.place: p for p in prizes}
    result: dict[int, Award] = {}
    for group in groups:
        ranks = sorted(group)
        won = [by_place.get(r) for r in ranks]
        if policy == SHARE and len(ranks) > 1:
            total = sum((p.amount for p in won if p is not None), Decimal(0))
            each = (total / len(ranks)).quantize(CENT, rounding=ROUND_DOWN)
            left = total - each * len(ranks)
            for i, (rank, prize) in enumerate(zip(ranks, won, strict=True)):
                amount = each + (left if i == 0 else 0)
                item = prize.item if prize is not None else ""
                if amount or item:
                    others = tuple(r for r in ranks if r != rank)
                    result[rank] = Award(rank, amount, item, others if total else ())
            continue
        for rank, prize in zip(ranks, won, strict=True):
            if prize is not None:
                result[rank] = Award(rank, prize.amount, prize.item)
    return result
