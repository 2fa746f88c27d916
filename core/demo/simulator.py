"""Playing out one hand at a table as far as scoring needs, for the demo's sheets."""

from __future__ import annotations

import random

from game import rules
from game.cards import Card, Deck


class Simulator:
    """Plays hands at one table well enough to produce a director's sheet."""

    def __init__(self, rng: random.Random, ruleset: rules.Ruleset, deck: Deck, penalty: int):
        self.rng = rng
        self.ruleset = ruleset
        self.deck = deck
        self.penalty = penalty
        self.cards = [
            Card(rank, suit)
            for _ in range(deck.packs)
            for suit in "SHDC"
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        ] + [Card("JK", None)] * deck.jokers

    def hand_entry(self, number: int, seats: list[int]) -> rules.HandEntry:
        """One scored hand's sheet row, as a director would enter it."""
        rng = self.rng
        spec = self.ruleset.hand(number)
        deck = self.cards[:]
        rng.shuffle(deck)
        went_out = rng.choice(seats)
        down_and_out = self.ruleset.down_and_out_allowed and rng.random() < 0.06
        # One hand in forty or so, someone is caught with more than three calls.
        over_caller = None
        if rng.random() < 0.025:
            over_caller = rng.choice([s for s in seats if s != went_out])
        by_cards = rng.random() < 0.15  # some sheets list the cards held
        scores, position = [], 0
        for seat in seats:
            if seat == went_out:
                continue
            held = spec.cards_dealt + 2 * rng.randint(0, 3)
            if seat == over_caller:
                held += 2
            # Down and out catches everyone holding most of a hand.
            share = rng.uniform(0.6, 1.0) if down_and_out else rng.betavariate(2.0, 3.0)
            keep = max(1, min(held, round(held * share)))
            cards = deck[position : position + keep]
            position += keep
            if by_cards:
                scores.append(rules.SeatEntry(seat=seat, cards=" ".join(map(str, cards))))
            else:
                scores.append(rules.SeatEntry(seat=seat, points=sum(c.points for c in cards)))
        penalties = ()
        if over_caller is not None:
            penalties = (rules.PenaltyEntry(seat=over_caller, kind="overcall", extra_calls=1),)
        return rules.HandEntry(
            went_out=went_out,
            down_and_out=down_and_out,
            scores=tuple(scores),
            penalties=penalties,
        )
