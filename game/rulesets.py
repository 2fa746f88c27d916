"""The rulesets: how many hands a set has, the cards dealt and the contract of each
(RULES.md, the Jamaican and the Trinidad tables); what an event agrees on top of its
ruleset (`TableRules`); whether a deck can deal a set at all. No Django here."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from game.cards import Deck, is_whole_number
from game.words import Said, say, say_plural

CALLS_ALLOWED = 3  # per player per hand
CARDS_PER_CALL = 2  # the discard plus one from the stock
DIRECTOR_PENALTY_MIN, DIRECTOR_PENALTY_MAX = 50, 500


@dataclass(frozen=True)
class HandSpec:
    """One hand of a set: how many cards are dealt and the contract to lay down."""

    number: int
    cards_dealt: int
    threes: int
    fours: int

    @property
    def contract(self) -> Said:
        """In words, threes first: "two threes, one four"."""
        if self.threes and self.fours:
            return say(
                "%(threes)s, %(fours)s", threes=_threes(self.threes), fours=_fours(self.fours)
            )
        return _threes(self.threes) if self.threes else _fours(self.fours)

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
                say_plural(
                    "hand %(number)s does not exist: a %(ruleset)s set has %(hands)s hands",
                    "hand %(number)s does not exist: a %(ruleset)s set has %(hands)s hands",
                    self.hand_count,
                    number=number,
                    ruleset=self.code,
                    hands=self.hand_count,
                )
            )
        return self.hands[number - 1]


def _threes(n: int) -> Said:
    # Each count its own words: a language may not say "two" alike before every noun.
    if n == 1:
        return say("one three")
    if n == 2:
        return say("two threes")
    if n == 3:
        return say("three threes")
    if n == 4:
        return say("four threes")
    return say_plural("%(count)s three", "%(count)s threes", n, count=n)


def _fours(n: int) -> Said:
    if n == 1:
        return say("one four")
    if n == 2:
        return say("two fours")
    if n == 3:
        return say("three fours")
    if n == 4:
        return say("four fours")
    return say_plural("%(count)s four", "%(count)s fours", n, count=n)


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
    "jamaica": Ruleset("jamaica", say("Jamaican Kalooki"), _JAMAICA_HANDS),
    "jamaica-12": Ruleset(
        "jamaica-12", say("Jamaican Kalooki, 12 cards in hands 1-3"), _JAMAICA_12_HANDS
    ),
    "trinidad": Ruleset(
        "trinidad",
        say("Trinidad and Tobago Kalooki"),
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


# --- What an event agrees on top of its ruleset --------------------------------------


@dataclass(frozen=True)
class TableRules:
    """The agreed variants the rules engine applies to every hand of an event.

    RULES.md leaves these to "prior agreement": an event sets them (`Event.table_rules`),
    and a house ruleset can supply the same object. Plain values, checked here, so a
    bad one is a bug in the caller (ValueError), never a director's mistake.
    """

    # What an over-call or a false laydown costs (RULES.md: 50 to 500).
    director_penalty: int = 100
    # Whether an over-call is charged. Without it an over-call is still recorded, for
    # the extra cards its calls brought and because the player may not go out; it
    # costs nothing.
    overcall_penalty: bool = True
    # Whether a down and out doubles the others' card points; None: the ruleset's own
    # rule (Jamaica doubles, Trinidad does not unless the event agrees to it).
    down_and_out: bool | None = None
    # Whether a penalty may carry its own amount (50 to 500) instead of the agreed one.
    penalty_per_hand: bool = False
    # What a false laydown costs when a house ruleset prices it apart from an over-call
    # (None: the director penalty, like an over-call).
    false_laydown_penalty: int | None = None

    def __post_init__(self) -> None:
        penalty = self.director_penalty
        if not is_whole_number(penalty) or not (
            DIRECTOR_PENALTY_MIN <= penalty <= DIRECTOR_PENALTY_MAX
        ):
            raise ValueError(f"director_penalty must be 50 to 500, not {penalty!r}")
        for name in ("overcall_penalty", "penalty_per_hand"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        laydown = self.false_laydown_penalty
        if laydown is not None and (
            not is_whole_number(laydown)
            or not (DIRECTOR_PENALTY_MIN <= laydown <= DIRECTOR_PENALTY_MAX)
        ):
            raise ValueError(f"false_laydown_penalty must be 50 to 500, not {laydown!r}")
        if self.down_and_out is not None and not isinstance(self.down_and_out, bool):
            raise ValueError(f"down_and_out must be true, false or None, not {self.down_and_out!r}")

    def doubles(self, ruleset: Ruleset) -> bool:
        """Whether a down and out doubles the others' card points in this ruleset."""
        return ruleset.down_and_out_allowed if self.down_and_out is None else self.down_and_out


DEFAULT_TABLE_RULES = TableRules()


def deal_problem(ruleset: Ruleset, deck: Deck, players: int) -> Said | None:
    """Why `deck` cannot deal every hand of a set to a table of `players` (None: it can).

    A deal gives each player their cards and leaves at least one card for the stock:
    hand 7 of a Jamaican set at a table of four needs 4 x 14 + 1 = 57 cards, more than
    one pack without jokers holds. The first hand that cannot be dealt is named.
    """
    spec = next((h for h in ruleset.hands if h.cards_dealt * players + 1 > deck.size), None)
    if spec is None:
        return None
    packs = say_plural("%(packs)s pack", "%(packs)s packs", deck.packs, packs=deck.packs)
    jokers = (
        say_plural("%(jokers)s joker", "%(jokers)s jokers", deck.jokers, jokers=deck.jokers)
        if deck.jokers
        else say("no jokers")
    )
    return say_plural(
        "hand %(hand)s deals %(cards)s cards to each of %(players)s players (%(dealt)s) and "
        "needs at least one more for the stock, but %(packs)s and %(jokers)s make %(size)s "
        "cards",
        "hand %(hand)s deals %(cards)s cards to each of %(players)s players (%(dealt)s) and "
        "needs at least one more for the stock, but %(packs)s and %(jokers)s make %(size)s "
        "cards",
        deck.size,
        hand=spec.number,
        cards=spec.cards_dealt,
        players=players,
        dealt=spec.cards_dealt * players,
        packs=packs,
        jokers=jokers,
        size=deck.size,
    )


# --- House rules: a ruleset an organiser defines ---------------------------------------

HOUSE_MAX_HANDS = 20
HOUSE_CARDS_DEALT = (5, 20)
HOUSE_MAX_MELDS = 6
HOUSE_JOKERS_PER_PACK = (0, 8)


def house_ruleset(code: str, name: str, values: dict) -> Ruleset:
    """A custom ruleset as the rules engine reads it, from its values (`check_house`):
    the hands, and whether a down and out doubles. No challenge: that is Trinidad's."""
    return Ruleset(
        code=code,
        name=name,
        hands=tuple(
            HandSpec(i, h["cards_dealt"], h["threes"], h["fours"])
            for i, h in enumerate(values["hands"], start=1)
        ),
        down_and_out_allowed=bool(values["down_and_out_doubles"]),
    )


def house_table_rules(values: dict, *, penalty_per_hand: bool = False) -> TableRules:
    """What a custom ruleset agrees for every hand: its own penalty amounts."""
    return TableRules(
        director_penalty=values["overcall_penalty"],
        false_laydown_penalty=values["false_laydown_penalty"],
        down_and_out=bool(values["down_and_out_doubles"]),
        penalty_per_hand=penalty_per_hand,
    )


def check_house(values: dict) -> dict[str, Said]:
    """What is wrong with a custom ruleset's values, by field ({}: nothing). A hand's
    contract must be playable from its deal: three cards per three, four per four,
    at most the cards dealt plus the three calls' cards (RULES.md)."""
    problems: dict[str, Said] = {}
    hands = values.get("hands")
    if not isinstance(hands, list) or not 1 <= len(hands) <= HOUSE_MAX_HANDS:
        problems["hands"] = say_plural(
            "give 1 to %(most)s hands",
            "give 1 to %(most)s hands",
            HOUSE_MAX_HANDS,
            most=HOUSE_MAX_HANDS,
        )
    else:
        problems.update(_house_hands_problem(hands))
    low, high = HOUSE_JOKERS_PER_PACK
    jokers = values.get("jokers_per_pack")
    if not is_whole_number(jokers) or not low <= jokers <= high:
        problems["jokers_per_pack"] = say_plural(
            "%(least)s to %(most)s jokers per pack",
            "%(least)s to %(most)s jokers per pack",
            high,
            least=low,
            most=high,
        )
    for name in ("overcall_penalty", "false_laydown_penalty"):
        amount = values.get(name)
        if not is_whole_number(amount) or not (
            DIRECTOR_PENALTY_MIN <= amount <= DIRECTOR_PENALTY_MAX
        ):
            problems[name] = say_plural(
                "%(least)s to %(most)s points",
                "%(least)s to %(most)s points",
                DIRECTOR_PENALTY_MAX,
                least=DIRECTOR_PENALTY_MIN,
                most=DIRECTOR_PENALTY_MAX,
            )
    if not isinstance(values.get("down_and_out_doubles"), bool):
        problems["down_and_out_doubles"] = say("true or false")
    return problems


def _house_hands_problem(hands: list) -> dict[str, Said]:
    """What is wrong with the first wrong hand of a custom ruleset ({}: none is)."""
    low, high = HOUSE_CARDS_DEALT
    for i, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or set(hand) != {"cards_dealt", "threes", "fours"}:
            return {"hands": say('hand %(hand)s: give {"cards_dealt", "threes", "fours"}', hand=i)}
        dealt, threes, fours = hand["cards_dealt"], hand["threes"], hand["fours"]
        if not all(is_whole_number(v) for v in (dealt, threes, fours)):
            return {"hands": say("hand %(hand)s: whole numbers only", hand=i)}
        if not low <= dealt <= high:
            why = say_plural(
                "hand %(hand)s: deal %(least)s to %(most)s cards, not %(dealt)s",
                "hand %(hand)s: deal %(least)s to %(most)s cards, not %(dealt)s",
                high,
                hand=i,
                least=low,
                most=high,
                dealt=dealt,
            )
            return {"hands": why}
        melds = threes + fours
        if threes < 0 or fours < 0 or not 1 <= melds <= HOUSE_MAX_MELDS:
            why = say_plural(
                "hand %(hand)s: a contract of 1 to %(most)s melds",
                "hand %(hand)s: a contract of 1 to %(most)s melds",
                HOUSE_MAX_MELDS,
                hand=i,
                most=HOUSE_MAX_MELDS,
            )
            return {"hands": why}
        if 3 * threes + 4 * fours > dealt + CARDS_PER_CALL * CALLS_ALLOWED:
            why = say_plural(
                "hand %(hand)s: %(cards)s cards of melds cannot come from %(dealt)s dealt and "
                "three calls",
                "hand %(hand)s: %(cards)s cards of melds cannot come from %(dealt)s dealt and "
                "three calls",
                3 * threes + 4 * fours,
                hand=i,
                cards=3 * threes + 4 * fours,
                dealt=dealt,
            )
            return {"hands": why}
    return {}
