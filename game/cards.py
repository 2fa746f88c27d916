"""Cards, their penalty values, the notation a director types, and the deck.

Plain Python with no Django import, so the rules can be tested without a database.
Values follow RULES.md, "Penalty value of a card left in hand".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from game.words import Said, say

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
BLACK_SUITS: frozenset[str] = frozenset({"S", "C"})
JOKER = "JK"

JOKER_POINTS = 50
BLACK_ACE_POINTS = 15
TEN_AND_COURT_POINTS = 10
RED_ACE_POINTS = 1
_TEN_AND_COURT = frozenset({"10", "J", "Q", "K"})

CARDS_PER_PACK = 52

NOTATION_HELP = say(
    "ranks are A, 2-10 (or T), J, Q, K and suits S, H, D, C (or ♠ ♥ ♦ ♣), or JK (or JOKER) "
    "for a joker"
)
# What a director may type besides the canonical letters: T for ten, the suit symbols
# (filled or outline, with or without the emoji presentation mark) and JOKER.
TEN_LETTER = "T"
JOKER_WORD = "JOKER"
SUIT_SYMBOLS = {
    "\u2660": "S",
    "\u2664": "S",
    "\u2665": "H",
    "\u2661": "H",
    "\u2666": "D",
    "\u2662": "D",
    "\u2663": "C",
    "\u2667": "C",
}
EMOJI_PRESENTATION = "\ufe0f"

# Directors type "JK AS 10H 7D" or "jk, as, 10h": commas and any whitespace separate.
_SEPARATORS = re.compile(r"[\s,]+")


def is_whole_number(value: object) -> TypeGuard[int]:
    """An int that is not a bool: JSON true is never a count of packs, cards or points."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Card:
    """One card: rank "A", "2".."10", "J", "Q", "K" and a suit, or rank "JK" (no suit)."""

    rank: str
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None:
                raise ValueError(f"a joker has no suit, not {self.suit!r}")
        elif self.rank not in RANKS:
            raise ValueError(f"unknown rank {self.rank!r}: {NOTATION_HELP}")
        elif self.suit not in SUITS:
            raise ValueError(f"unknown suit {self.suit!r}: {NOTATION_HELP}")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def points(self) -> int:
        """What this card costs the player left holding it when someone goes out."""
        if self.is_joker:
            return JOKER_POINTS
        if self.rank == "A":
            # The ace's colour decides: black aces are the dearest natural card.
            return BLACK_ACE_POINTS if self.suit in BLACK_SUITS else RED_ACE_POINTS
        if self.rank in _TEN_AND_COURT:
            return TEN_AND_COURT_POINTS
        return int(self.rank)

    def __str__(self) -> str:
        return JOKER if self.is_joker else f"{self.rank}{self.suit}"


def card_points(card: Card) -> int:
    return card.points


def hand_points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


class CardNotationError(ValueError):
    """A token that is not a card; `token` is exactly what was typed, `message` the
    words that say so."""

    def __init__(self, token: str, reason: Said) -> None:
        self.token = token
        self.reason = reason
        shown = token if len(token) <= 20 else token[:17] + "..."  # a pasted page stays short
        self.message = say(
            '"%(token)s" is not a card: %(reason)s (%(notation)s)',
            token=shown,
            reason=reason,
            notation=NOTATION_HELP,
        )
        super().__init__(self.message)


def parse_card(token: str) -> Card:
    """One card from its notation, case-insensitive: "10h", "AS", "jk", and the same
    with T for ten, a suit symbol or JOKER: "T\u2665", "A\u2660", "joker"."""
    text = token.strip().upper().replace(EMOJI_PRESENTATION, "")
    if text in (JOKER, JOKER_WORD):
        return Card(JOKER)
    if text.startswith((JOKER, JOKER_WORD)):
        raise CardNotationError(token, say("a joker has no suit"))
    # "10" is the only two-character rank, so try it before reading one character.
    rank, typed_suit = (text[:2], text[2:]) if text.startswith("10") else (text[:1], text[1:])
    if rank == TEN_LETTER:
        rank = "10"
    if rank not in RANKS:
        raise CardNotationError(token, say('unknown rank "%(rank)s"', rank=rank))
    if not typed_suit:
        raise CardNotationError(token, say("no suit given"))
    suit = "".join(SUIT_SYMBOLS.get(char, char) for char in typed_suit)
    if suit not in SUITS:
        raise CardNotationError(token, say('unknown suit "%(suit)s"', suit=typed_suit))
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Every card in `text`, in the order typed; "" gives [].

    Raises CardNotationError naming the first token that is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"card notation must be text, not {type(text).__name__}")
    return [parse_card(token) for token in _SEPARATORS.split(text) if token]


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical notation, parse_cards' inverse: "JK AS 10H 7D"."""
    return " ".join(str(card) for card in cards)


@dataclass(frozen=True, slots=True)
class Deck:
    """The event's deck: `packs` full 52-card packs plus `jokers` jokers.

    It is an event setting because it bounds what a hand can score
    (RULES.md, "Players, packs, table size").
    """

    packs: int = 2
    jokers: int = 4

    def __post_init__(self) -> None:
        if not is_whole_number(self.packs) or self.packs < 1:
            raise ValueError(f"a deck needs at least one pack of 52 cards, not {self.packs!r}")
        if not is_whole_number(self.jokers) or self.jokers < 0:
            raise ValueError(f"the number of jokers must be 0 or more, not {self.jokers!r}")

    @property
    def size(self) -> int:
        return CARDS_PER_PACK * self.packs + self.jokers

    def copies(self, card: Card) -> int:
        """How many of this exact card the deck holds."""
        return self.jokers if card.is_joker else self.packs

    def cards(self) -> tuple[Card, ...]:
        """The whole deck, every copy of every card."""
        naturals = [Card(rank, suit) for suit in SUITS for rank in RANKS] * self.packs
        return (*naturals, *[Card(JOKER)] * self.jokers)

    def point_counts(self) -> tuple[tuple[int, int], ...]:
        """(points, how many cards are worth that), dearest first; zero counts omitted."""
        return deck_point_counts(self.packs, self.jokers)

    @property
    def total_points(self) -> int:
        return sum(points * n for points, n in self.point_counts())

    def max_points(self, n_cards: int) -> int:
        """The most `n_cards` cards from this deck can be worth.

        Taking the dearest cards first (jokers, black aces, tens and court cards,
        nines, ... red aces) is optimal for a sum, so the greedy total is exact.
        More cards than the deck holds is simply the whole deck.
        """
        if not is_whole_number(n_cards) or n_cards < 0:
            raise ValueError(f"a number of cards must be 0 or more, not {n_cards!r}")
        total, left = 0, n_cards
        for points, n in self.point_counts():
            taken = min(n, left)
            total += points * taken
            left -= taken
            if not left:
                break
        return total


# Worked out once per kind of deck: every bound of every hand checked asks for it (a
# 1,024-player event's 23,000 hands asked 80,000 times, most of their checking time).
@functools.lru_cache(maxsize=64)
def deck_point_counts(packs: int, jokers: int) -> tuple[tuple[int, int], ...]:
    """`Deck.point_counts` for a deck of `packs` packs and `jokers` jokers."""
    counts: dict[int, int] = {}
    for card in (Card(rank, suit) for suit in SUITS for rank in RANKS):
        counts[card.points] = counts.get(card.points, 0) + packs
    counts[JOKER_POINTS] = counts.get(JOKER_POINTS, 0) + jokers
    return tuple((points, n) for points, n in sorted(counts.items(), reverse=True) if n)


STANDARD_DECK = Deck()
