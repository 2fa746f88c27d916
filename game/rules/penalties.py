"""Penalties in one hand: the director penalties (over-call, false laydown) at the
event's agreed amount, and Trinidad's challenge, the remedy for over-calling, at its
fixed 50 points. RULES.md, "Director penalties", and Trinidad's "Challenge". No Django
here.
"""

from __future__ import annotations

from game.cards import is_whole_number
from game.rules.bounds import BoundChecks
from game.rules.check import Charges
from game.rules.entries import PenaltyEntry, PenaltyResult
from game.rules.problems import show
from game.rulesets import (
    CARDS_PER_CALL,
    DIRECTOR_PENALTY_MAX,
    DIRECTOR_PENALTY_MIN,
    TableRules,
)
from game.words import say, say_plural

CHALLENGE_POINTS = 50

OVERCALL, FALSE_LAYDOWN, CHALLENGE = "overcall", "false_laydown", "challenge"
PENALTY_KINDS: tuple[str, ...] = (OVERCALL, FALSE_LAYDOWN, CHALLENGE)
PENALTY_LABELS = {OVERCALL: "Over-call", FALSE_LAYDOWN: "False laydown", CHALLENGE: "Challenge"}


def default_penalty_points(kind: str, table_rules: TableRules) -> int:
    """What a penalty costs when the director gives no amount: a challenge its fixed 50,
    an over-call nothing where the event charges none, the others the agreed director
    penalty."""
    if kind == CHALLENGE:
        return CHALLENGE_POINTS
    if kind == OVERCALL and not table_rules.overcall_penalty:
        return 0
    if kind == FALSE_LAYDOWN and table_rules.false_laydown_penalty is not None:
        return table_rules.false_laydown_penalty
    return table_rules.director_penalty


class PenaltyChecks(BoundChecks):
    """Reads one hand's penalties, seat by seat, with what each costs."""

    # RULES.md, "Director penalties", and Trinidad's "Challenge".
    def check_penalties(self, raw: object) -> dict[int, Charges]:
        charges = {seat: Charges() for seat in self.table}
        seen: set[tuple[int, str]] = set()
        for i, item in self.entries(raw, "penalties", PenaltyEntry, say("a penalty")):
            seat = self.seat_of(i, item.seat, "penalties")
            if seat is None:
                continue
            kind = item.kind
            if not isinstance(kind, str) or kind not in PENALTY_KINDS:
                kinds, shown = ", ".join(PENALTY_KINDS), show(kind)
                self.problem(
                    "penalties",
                    "penalty_kind_unknown",
                    say(
                        "seat %(seat)s: %(value)s is not a penalty (%(kinds)s)",
                        seat=seat,
                        value=shown,
                        kinds=kinds,
                    ),
                    seats=(seat,),
                    value=shown,
                )
                continue
            if (seat, kind) in seen:
                self.problem(
                    "penalties",
                    "penalty_twice",
                    say("seat %(seat)s has more than one %(kind)s penalty", seat=seat, kind=kind),
                    seats=(seat,),
                    kind=kind,
                )
                continue
            seen.add((seat, kind))
            points = self.penalty_points(item, seat, seat == self.went_out)
            extra = self.check_extra_calls(item, seat)
            self.charged.append(PenaltyResult(seat, kind, points, extra))
            charge = charges[seat]
            charge.points += points
            charge.extra_calls = max(charge.extra_calls, extra)
            charge.sat_out = charge.sat_out or kind == CHALLENGE
            charge.calls_unsaid |= kind == CHALLENGE and item.extra_calls is None
        self.check_challenge_remedy(seen)
        return charges

    def check_challenge_remedy(self, seen: set[tuple[int, str]]) -> None:
        """In Trinidad the challenge is the remedy for over-calling: a seat is charged
        one or the other in a hand, never both."""
        if not self.ruleset.challenge_allowed:
            return
        for seat in sorted({seat for seat, kind in seen if kind == CHALLENGE}):
            if (seat, OVERCALL) in seen:
                why = say(
                    "seat %(seat)s is charged both a challenge and an over-call, but in a "
                    "%(ruleset)s set the challenge is the remedy for over-calling: charge the "
                    "challenge only, with its extra_calls",
                    seat=seat,
                    ruleset=self.ruleset.code,
                )
                self.problem("penalties", "challenge_and_overcall", why, seats=(seat,))

    def penalty_points(self, item: PenaltyEntry, seat: int, went_out: bool) -> int:
        kind, points, on_seat = item.kind, item.points, {"seats": (seat,)}
        if kind == CHALLENGE:
            if not self.ruleset.challenge_allowed:
                why = say(
                    "seat %(seat)s: a challenge is a Trinidad rule; a %(ruleset)s set has none",
                    seat=seat,
                    ruleset=self.ruleset.code,
                )
                self.problem(
                    "penalties", "challenge_not_allowed", why, ruleset=self.ruleset.code, **on_seat
                )
            if went_out:
                why = say(
                    "seat %(seat)s went out, so it cannot have sat out a challenge", seat=seat
                )
                self.problem("penalties", "challenge_went_out", why, **on_seat)
            if points is not None and (not is_whole_number(points) or points != CHALLENGE_POINTS):
                shown = show(points)
                why = say_plural(
                    "seat %(seat)s: a challenge costs %(cost)s points, not %(value)s",
                    "seat %(seat)s: a challenge costs %(cost)s points, not %(value)s",
                    CHALLENGE_POINTS,
                    seat=seat,
                    cost=CHALLENGE_POINTS,
                    value=shown,
                )
                self.problem("penalties", "challenge_points", why, value=shown, **on_seat)
            return CHALLENGE_POINTS
        if kind == OVERCALL and went_out:
            why = say(
                "seat %(seat)s went out, but a player charged an over-call may not go out in "
                "that hand",
                seat=seat,
            )
            self.problem("penalties", "overcall_went_out", why, **on_seat)
        if kind == FALSE_LAYDOWN and went_out:
            why = say(
                "seat %(seat)s went out, but a false laydown is charged to a player who laid "
                "down without the contract and so did not go out: record who really went out",
                seat=seat,
            )
            self.problem("penalties", "false_laydown_went_out", why, **on_seat)
        agreed = default_penalty_points(kind, self.table_rules)
        if points is None or (is_whole_number(points) and points == agreed):
            return agreed
        if kind == OVERCALL and not self.table_rules.overcall_penalty:
            shown = show(points)
            why = say(
                "seat %(seat)s: this event charges nothing for an over-call (it is recorded for "
                "its calls), so give no points, not %(value)s",
                seat=seat,
                value=shown,
            )
            self.problem("penalties", "overcall_not_charged", why, value=shown, **on_seat)
            return 0
        if not self.table_rules.penalty_per_hand:
            shown = show(points)
            why = say_plural(
                "seat %(seat)s: this event's agreed penalty is %(agreed)s points, not %(value)s "
                "(amounts per hand are not allowed)",
                "seat %(seat)s: this event's agreed penalty is %(agreed)s points, not %(value)s "
                "(amounts per hand are not allowed)",
                agreed,
                seat=seat,
                agreed=agreed,
                value=shown,
            )
            self.problem(
                "penalties", "penalty_points_fixed", why, value=shown, agreed=agreed, **on_seat
            )
            return agreed
        if (
            not is_whole_number(points)
            or not DIRECTOR_PENALTY_MIN <= points <= DIRECTOR_PENALTY_MAX
        ):
            shown = show(points)
            why = say_plural(
                "seat %(seat)s: a director penalty is %(least)s to %(most)s points, not %(value)s",
                "seat %(seat)s: a director penalty is %(least)s to %(most)s points, not %(value)s",
                DIRECTOR_PENALTY_MAX,
                seat=seat,
                least=DIRECTOR_PENALTY_MIN,
                most=DIRECTOR_PENALTY_MAX,
                value=shown,
            )
            self.problem("penalties", "penalty_points_range", why, value=shown, **on_seat)
            return 0
        return points

    def check_extra_calls(self, item: PenaltyEntry, seat: int) -> int:
        """Calls beyond three: at least one for an over-call, optional for a challenge."""
        extra, least, on_seat = (
            item.extra_calls,
            1 if item.kind == OVERCALL else 0,
            {"seats": (seat,)},
        )
        if item.kind == FALSE_LAYDOWN:
            if extra is not None:
                why = say(
                    "seat %(seat)s: extra_calls belongs to an overcall or a challenge", seat=seat
                )
                self.problem("penalties", "extra_calls_not_allowed", why, **on_seat)
            return 0
        if extra is None:
            return least
        if not is_whole_number(extra) or extra < 1:
            shown = show(extra)
            why = say(
                "seat %(seat)s: extra_calls counts the calls beyond three, at least 1, not "
                "%(value)s",
                seat=seat,
                value=shown,
            )
            self.problem("penalties", "extra_calls_invalid", why, value=shown, **on_seat)
            return least
        most = self.most_extra_calls()
        if extra > most:
            why = say_plural(
                "seat %(seat)s: %(extra)s extra calls is more than the deck allows: each call "
                "takes %(per_call)s cards, so at most %(most)s beyond three",
                "seat %(seat)s: %(extra)s extra calls is more than the deck allows: each call "
                "takes %(per_call)s cards, so at most %(most)s beyond three",
                extra,
                seat=seat,
                extra=extra,
                per_call=CARDS_PER_CALL,
                most=most,
            )
            self.problem(
                "penalties", "extra_calls_too_many", why, extra=extra, most=most, **on_seat
            )
            return least
        return extra
