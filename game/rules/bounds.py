"""What the deck allows in one hand: how many cards a seat can hold (the deal, three
calls and any extra calls the deck can feed), how many card points those are worth,
how many copies of a card the table can hold, and what the seats' card points can
add up to between them. RULES.md "Consequences for score entry", rules 3 and 5. No
Django here.
"""

from __future__ import annotations

from collections import Counter

from game.rules.check import Check, Held
from game.rules.problems import listed
from game.rulesets import CALLS_ALLOWED, CARDS_PER_CALL
from game.words import Said, say, say_plural


def cards_held(count: int) -> Said:
    """What a seat holds, in cards: "14 cards"."""
    return say_plural("%(count)s cards", "%(count)s cards", count, count=count)


def points_held(points: int) -> Said:
    """What a seat holds, in card points: "200 points"."""
    return say_plural("%(points)s points", "%(points)s points", points, points=points)


class BoundChecks(Check):
    """The bounds the deck puts on one hand's entry."""

    def most_extra_calls(self) -> int:
        """The most calls beyond three that the deck can feed one player in this hand:
        what is left of it after every seat's deal and the first discard, at
        CARDS_PER_CALL a call (RULES.md, "Decided for tournaments")."""
        dealt = self.spec.cards_dealt if self.spec is not None else 0
        left = self.deck.size - dealt * len(self.table) - 1
        return max(0, left // CARDS_PER_CALL - CALLS_ALLOWED)

    def check_bound(self, seat: int, points: int) -> None:
        """RULES.md rule 3: no more than the dearest cards a player can hold are worth."""
        most, why = self.most_held(seat)
        bound = self.deck.max_points(most)
        if points > bound and self.charges[seat].calls_unsaid:
            self.challenge_needs_calls(seat, points_held(points), most, why, calls=None)
        elif points > bound:
            message = say_plural(
                "seat %(seat)s: %(points)s points is more than %(most)s cards can hold "
                "(%(bound)s; %(why)s)",
                "seat %(seat)s: %(points)s points is more than %(most)s cards can hold "
                "(%(bound)s; %(why)s)",
                points,
                seat=seat,
                points=points,
                most=most,
                bound=bound,
                why=why,
            )
            self.problem(
                "scores",
                "points_over_bound",
                message,
                seats=(seat,),
                points=points,
                most=most,
                bound=bound,
                why=why,
            )

    def challenge_needs_calls(
        self, seat: int, holds: Said, most: int, why: Said, *, calls: int | None
    ) -> None:
        """A challenged seat holding more than three calls allow: the challenge was
        right, and its extra calls are what make the hand possible."""
        least = say("at least %(calls)s", calls=calls or 1)
        message = say(
            "seat %(seat)s: %(holds)s is more than %(most)s cards allow (%(why)s); the "
            "challenge was right, so give its extra_calls, the calls seat %(seat)s made "
            "beyond three (%(least)s)",
            seat=seat,
            holds=holds,
            most=most,
            why=why,
            least=least,
        )
        self.problem(
            "scores",
            "challenge_extra_calls",
            message,
            seats=(seat,),
            holds=holds,
            most=most,
            least=least,
        )

    def most_held(self, seat: int) -> tuple[int, Said]:
        """How many cards this seat can hold in this hand, and why."""
        spec, extra = self.spec, self.charges[seat].extra_calls
        if spec is None:  # the hand number is wrong: only the whole deck bounds a seat
            return self.deck.size, say("the whole deck")
        deal = {"hand": spec.number, "dealt": spec.cards_dealt}
        if not extra:
            why = say("hand %(hand)s deals %(dealt)s, plus 6 from three calls", **deal)
        else:
            why = say_plural(
                "hand %(hand)s deals %(dealt)s, plus 6 from three calls and %(cards)s from "
                "%(extra)s extra call",
                "hand %(hand)s deals %(dealt)s, plus 6 from three calls and %(cards)s from "
                "%(extra)s extra calls",
                extra,
                cards=CARDS_PER_CALL * extra,
                extra=extra,
                **deal,
            )
        return spec.max_held(extra), why

    def check_copies(self, held: dict[int, Held]) -> None:
        """RULES.md rule 5: the table cannot hold more of a card than the deck has.

        A Trinidad player who sat out after a challenge put their cards at the bottom
        of the discard pile, from where they can come back into play: their cards are
        checked on their own, not against the rest of the table's."""
        sat_out = {seat for seat, charge in self.charges.items() if charge.sat_out}
        self.check_copies_among({s: h for s, h in held.items() if s not in sat_out})
        for seat in sorted(sat_out):
            self.check_copies_among({seat: held[seat]})

    def check_copies_among(self, held: dict[int, Held]) -> None:
        count = Counter(card for seat_held in held.values() for card in seat_held.cards or ())
        for card, n in count.items():
            copies = self.deck.copies(card)
            if n > copies:
                seats = [seat for seat, h in held.items() if h.cards and card in h.cards]
                where = (
                    say("seat %(seat)s", seat=seats[0])
                    if len(seats) == 1
                    else say("seats %(seats)s", seats=listed(seats))
                )
                holds = say("holds only %(copies)s", copies=copies) if copies else say("holds none")
                times = say("once") if n == 1 else say_plural("%(n)s times", "%(n)s times", n, n=n)
                why = say(
                    "the %(card)s appears %(times)s at the table (%(where)s), but the deck "
                    "%(holds)s",
                    card=str(card),
                    times=times,
                    where=where,
                    holds=holds,
                )
                self.problem(
                    "scores",
                    "card_copies",
                    why,
                    seats=seats,
                    card=str(card),
                    times=n,
                    copies=copies,
                )

    def check_table_bound(self, held: dict[int, Held]) -> None:
        """The table as a whole: the seats' card points together cannot be more than
        the dearest cards they can hold between them are worth. Each seat within its
        own bound is not enough: three seats at 400 in hand 9 would need 12 jokers.
        Seats that sat out a challenge are left out (their cards went back into play),
        as is any table where a seat is already over its own bound."""
        if any(p.code in _SEAT_BOUND_CODES for p in self.problems) or self.spec is None:
            return
        counted = [
            seat for seat in self.table if seat != self.went_out and not self.charges[seat].sat_out
        ]
        points = sum(held[seat].points for seat in counted)
        cards = sum(self.most_held(seat)[0] for seat in counted)
        bound = self.deck.max_points(cards)
        if len(counted) > 1 and points > bound:
            message = say(
                "the seats' card points add up to %(points)s, more than the %(cards)s cards "
                "they can hold between them are worth (%(bound)s, from a deck of %(size)s): "
                "check the scores",
                points=points,
                cards=cards,
                bound=bound,
                size=self.deck.size,
            )
            self.problem(
                "scores",
                "table_over_bound",
                message,
                seats=counted,
                points=points,
                cards=cards,
                bound=bound,
            )


_SEAT_BOUND_CODES = frozenset({"points_over_bound", "too_many_cards", "challenge_extra_calls"})
