"""What a hand's check reports: one Problem per thing wrong with an entry, by field and
code, gathered into one HandInvalid so a director fixes a score sheet in one pass; and
how a bad value is shown in a message. No Django here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from game.words import joined

# The API fields a Problem can belong to, in the order a director reads the form.
FIELDS: tuple[str, ...] = ("number", "redeal", "went_out", "down_and_out", "scores", "penalties")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry. `message` is the API's wording (English words
    `core.words.translated` says in the reader's language); `code` (one of CODES),
    `seats` and `params` let a page put the same finding in its own words."""

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
        super().__init__(joined((p.message for p in self.problems), "; "))

    def by_field(self) -> dict[str, list[str]]:
        """The API's 400 body: {"scores": ["seat 3: ...", ...], ...}."""
        grouped: dict[str, list[str]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.field, []).append(problem.message)
        return grouped


def show(value: object) -> str:
    """A bad value as the director sent it (JSON spelling), kept short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def listed(seats: Iterable[int]) -> str:
    """Seat numbers, comma-separated (the comma said in the reader's language)."""
    return joined((str(seat) for seat in seats), ", ")
