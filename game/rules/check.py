"""The state shared by the checks of one hand's entry, and what every one of them uses:
noting a problem, reading a list field's entries and the seat each names. No Django
here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.cards import Card, Deck, is_whole_number
from game.rules.entries import PenaltyResult
from game.rules.problems import Problem, listed, show
from game.rulesets import HandSpec, Ruleset, TableRules
from game.words import Said, say


@dataclass
class Charges:  # one seat's penalties, added up while they are checked
    points: int = 0
    extra_calls: int = 0
    sat_out: bool = False
    # Challenged without extra_calls: if it holds more than three calls allow, the
    # challenge was right and the director must say how many calls it made.
    calls_unsaid: bool = False


@dataclass
class Held:  # one seat's card penalty, once its score entry is read
    points: int = 0
    cards: tuple[Card, ...] | None = None


@dataclass
class Check:
    """One hand's check as it goes: the table and what the event agreed, what it has
    learnt from the entry so far and every problem noted on the way. The checks
    themselves build on it (`bounds.BoundChecks`, `penalties.PenaltyChecks`,
    `hand._HandCheck`, each on the one before)."""

    ruleset: Ruleset
    deck: Deck
    table: tuple[int, ...]
    table_rules: TableRules
    problems: list[Problem] = field(default_factory=list)
    # Learnt while reading, in this order; None where the entry got it wrong.
    spec: HandSpec | None = None
    went_out: int | None = None
    charges: dict[int, Charges] = field(default_factory=dict)
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

    @property
    def at_table(self) -> Said:
        return say("(seats %(seats)s)", seats=listed(self.table))

    def entries(self, raw: object, field_name: str, kind: type, noun: Said) -> list[tuple]:
        """(position, entry) for each entry of a list field that is of the expected kind."""
        if raw is None:
            return []
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Iterable):
            shown = show(raw)
            why = say("%(field)s must be a list, not %(value)s", field=field_name, value=shown)
            self.problem(field_name, "not_a_list", why, value=shown)
            return []
        good = []
        for i, item in enumerate(raw, 1):
            if isinstance(item, kind):
                good.append((i, item))
            else:
                why = say(
                    "entry %(index)s of %(field)s is not %(noun)s",
                    index=i,
                    field=field_name,
                    noun=noun,
                )
                self.problem(field_name, "entry_not_object", why, index=i, noun=noun)
        return good

    def seat_of(self, i: int, seat: object, field_name: str) -> int | None:
        if not is_whole_number(seat):
            shown = show(seat)
            why = say(
                "entry %(index)s of %(field)s: %(value)s is not a seat",
                index=i,
                field=field_name,
                value=shown,
            )
            self.problem(field_name, "entry_seat_invalid", why, index=i, value=shown)
        elif seat not in self.table:
            self.problem(
                field_name,
                "seat_not_at_table",
                say("seat %(seat)s is not at this table %(table)s", seat=seat, table=self.at_table),
                seats=(seat,),
                table=self.at_table,
            )
        else:
            return seat
        return None
