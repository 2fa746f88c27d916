"""Scoring one hand at one table with every check: RULES.md "Consequences for score
entry" plus the sanity checks any JSON needs, all reported together so a director
fixes a score sheet in one pass. The hand's number, a redeal, who went out, a down and
out and each seat's score are read here; the deck's bounds (`bounds.py`) and the
penalties (`penalties.py`) are checked by the classes this one builds on. No Django
here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from game.cards import CardNotationError, Deck, hand_points, is_whole_number, parse_cards
from game.rules.bounds import cards_held
from game.rules.check import Held
from game.rules.entries import HandEntry, ScoredHand, SeatEntry, SeatResult
from game.rules.penalties import PenaltyChecks
from game.rules.problems import HandInvalid, listed, show
from game.rulesets import (
    CARDS_PER_CALL,
    DEFAULT_TABLE_RULES,
    HandSpec,
    Ruleset,
    TableRules,
)
from game.sets import TABLE_MAX, TABLE_MIN
from game.words import say, say_plural

# --- Scoring one hand --------------------------------------------------------------------


def score_hand(
    *,
    ruleset: Ruleset,
    deck: Deck,
    number: int,
    seats: Sequence[int],
    entry: HandEntry,
    table_rules: TableRules = DEFAULT_TABLE_RULES,
) -> ScoredHand:
    """Check a director's entry for one hand at one table and score it.

    `seats` are the positions playing at the table; `table_rules` what the event agreed
    (the director penalty, whether an over-call is charged, whether a down and out
    doubles, whether a penalty may carry its own amount). Bad entry data never raises
    anything but HandInvalid, carrying every problem found. The table, the deck and
    the agreed rules are the event's own settings, so a bad one there is a bug in the
    caller and raises a plain ValueError.
    """
    table = _table_seats(seats)
    if not isinstance(table_rules, TableRules):
        raise ValueError(f"table_rules must be a TableRules, not {table_rules!r}")
    return _HandCheck(ruleset, deck, table, table_rules).run(number, entry)


def _table_seats(seats: Sequence[int]) -> tuple[int, ...]:
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise ValueError(f"seats must be a list of seat numbers, not {seats!r}")
    table = tuple(seats)
    if not all(is_whole_number(seat) and seat >= 1 for seat in table) or len(set(table)) != len(
        table
    ):
        raise ValueError(f"seats must be distinct seat numbers from 1, not {table!r}")
    if not TABLE_MIN <= len(table) <= TABLE_MAX:
        raise ValueError(f"a table seats {TABLE_MIN} to {TABLE_MAX} players, not {len(table)}")
    return tuple(sorted(table))


class _HandCheck(PenaltyChecks):
    """Reads one hand's entry field by field, noting every problem on the way."""

    def run(self, number: object, entry: HandEntry) -> ScoredHand:
        if not isinstance(entry, HandEntry):
            raise TypeError(f"entry must be a HandEntry, not {type(entry).__name__}")
        self.spec = spec = self.check_number(number)
        # None is what an API layer passes for a flag left out: read it as false.
        redeal = False if entry.redeal is None else entry.redeal
        if not isinstance(redeal, bool):
            # Whether the hand was played decides every other check: stop here.
            shown = show(redeal)
            self.problem(
                "redeal",
                "redeal_not_bool",
                say("redeal must be true or false, not %(value)s", value=shown),
                value=shown,
            )
            raise HandInvalid(self.problems)
        if redeal:
            self.check_redeal(entry)
            if self.problems or spec is None:
                raise HandInvalid(self.problems)
            head = (spec.number, spec.contract, spec.cards_dealt)
            return ScoredHand(*head, "redeal", went_out=None, down_and_out=False, results=())

        self.went_out = went_out = self.check_went_out(entry.went_out)
        down_and_out = self.check_down_and_out(entry.down_and_out)
        self.charges = self.check_penalties(entry.penalties)
        held = self.check_scores(entry.scores)
        self.check_copies(held)
        self.check_table_bound(held)
        if self.problems or spec is None or went_out is None:
            raise HandInvalid(self.problems)

        results = []
        for seat in self.table:
            # Down and out doubles the others' card penalties only; director
            # penalties are added after (RULES.md, "Director penalties"). A challenge's
            # cards plus 50 are that seat's score for the hand: never doubled
            # (RULES.md, "Decided for tournaments").
            cards, charge = held[seat], self.charges[seat]
            factor = 2 if down_and_out and seat != went_out and not charge.sat_out else 1
            score = cards.points * factor + charge.points
            results.append(
                SeatResult(seat, cards.points, charge.points, score, cards.cards, charge.sat_out)
            )
        penalties = tuple(sorted(self.charged, key=lambda p: (p.seat, p.kind)))
        head = (spec.number, spec.contract, spec.cards_dealt)
        return ScoredHand(*head, "scored", went_out, down_and_out, tuple(results), penalties)

    def check_number(self, number: object) -> HandSpec | None:
        if not is_whole_number(number):
            shown = show(number)
            why = say("the hand number must be a whole number, not %(value)s", value=shown)
            self.problem("number", "number_not_whole", why, value=shown)
            return None
        if not self.ruleset.has_hand(number):
            self.problem(
                "number",
                "number_unknown",
                say_plural(
                    "hand %(number)s does not exist: a %(ruleset)s set has %(hands)s hands",
                    "hand %(number)s does not exist: a %(ruleset)s set has %(hands)s hands",
                    self.ruleset.hand_count,
                    number=number,
                    ruleset=self.ruleset.code,
                    hands=self.ruleset.hand_count,
                ),
                number=number,
                ruleset=self.ruleset.code,
                hands=self.ruleset.hand_count,
            )
            return None
        return self.ruleset.hand(number)

    def check_redeal(self, entry: HandEntry) -> None:
        if entry.went_out is not None:
            why = say("a redeal carries no scores: nobody went out")
            self.problem("went_out", "redeal_went_out", why)
        if entry.down_and_out is not False and entry.down_and_out is not None:
            why = say("a redeal carries no scores: the hand cannot be down and out")
            self.problem("down_and_out", "redeal_down_and_out", why)
        if entry.scores:
            why = say("a redeal carries no scores: leave the scores out")
            self.problem("scores", "redeal_scores", why)
        if entry.penalties:
            why = say("a redeal carries no scores, so no penalties either")
            self.problem("penalties", "redeal_penalties", why)

    def check_went_out(self, went_out: object) -> int | None:
        if went_out is None:
            why = say("a scored hand needs the seat that went out")
            self.problem("went_out", "went_out_missing", why)
        elif not is_whole_number(went_out):
            shown = show(went_out)
            why = say("went_out must be one seat number, not %(value)s", value=shown)
            self.problem("went_out", "went_out_not_seat", why, value=shown)
        elif went_out not in self.table:
            self.problem(
                "went_out",
                "went_out_not_at_table",
                say(
                    "seat %(seat)s is not at this table %(table)s",
                    seat=went_out,
                    table=self.at_table,
                ),
                seats=(went_out,),
                table=self.at_table,
            )
        else:
            return went_out
        return None

    def check_down_and_out(self, down_and_out: object) -> bool:
        if down_and_out is None:
            return False
        if not isinstance(down_and_out, bool):
            shown = show(down_and_out)
            why = say("down_and_out must be true or false, not %(value)s", value=shown)
            self.problem("down_and_out", "down_and_out_not_bool", why, value=shown)
            return False
        if down_and_out and not self.table_rules.doubles(self.ruleset):
            why = (
                say(
                    "a %(ruleset)s set has no down and out unless the event agrees to it "
                    "(trinidad_doubling): the others simply score their cards",
                    ruleset=self.ruleset.code,
                )
                if self.ruleset.challenge_allowed
                else say(
                    "a %(ruleset)s set has no down and out: its house rules do not double on "
                    "one, so the others simply score their cards",
                    ruleset=self.ruleset.code,
                )
            )
            self.problem("down_and_out", "down_and_out_not_allowed", why, ruleset=self.ruleset.code)
        return down_and_out

    # RULES.md, "Consequences for score entry", rules 1-3.
    def check_scores(self, raw: object) -> dict[int, Held]:
        by_seat: dict[int, SeatEntry] = {}
        twice: set[int] = set()
        for i, item in self.entries(raw, "scores", SeatEntry, say("a seat's score")):
            seat = self.seat_of(i, item.seat, "scores")
            if seat is not None and seat in by_seat and seat not in twice:
                why = say("seat %(seat)s has more than one score entry", seat=seat)
                self.problem("scores", "score_twice", why, seats=(seat,))
                twice.add(seat)
            elif seat is not None:
                by_seat[seat] = item

        held = {seat: Held() for seat in self.table}
        empty: list[int] = []  # seats other than went_out with nothing in hand
        for seat in self.table:
            item = by_seat.get(seat)
            if seat in twice or (item is None and seat == self.went_out):
                continue
            read = None if item is None else self.read_entry(seat, item)
            if read is not None:
                held[seat] = read
            if seat != self.went_out and (item is None or (read is not None and not read.points)):
                empty.append(seat)
        self.check_nobody_else_out(empty, by_seat)
        return held

    def read_entry(self, seat: int, item: SeatEntry) -> Held | None:
        points, went_out = item.points, seat == self.went_out
        on_seat = {"seats": (seat,)}
        if points is not None and item.cards is not None:
            why = say("seat %(seat)s: give either points or cards, not both", seat=seat)
            self.problem("scores", "points_and_cards", why, **on_seat)
        elif item.cards is not None:
            return self.read_cards(seat, item.cards)
        elif points is None:
            if went_out:
                return Held()
            why = say("seat %(seat)s: give either points or cards", seat=seat)
            self.problem("scores", "no_value", why, **on_seat)
        elif not is_whole_number(points):
            shown = show(points)
            why = say(
                "seat %(seat)s: points must be a whole number, not %(value)s",
                seat=seat,
                value=shown,
            )
            self.problem("scores", "points_not_whole", why, value=shown, **on_seat)
        elif points < 0:
            why = say(
                "seat %(seat)s: points cannot be negative (%(points)s)", seat=seat, points=points
            )
            self.problem("scores", "points_negative", why, points=points, **on_seat)
        elif went_out and points != 0:
            why = say(
                "seat %(seat)s went out, so its card points are 0, not %(points)s",
                seat=seat,
                points=points,
            )
            self.problem("scores", "went_out_points", why, points=points, **on_seat)
        else:
            self.check_bound(seat, points)
            return Held(points=points)
        return None

    def read_cards(self, seat: int, text: object) -> Held | None:
        on_seat = {"seats": (seat,)}
        if not isinstance(text, str):
            shown = show(text)
            why = say(
                'seat %(seat)s: cards must be text like "JK AS 10H", not %(value)s',
                seat=seat,
                value=shown,
            )
            self.problem("scores", "cards_not_text", why, value=shown, **on_seat)
            return None
        try:
            cards = tuple(parse_cards(text))
        except CardNotationError as error:
            self.problem(
                "scores",
                "card_notation",
                say("seat %(seat)s: %(error)s", seat=seat, error=error.message),
                token=error.token,
                reason=error.reason,
                **on_seat,
            )
            return None
        if seat == self.went_out and cards:
            why = say(
                "seat %(seat)s went out, so it holds no cards, not %(count)s",
                seat=seat,
                count=len(cards),
            )
            self.problem("scores", "went_out_cards", why, count=len(cards), **on_seat)
            return None
        most, why = self.most_held(seat)
        if len(cards) > most and self.charges[seat].calls_unsaid:
            calls = -(-(len(cards) - most) // CARDS_PER_CALL)
            self.challenge_needs_calls(seat, cards_held(len(cards)), most, why, calls=calls)
        elif len(cards) > most:
            message = say_plural(
                "seat %(seat)s: %(count)s cards, but a player can hold at most %(most)s (%(why)s)",
                "seat %(seat)s: %(count)s cards, but a player can hold at most %(most)s (%(why)s)",
                len(cards),
                seat=seat,
                count=len(cards),
                most=most,
                why=why,
            )
            self.problem(
                "scores",
                "too_many_cards",
                message,
                count=len(cards),
                most=most,
                why=why,
                **on_seat,
            )
        return Held(points=hand_points(cards), cards=cards)

    def check_nobody_else_out(self, empty: list[int], by_seat: dict[int, SeatEntry]) -> None:
        """RULES.md rules 1-2: one player goes out; everyone else holds a card."""
        if self.went_out is None:
            # went_out is missing or wrong: any one of these may have gone out, not two.
            if len(empty) > 1:
                why = say(
                    "seats %(seats)s show nothing in hand, but only one player can go out",
                    seats=listed(empty),
                )
                self.problem("scores", "several_empty", why, seats=empty)
            return
        # Worded as in API.md, which integrators may match on.
        for seat in empty:
            item, on_seat = by_seat.get(seat), {"seats": (seat,), "went_out": self.went_out}
            if item is None:
                why = say("seat %(seat)s: no score entered", seat=seat)
                self.problem("scores", "score_missing", why, **on_seat)
            elif item.cards is not None:
                why = say(
                    "seat %(seat)s: no cards entered, but only the player who went out can "
                    "hold no cards",
                    seat=seat,
                )
                self.problem("scores", "no_cards", why, **on_seat)
            else:
                why = say(
                    "seat %(seat)s: 0 points, but only the player who went out can score 0",
                    seat=seat,
                )
                self.problem("scores", "zero_points", why, **on_seat)
