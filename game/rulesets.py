"""The rulesets: how many hands a set has, the cards dealt and the contract of each
(RULES.md, the Jamaican and the Trinidad tables). No Django here."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from game.cards import is_whole_number

CALLS_ALLOWED = 3  # per player per hand
CARDS_PER_CALL = 2  # the discard plus one from the stock


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class HandSpec:
    """One hand of a set: how many cards are dealt and the contract to lay down."""

    number: int
    cards_dealt: int
    threes: int
    fours: int

    @property
    def contract(self) -> str:
        """In words, threes first: "two threes, one four"."""
        parts = ((self.threes, "three"), (self.fours, "four"))
        return ", ".join(
            f"{_COUNT_WORDS.get(n, str(n))} {meld if n == 1 else meld + 's'}"
            for n, meld in parts
            if n
        )

    def max_held(self, extra_calls: int = 0) -> int:
        """The most cards a player can hold: three calls add 6, each recorded extra call 2."""
        return self.cards_dealt + CARDS_PER_CALL * (CALLS_ALLOWED + extra_calls)


@dataclass(frozen=True)
class Ruleset:
    code: str
    name: str
    hands: tuple[HandSpec, ...]
    # Trinidad's rules only say "the others score their cards": no doubling there.
    down_and_out_allowed: bool = True
    challenge_allowed: bool = False

    def __post_init__(self) -> None:
        numbers = [spec.number for spec in self.hands]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"{self.code}: hands must be numbered 1 to n, not {numbers}")

    @property
    def hand_count(self) -> int:
        return len(self.hands)

    def has_hand(self, number: object) -> bool:
        return is_whole_number(number) and 1 <= number <= self.hand_count

    def hand(self, number: int) -> HandSpec:
        if not self.has_hand(number):
            raise ValueError(
                f"hand {number} does not exist: a {self.code} set has {self.hand_count} hands"
            )
        return self.hands[number - 1]


# RULES.md, "Jamaican Kalooki: a set of 9 hands". Written out row by row, rather than
# computed from the invariant, so the tests can check the table against it.
_JAMAICA_HANDS = (
    HandSpec(1, 9, 3, 0),
    HandSpec(2, 10, 2, 1),
    HandSpec(3, 11, 1, 2),
    HandSpec(4, 12, 0, 3),
    HandSpec(5, 12, 4, 0),
    HandSpec(6, 13, 3, 1),
    HandSpec(7, 14, 2, 2),
    HandSpec(8, 15, 1, 3),
    HandSpec(9, 16, 0, 4),
)
# The 12-card variant changes the deal of hands 1-3 only; their contracts stay.
_JAMAICA_12_HANDS = tuple(
    dataclasses.replace(spec, cards_dealt=12) if spec.number <= 3 else spec
    for spec in _JAMAICA_HANDS
)
_TRINIDAD_HANDS = (
    HandSpec(1, 12, 2, 0),
    HandSpec(2, 12, 1, 1),
    HandSpec(3, 12, 0, 2),
    HandSpec(4, 12, 3, 0),
    HandSpec(5, 12, 2, 1),
    HandSpec(6, 12, 1, 2),
    HandSpec(7, 12, 0, 3),
)

RULESETS: dict[str, Ruleset] = {
    "jamaica": Ruleset("jamaica", "Jamaican Kalooki", _JAMAICA_HANDS),
    "jamaica-12": Ruleset(
        "jamaica-12", "Jamaican Kalooki, 12 cards in hands 1-3", _JAMAICA_12_HANDS
    ),
    "trinidad": Ruleset(
        "trinidad",
        "Trinidad and Tobago Kalooki",
        _TRINIDAD_HANDS,
        down_and_out_allowed=False,
        challenge_allowed=True,
    ),
}


def get_ruleset(code: str) -> Ruleset:
    try:
        return RULESETS[code]
    except (KeyError, TypeError):
        valid = ", ".join(RULESETS)
        raise ValueError(f"unknown ruleset {code!r}: the rulesets are {valid}") from None
