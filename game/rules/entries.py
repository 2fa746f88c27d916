"""What a director enters for one hand (the API's PUT body) and what scoring produces
from it. No Django here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from game.cards import Card

# --- What a director enters (the API's PUT body) ---------------------------------------


@dataclass(frozen=True)
class SeatEntry:
    """A seat's card penalty: `points`, or the `cards` held ("JK AS 10H"), not both."""

    seat: int
    points: int | None = None
    cards: str | None = None


@dataclass(frozen=True)
class PenaltyEntry:
    seat: int
    kind: str  # one of PENALTY_KINDS (penalties.py)
    extra_calls: int | None = None  # calls beyond three (overcall, right challenge)
    points: int | None = None  # None: the event's director penalty, or 50 for a challenge


@dataclass(frozen=True)
class HandEntry:
    redeal: bool = False
    went_out: int | None = None
    down_and_out: bool = False
    scores: tuple[SeatEntry, ...] = ()
    penalties: tuple[PenaltyEntry, ...] = ()


# --- What scoring produces -------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    seat: int
    card_points: int
    penalty_points: int
    score: int
    cards: tuple[Card, ...] | None = None  # when entered card by card
    sat_out: bool = False  # a Trinidad challenge put this player out of the hand


@dataclass(frozen=True)
class PenaltyResult:
    """A penalty as charged: the director's entry with its defaults filled in."""

    seat: int
    kind: str
    points: int
    extra_calls: int  # calls beyond three; 0 for a false laydown


Outcome = Literal["scored", "redeal"]


@dataclass(frozen=True)
class ScoredHand:
    number: int
    contract: str
    cards_dealt: int
    outcome: Outcome
    went_out: int | None
    down_and_out: bool
    results: tuple[SeatResult, ...]  # by seat; empty for a redeal
    penalties: tuple[PenaltyResult, ...] = ()  # as charged, by seat and kind

    def result_for(self, seat: int) -> SeatResult:
        for result in self.results:
            if result.seat == seat:
                return result
        raise KeyError(seat)
