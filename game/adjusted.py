"""Adjusted scores for hands a table could not play. Plain data, no Django.

Bridge's Law 12 (artificial adjusted scores) is the model: a hand that a player could
not play through no fault of their own (time ran out, the director force-closed the
round, the others at the table withdrew and fewer than three were left) is scored, once
the round is closed, at a score taken from the field: the players who did play that
hand number in that round. The set is then complete, and ranks as one in every format.

- The field of a hand: every score of that hand number in that round at tables of the
  same size, when there are at least `MIN_FIELD` of them; else at tables of any size;
  else (nobody played that hand number) every hand of the round at tables of that size,
  then of any size; else 0. A score in the field is the hand's score as played, without
  director penalties (those stay with the player who earned them).
- The rule (`RULE`) was chosen by measurement: bench/adjusted_scores.py simulates events
  whose tables are cut short at random and compares each rule's final ranking with the
  ranking the same events would have had played out in full (docs/benchmarks.md).
- A player the director marks at fault (slow play) gets a worse score: the field's 75th
  percentile for the hand (`AT_FAULT`).
- A player who withdrew mid-set is not adjusted: their set stays incomplete, and ranks
  as one (`game.ranking`).
- Every value is a whole number, rounded half up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.words import Said, say

FIELD_MEAN, FIELD_MEDIAN, PRO_RATA = "field_mean", "field_median", "pro_rata"
RULES: tuple[str, ...] = (FIELD_MEAN, FIELD_MEDIAN, PRO_RATA)
AT_FAULT = "at_fault"  # the field's 75th percentile for the hand
AT_FAULT_PERCENTILE = 75
# The rule events use (see the module's docstring and docs/benchmarks.md).
RULE = FIELD_MEAN
# Scores of one hand number at tables of one size needed before they alone are its field.
MIN_FIELD = 8

# How each rule reads on a page: "hand 9 adjusted: 61, the field's mean".
RULE_WORDS: dict[str, Said] = {
    FIELD_MEAN: say("the field's mean"),
    FIELD_MEDIAN: say("the field's median"),
    PRO_RATA: say("the player's own mean"),
    AT_FAULT: say("at fault: the field's 75th percentile"),
}

# The rule in a director's words, for the pages that say why a set was adjusted.
EXPLAINED: dict[str, Said] = {
    FIELD_MEAN: say("the mean score of everyone who played that hand in the round"),
    FIELD_MEDIAN: say("the median score of everyone who played that hand in the round"),
    PRO_RATA: say("the player's own mean over the hands they played in the set"),
}
AT_FAULT_EXPLAINED = say(
    "a player the director marks at fault (slow play) gets the field's 75th percentile "
    "for the hand instead: worse than three in four of those who played it"
)


def explained(rule: str = RULE) -> Said:
    """How a hand a table could not play is scored, as the pages say it."""
    return say(
        "Each hand unplayed is scored, once the round is closed, at %(rule)s (an adjusted "
        "score), so the set ranks as complete; %(at_fault)s. A player who withdrew keeps an "
        "incomplete set.",
        rule=EXPLAINED[rule],
        at_fault=AT_FAULT_EXPLAINED,
    )


@dataclass(frozen=True)
class SeatHands:
    """One seat's set in a closed round, as adjusting reads it."""

    seat: int
    table: int
    size: int  # the players seated at the table
    scores: Mapping[int, int]  # hand number -> its score as played (no director penalty)
    withdrew: bool = False  # the player left the table mid-set: never adjusted
    at_fault: bool = False  # marked at fault by the director for the hands unplayed


@dataclass(frozen=True)
class Adjustment:
    seat: int
    hand: int
    score: int
    at_fault: bool
    rule: str

    @property
    def words(self) -> Said:
        return words(self.hand, self.score, self.rule)


def words(hand: int, score: int, rule: str) -> Said:
    """An adjusted score as a page says it: "hand 9 adjusted: 61, the field's mean"."""
    return say(
        "hand %(hand)s adjusted: %(score)s, %(rule)s",
        hand=hand,
        score=score,
        rule=RULE_WORDS.get(rule, rule),
    )


def half_up(value: Fraction) -> int:
    return int((value + Fraction(1, 2)) // 1)


def mean(values: Sequence[int]) -> int:
    return half_up(Fraction(sum(values), len(values)))


def percentile(values: Sequence[int], q: int) -> int:
    """The q-th percentile by linear interpolation between the closest ranks (the
    spreadsheet PERCENTILE.INC), rounded half up; the 50th is the median."""
    ordered = sorted(values)
    position = Fraction(q, 100) * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return half_up(ordered[below] + (ordered[above] - ordered[below]) * fraction)


def median(values: Sequence[int]) -> int:
    return percentile(values, 50)


@dataclass
class Field:
    """Every score of a round, by hand number and table size, to draw adjusted scores
    from (see the module's docstring for the order they are looked in)."""

    by_hand_and_size: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )
    by_hand: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    by_size: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    every: list[int] = field(default_factory=list)

    def add(self, hand: int, size: int, score: int) -> None:
        self.by_hand_and_size[hand, size].append(score)
        self.by_hand[hand].append(score)
        self.by_size[size].append(score)
        self.every.append(score)

    def of(self, hand: int, size: int) -> list[int]:
        same_size = self.by_hand_and_size.get((hand, size), [])
        if len(same_size) >= MIN_FIELD:
            return same_size
        for values in (self.by_hand.get(hand), self.by_size.get(size), self.every):
            if values:
                return values
        return []


def field_of(seats: Iterable[SeatHands]) -> Field:
    found = Field()
    for seat in seats:
        for hand, score in seat.scores.items():
            found.add(hand, seat.size, score)
    return found


def adjust(seats: Sequence[SeatHands], hand_count: int, rule: str = RULE) -> list[Adjustment]:
    """The adjusted scores of a closed round: one for each hand 1..hand_count that a
    seat did not play, unless its player withdrew mid-set. `seats`: every seat of the
    round (the field is drawn from them)."""
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; known: {', '.join(RULES)}")
    found = field_of(seats)
    made = []
    for seat in seats:
        if seat.withdrew:
            continue
        for hand in range(1, hand_count + 1):
            if hand in seat.scores:
                continue
            values = found.of(hand, seat.size)
            if seat.at_fault:
                score = percentile(values, AT_FAULT_PERCENTILE) if values else 0
                made.append(Adjustment(seat.seat, hand, score, True, AT_FAULT))
                continue
            if rule == PRO_RATA and seat.scores:
                score = mean(list(seat.scores.values()))
            elif not values:
                score = 0
            elif rule == FIELD_MEDIAN:
                score = median(values)
            else:
                score = mean(values)
            made.append(Adjustment(seat.seat, hand, score, False, rule))
    return made
