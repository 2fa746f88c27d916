"""Rulesets, contracts, and the scoring of one hand at one table with every check:
RULES.md "Consequences for score entry" plus the sanity checks any JSON needs, all
reported together so a director fixes a score sheet in one pass. No Django here.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from game.cards import (
    Card,
    CardNotationError,
    Deck,
    hand_points,
    is_whole_number,
    parse_cards,
)
from game.rulesets import (  # noqa: F401  (re-exported: callers use rules.get_ruleset)
    CALLS_ALLOWED,
    CARDS_PER_CALL,
    DEFAULT_TABLE_RULES,
    DIRECTOR_PENALTY_MAX,
    DIRECTOR_PENALTY_MIN,
    RULESETS,
    HandSpec,
    Ruleset,
    TableRules,
    deal_problem,
    get_ruleset,
)
from game.sets import (  # noqa: F401  (re-exported: callers use rules.set_result)
    TABLE_MAX,
    TABLE_MIN,
    SetResult,
    ends_after,
    set_result,
    set_totals,
)

CHALLENGE_POINTS = 50

OVERCALL, FALSE_LAYDOWN, CHALLENGE = "overcall", "false_laydown", "challenge"
PENALTY_KINDS: tuple[str, ...] = (OVERCALL, FALSE_LAYDOWN, CHALLENGE)
PENALTY_LABELS = {OVERCALL: "Over-call", FALSE_LAYDOWN: "False laydown", CHALLENGE: "Challenge"}

# The API fields a Problem can belong to, in the order a director reads the form.
FIELDS: tuple[str, ...] = ("number", "redeal", "went_out", "down_and_out", "scores", "penalties")


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
    kind: str  # one of PENALTY_KINDS
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


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry. `message` is the API's wording; `code` (one of
    CODES), `seats` and `params` let a page put the same finding in its own words."""

    field: str  # one of FIELDS
    code: str  # one of CODES
    message: str
    seats: tuple[int, ...] = ()  # the seats it is about, to mark their boxes
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


# Every finding the engine can report, by code (a test checks each can happen).
CODES: tuple[str, ...] = (
    "number_not_whole",
    "number_unknown",
    "redeal_not_bool",
    "redeal_went_out",
    "redeal_down_and_out",
    "redeal_scores",
    "redeal_penalties",
    "went_out_missing",
    "went_out_not_seat",
    "went_out_not_at_table",
    "down_and_out_not_bool",
    "down_and_out_not_allowed",
    "not_a_list",
    "entry_not_object",
    "entry_seat_invalid",
    "seat_not_at_table",
    "penalty_kind_unknown",
    "penalty_twice",
    "challenge_not_allowed",
    "challenge_went_out",
    "challenge_points",
    "overcall_went_out",
    "penalty_points_range",
    "extra_calls_not_allowed",
    "extra_calls_invalid",
    "extra_calls_too_many",
    "challenge_and_overcall",
    "overcall_not_charged",
    "penalty_points_fixed",
    "score_twice",
    "points_and_cards",
    "no_value",
    "points_not_whole",
    "points_negative",
    "went_out_points",
    "cards_not_text",
    "card_notation",
    "went_out_cards",
    "too_many_cards",
    "points_over_bound",
    "challenge_extra_calls",
    "table_over_bound",
    "several_empty",
    "score_missing",
    "no_cards",
    "zero_points",
    "card_copies",
)


class HandInvalid(ValueError):
    """Everything wrong with one hand's entry, reported together."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        order = {name: i for i, name in enumerate(FIELDS)}
        self.problems: tuple[Problem, ...] = tuple(
            sorted(problems, key=lambda p: order.get(p.field, len(order)))
        )
        super().__init__("; ".join(p.message for p in self.problems))

    def by_field(self) -> dict[str, list[str]]:
        """The API's 400 body: {"scores": ["seat 3: ...", ...], ...}."""
        grouped: dict[str, list[str]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.field, []).append(problem.message)
        return grouped


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


def _show(value: object) -> str:
    """A bad value as the director sent it (JSON spelling), kept short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _listed(seats: Iterable[int]) -> str:
    return ", ".join(str(seat) for seat in seats)


@dataclass
class _Charges:  # one seat's penalties, added up while they are checked
    points: int = 0
    extra_calls: int = 0
    sat_out: bool = False
    # Challenged without extra_calls: if it holds more than three calls allow, the
    # challenge was right and the director must say how many calls it made.
    calls_unsaid: bool = False


@dataclass
class _Held:  # one seat's card penalty, once its score entry is read
    points: int = 0
    cards: tuple[Card, ...] | None = None


@dataclass
class _HandCheck:
    """Reads one hand's entry field by field, noting every problem on the way."""

    ruleset: Ruleset
    deck: Deck
    table: tuple[int, ...]
    table_rules: TableRules
    problems: list[Problem] = field(default_factory=list)
    # Learnt while reading, in this order; None where the entry got it wrong.
    spec: HandSpec | None = None
    went_out: int | None = None
    charges: dict[int, _Charges] = field(default_factory=dict)
    charged: list[PenaltyResult] = field(default_factory=list)

    def problem(
        self,
        field_name: str,
        code: str,
        message: str,
        *,
        seats: Iterable[int] = (),
        **params: Any,
    ) -> None:
        self.problems.append(Problem(field_name, code, message, tuple(seats), params))

    def run(self, number: object, entry: HandEntry) -> ScoredHand:
        if not isinstance(entry, HandEntry):
            raise TypeError(f"entry must be a HandEntry, not {type(entry).__name__}")
        self.spec = spec = self.check_number(number)
        # None is what an API layer passes for a flag left out: read it as false.
        redeal = False if entry.redeal is None else entry.redeal
        if not isinstance(redeal, bool):
            # Whether the hand was played decides every other check: stop here.
            self.problem(
                "redeal",
                "redeal_not_bool",
                f"redeal must be true or false, not {_show(redeal)}",
                value=_show(redeal),
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
            # penalties are added after (RULES.md, "Director penalties").
            factor = 2 if down_and_out and seat != went_out else 1
            cards, charge = held[seat], self.charges[seat]
            score = cards.points * factor + charge.points
            results.append(
                SeatResult(seat, cards.points, charge.points, score, cards.cards, charge.sat_out)
            )
        penalties = tuple(sorted(self.charged, key=lambda p: (p.seat, p.kind)))
        head = (spec.number, spec.contract, spec.cards_dealt)
        return ScoredHand(*head, "scored", went_out, down_and_out, tuple(results), penalties)

    def check_number(self, number: object) -> HandSpec | None:
        if not is_whole_number(number):
            shown = _show(number)
            why = f"the hand number must be a whole number, not {shown}"
            self.problem("number", "number_not_whole", why, value=shown)
            return None
        if not self.ruleset.has_hand(number):
            count = f"a {self.ruleset.code} set has {self.ruleset.hand_count} hands"
            self.problem(
                "number",
                "number_unknown",
                f"hand {number} does not exist: {count}",
                number=number,
                ruleset=self.ruleset.code,
                hands=self.ruleset.hand_count,
            )
            return None
        return self.ruleset.hand(number)

    def check_redeal(self, entry: HandEntry) -> None:
        why = "a redeal carries no scores"
        if entry.went_out is not None:
            self.problem("went_out", "redeal_went_out", f"{why}: nobody went out")
        if entry.down_and_out is not False and entry.down_and_out is not None:
            self.problem(
                "down_and_out", "redeal_down_and_out", f"{why}: the hand cannot be down and out"
            )
        if entry.scores:
            self.problem("scores", "redeal_scores", f"{why}: leave the scores out")
        if entry.penalties:
            self.problem("penalties", "redeal_penalties", f"{why}, so no penalties either")

    def check_went_out(self, went_out: object) -> int | None:
        if went_out is None:
            self.problem(
                "went_out", "went_out_missing", "a scored hand needs the seat that went out"
            )
        elif not is_whole_number(went_out):
            shown = _show(went_out)
            why = f"went_out must be one seat number, not {shown}"
            self.problem("went_out", "went_out_not_seat", why, value=shown)
        elif went_out not in self.table:
            self.problem(
                "went_out",
                "went_out_not_at_table",
                f"seat {went_out} is not at this table {self.at_table}",
                seats=(went_out,),
                table=self.at_table,
            )
        else:
            return went_out
        return None

    @property
    def at_table(self) -> str:
        return f"(seats {_listed(self.table)})"

    def check_down_and_out(self, down_and_out: object) -> bool:
        if down_and_out is None:
            return False
        if not isinstance(down_and_out, bool):
            shown = _show(down_and_out)
            why = f"down_and_out must be true or false, not {shown}"
            self.problem("down_and_out", "down_and_out_not_bool", why, value=shown)
            return False
        if down_and_out and not self.table_rules.doubles(self.ruleset):
            why = (
                "has no down and out unless the event agrees to it (trinidad_doubling): "
                "the others simply score their cards"
                if self.ruleset.challenge_allowed
                else "has no down and out: its house rules do not double on one, so the "
                "others simply score their cards"
            )
            self.problem(
                "down_and_out",
                "down_and_out_not_allowed",
                f"a {self.ruleset.code} set {why}",
                ruleset=self.ruleset.code,
            )
        return down_and_out

    def entries(self, raw: object, field_name: str, kind: type, noun: str) -> list[tuple]:
        """(position, entry) for each entry of a list field that is of the expected kind."""
        if raw is None:
            return []
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Iterable):
            shown = _show(raw)
            why = f"{field_name} must be a list, not {shown}"
            self.problem(field_name, "not_a_list", why, value=shown)
            return []
        good = []
        for i, item in enumerate(raw, 1):
            if isinstance(item, kind):
                good.append((i, item))
            else:
                why = f"entry {i} of {field_name} is not {noun}"
                self.problem(field_name, "entry_not_object", why, index=i, noun=noun)
        return good

    def seat_of(self, i: int, seat: object, field_name: str) -> int | None:
        if not is_whole_number(seat):
            shown = _show(seat)
            why = f"entry {i} of {field_name}: {shown} is not a seat"
            self.problem(field_name, "entry_seat_invalid", why, index=i, value=shown)
        elif seat not in self.table:
            self.problem(
                field_name,
                "seat_not_at_table",
                f"seat {seat} is not at this table {self.at_table}",
                seats=(seat,),
                table=self.at_table,
            )
        else:
            return seat
        return None

    # RULES.md, "Director penalties", and Trinidad's "Challenge".
    def check_penalties(self, raw: object) -> dict[int, _Charges]:
        charges = {seat: _Charges() for seat in self.table}
        seen: set[tuple[int, str]] = set()
        for i, item in self.entries(raw, "penalties", PenaltyEntry, "a penalty"):
            seat = self.seat_of(i, item.seat, "penalties")
            if seat is None:
                continue
            kind, who = item.kind, f"seat {seat}"
            if not isinstance(kind, str) or kind not in PENALTY_KINDS:
                kinds, shown = ", ".join(PENALTY_KINDS), _show(kind)
                self.problem(
                    "penalties",
                    "penalty_kind_unknown",
                    f"{who}: {shown} is not a penalty ({kinds})",
                    seats=(seat,),
                    value=shown,
                )
                continue
            if (seat, kind) in seen:
                self.problem(
                    "penalties",
                    "penalty_twice",
                    f"{who} has more than one {kind} penalty",
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
                why = (
                    f"is charged both a challenge and an over-call, but in a "
                    f"{self.ruleset.code} set the challenge is the remedy for over-calling: "
                    "charge the challenge only, with its extra_calls"
                )
                self.problem(
                    "penalties", "challenge_and_overcall", f"seat {seat} {why}", seats=(seat,)
                )

    def penalty_points(self, item: PenaltyEntry, seat: int, went_out: bool) -> int:
        kind, points, who = item.kind, item.points, f"seat {seat}"
        if kind == CHALLENGE:
            if not self.ruleset.challenge_allowed:
                why = f"a challenge is a Trinidad rule; a {self.ruleset.code} set has none"
                self.problem(
                    "penalties",
                    "challenge_not_allowed",
                    f"{who}: {why}",
                    seats=(seat,),
                    ruleset=self.ruleset.code,
                )
            if went_out:
                why = "went out, so it cannot have sat out a challenge"
                self.problem("penalties", "challenge_went_out", f"{who} {why}", seats=(seat,))
            if points is not None and (not is_whole_number(points) or points != CHALLENGE_POINTS):
                shown = _show(points)
                why = f"a challenge costs {CHALLENGE_POINTS} points, not {shown}"
                self.problem(
                    "penalties", "challenge_points", f"{who}: {why}", seats=(seat,), value=shown
                )
            return CHALLENGE_POINTS
        if kind == OVERCALL and went_out:
            why = "a player charged an over-call may not go out in that hand"
            self.problem(
                "penalties", "overcall_went_out", f"{who} went out, but {why}", seats=(seat,)
            )
        agreed = default_penalty_points(kind, self.table_rules)
        if points is None or (is_whole_number(points) and points == agreed):
            return agreed
        if kind == OVERCALL and not self.table_rules.overcall_penalty:
            why = "this event charges nothing for an over-call (it is recorded for its calls)"
            self.problem(
                "penalties",
                "overcall_not_charged",
                f"{who}: {why}, so give no points, not {_show(points)}",
                seats=(seat,),
                value=_show(points),
            )
            return 0
        if not self.table_rules.penalty_per_hand:
            why = f"this event's agreed penalty is {agreed} points"
            self.problem(
                "penalties",
                "penalty_points_fixed",
                f"{who}: {why}, not {_show(points)} (amounts per hand are not allowed)",
                seats=(seat,),
                value=_show(points),
                agreed=agreed,
            )
            return agreed
        if (
            not is_whole_number(points)
            or not DIRECTOR_PENALTY_MIN <= points <= DIRECTOR_PENALTY_MAX
        ):
            span, shown = f"{DIRECTOR_PENALTY_MIN} to {DIRECTOR_PENALTY_MAX}", _show(points)
            self.problem(
                "penalties",
                "penalty_points_range",
                f"{who}: a director penalty is {span} points, not {shown}",
                seats=(seat,),
                value=shown,
            )
            return 0
        return points

    def check_extra_calls(self, item: PenaltyEntry, seat: int) -> int:
        """Calls beyond three: at least one for an over-call, optional for a challenge."""
        extra, least, who = item.extra_calls, 1 if item.kind == OVERCALL else 0, f"seat {seat}"
        if item.kind == FALSE_LAYDOWN:
            if extra is not None:
                why = "extra_calls belongs to an overcall or a challenge"
                self.problem("penalties", "extra_calls_not_allowed", f"{who}: {why}", seats=(seat,))
            return 0
        if extra is None:
            return least
        if not is_whole_number(extra) or extra < 1:
            shown = _show(extra)
            why = f"extra_calls counts the calls beyond three, at least 1, not {shown}"
            self.problem(
                "penalties", "extra_calls_invalid", f"{who}: {why}", seats=(seat,), value=shown
            )
            return least
        most = self.most_extra_calls()
        if extra > most:
            why = (
                f"{extra} extra calls is more than the deck allows: each call takes "
                f"{CARDS_PER_CALL} cards, so at most {most} beyond three"
            )
            self.problem(
                "penalties",
                "extra_calls_too_many",
                f"{who}: {why}",
                seats=(seat,),
                extra=extra,
                most=most,
            )
            return least
        return extra

    def most_extra_calls(self) -> int:
        """The most calls beyond three that the deck can feed one player in this hand."""
        dealt = self.spec.cards_dealt if self.spec is not None else 0
        return max(0, (self.deck.size - dealt) // CARDS_PER_CALL - CALLS_ALLOWED)

    # RULES.md, "Consequences for score entry", rules 1-3.
    def check_scores(self, raw: object) -> dict[int, _Held]:
        by_seat: dict[int, SeatEntry] = {}
        twice: set[int] = set()
        for i, item in self.entries(raw, "scores", SeatEntry, "a seat's score"):
            seat = self.seat_of(i, item.seat, "scores")
            if seat is not None and seat in by_seat and seat not in twice:
                why = f"seat {seat} has more than one score entry"
                self.problem("scores", "score_twice", why, seats=(seat,))
                twice.add(seat)
            elif seat is not None:
                by_seat[seat] = item

        held = {seat: _Held() for seat in self.table}
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

    def read_entry(self, seat: int, item: SeatEntry) -> _Held | None:
        who, points, went_out = f"seat {seat}", item.points, seat == self.went_out
        on_seat = {"seats": (seat,)}
        if points is not None and item.cards is not None:
            why = f"{who}: give either points or cards, not both"
            self.problem("scores", "points_and_cards", why, **on_seat)
        elif item.cards is not None:
            return self.read_cards(seat, item.cards)
        elif points is None:
            if went_out:
                return _Held()
            self.problem("scores", "no_value", f"{who}: give either points or cards", **on_seat)
        elif not is_whole_number(points):
            shown = _show(points)
            why = f"{who}: points must be a whole number, not {shown}"
            self.problem("scores", "points_not_whole", why, value=shown, **on_seat)
        elif points < 0:
            why = f"{who}: points cannot be negative ({points})"
            self.problem("scores", "points_negative", why, points=points, **on_seat)
        elif went_out and points != 0:
            why = f"{who} went out, so its card points are 0, not {points}"
            self.problem("scores", "went_out_points", why, points=points, **on_seat)
        else:
            self.check_bound(seat, points)
            return _Held(points=points)
        return None

    def read_cards(self, seat: int, text: object) -> _Held | None:
        who, on_seat = f"seat {seat}", {"seats": (seat,)}
        if not isinstance(text, str):
            shown = _show(text)
            why = f'{who}: cards must be text like "JK AS 10H", not {shown}'
            self.problem("scores", "cards_not_text", why, value=shown, **on_seat)
            return None
        try:
            cards = tuple(parse_cards(text))
        except CardNotationError as error:
            self.problem(
                "scores",
                "card_notation",
                f"{who}: {error}",
                token=error.token,
                reason=error.reason,
                **on_seat,
            )
            return None
        if seat == self.went_out and cards:
            why = f"{who} went out, so it holds no cards, not {len(cards)}"
            self.problem("scores", "went_out_cards", why, count=len(cards), **on_seat)
            return None
        most, why = self.most_held(seat)
        if len(cards) > most and self.charges[seat].calls_unsaid:
            calls = -(-(len(cards) - most) // CARDS_PER_CALL)
            self.challenge_needs_calls(seat, f"{len(cards)} cards", most, why, calls=calls)
        elif len(cards) > most:
            message = f"{who}: {len(cards)} cards, but a player can hold at most {most} ({why})"
            self.problem(
                "scores",
                "too_many_cards",
                message,
                count=len(cards),
                most=most,
                why=why,
                **on_seat,
            )
        return _Held(points=hand_points(cards), cards=cards)

    def check_bound(self, seat: int, points: int) -> None:
        """RULES.md rule 3: no more than the dearest cards a player can hold are worth."""
        most, why = self.most_held(seat)
        bound = self.deck.max_points(most)
        if points > bound and self.charges[seat].calls_unsaid:
            self.challenge_needs_calls(seat, f"{points} points", most, why, calls=None)
        elif points > bound:
            message = f"{points} points is more than {most} cards can hold ({bound}; {why})"
            self.problem(
                "scores",
                "points_over_bound",
                f"seat {seat}: {message}",
                seats=(seat,),
                points=points,
                most=most,
                bound=bound,
                why=why,
            )

    def challenge_needs_calls(
        self, seat: int, holds: str, most: int, why: str, *, calls: int | None
    ) -> None:
        """A challenged seat holding more than three calls allow: the challenge was
        right, and its extra calls are what make the hand possible."""
        least = f"at least {calls}" if calls else "at least 1"
        message = (
            f"seat {seat}: {holds} is more than {most} cards allow ({why}); the challenge "
            f"was right, so give its extra_calls, the calls seat {seat} made beyond three "
            f"({least})"
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

    def most_held(self, seat: int) -> tuple[int, str]:
        """How many cards this seat can hold in this hand, and why."""
        spec, extra = self.spec, self.charges[seat].extra_calls
        if spec is None:  # the hand number is wrong: only the whole deck bounds a seat
            return self.deck.size, "the whole deck"
        why = f"hand {spec.number} deals {spec.cards_dealt}, plus 6 from three calls"
        if extra:
            calls = "call" if extra == 1 else "calls"
            why += f" and {CARDS_PER_CALL * extra} from {extra} extra {calls}"
        return spec.max_held(extra), why

    def check_nobody_else_out(self, empty: list[int], by_seat: dict[int, SeatEntry]) -> None:
        """RULES.md rules 1-2: one player goes out; everyone else holds a card."""
        if self.went_out is None:
            # went_out is missing or wrong: any one of these may have gone out, not two.
            if len(empty) > 1:
                why = "show nothing in hand, but only one player can go out"
                self.problem(
                    "scores", "several_empty", f"seats {_listed(empty)} {why}", seats=empty
                )
            return
        # Worded as in API.md, which integrators may match on.
        for seat in empty:
            item, on_seat = by_seat.get(seat), {"seats": (seat,), "went_out": self.went_out}
            if item is None:
                self.problem("scores", "score_missing", f"seat {seat}: no score entered", **on_seat)
            elif item.cards is not None:
                why = "only the player who went out can hold no cards"
                message = f"seat {seat}: no cards entered, but {why}"
                self.problem("scores", "no_cards", message, **on_seat)
            else:
                why = "only the player who went out can score 0"
                self.problem(
                    "scores", "zero_points", f"seat {seat}: 0 points, but {why}", **on_seat
                )

    def check_copies(self, held: dict[int, _Held]) -> None:
        """RULES.md rule 5: the table cannot hold more of a card than the deck has.

        A Trinidad player who sat out after a challenge put their cards at the bottom
        of the discard pile, from where they can come back into play: their cards are
        checked on their own, not against the rest of the table's."""
        sat_out = {seat for seat, charge in self.charges.items() if charge.sat_out}
        self.check_copies_among({s: h for s, h in held.items() if s not in sat_out})
        for seat in sorted(sat_out):
            self.check_copies_among({seat: held[seat]})

    def check_copies_among(self, held: dict[int, _Held]) -> None:
        count = Counter(card for seat_held in held.values() for card in seat_held.cards or ())
        for card, n in count.items():
            copies = self.deck.copies(card)
            if n > copies:
                seats = [seat for seat, h in held.items() if h.cards and card in h.cards]
                where = f"seat {seats[0]}" if len(seats) == 1 else f"seats {_listed(seats)}"
                holds = f"holds only {copies}" if copies else "holds none"
                times = "once" if n == 1 else f"{n} times"
                why = f"appears {times} at the table ({where}), but the deck {holds}"
                self.problem(
                    "scores",
                    "card_copies",
                    f"the {card} {why}",
                    seats=seats,
                    card=str(card),
                    times=n,
                    copies=copies,
                )

    def check_table_bound(self, held: dict[int, _Held]) -> None:
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
            message = (
                f"the seats' card points add up to {points}, more than the {cards} cards "
                f"they can hold between them are worth ({bound}, from a deck of "
                f"{self.deck.size}): check the scores"
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
