"""Checking and scoring one hand at one table, with every rule of RULES.md
"Consequences for score entry" and the sanity checks any JSON needs. No Django here.

This is the package's public face: import from `game.rules`, not its parts.

- `entries`: what a director enters for a hand and what scoring produces;
- `problems`: what the checks report (Problem, its codes, HandInvalid);
- `check`: the state one hand's check shares, and reading its list fields and seats;
- `bounds`: what the deck allows (cards held, card points, copies, extra calls);
- `penalties`: over-call, false laydown and the Trinidad challenge;
- `hand`: `score_hand`, and the checks of the hand itself (its number, a redeal, who
  went out, a down and out, each seat's score).

The rulesets, the deck and a whole set are re-exported from `game.rulesets`,
`game.cards` and `game.sets`, where callers of `rules` have always found them.
"""

from __future__ import annotations

from game.cards import Deck
from game.rules.entries import (
    HandEntry,
    Outcome,
    PenaltyEntry,
    PenaltyResult,
    ScoredHand,
    SeatEntry,
    SeatResult,
)
from game.rules.hand import score_hand
from game.rules.penalties import (
    CHALLENGE,
    CHALLENGE_POINTS,
    FALSE_LAYDOWN,
    OVERCALL,
    PENALTY_KINDS,
    PENALTY_LABELS,
    default_penalty_points,
)
from game.rules.problems import CODES, FIELDS, HandInvalid, Problem
from game.rulesets import (
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
from game.sets import TABLE_MAX, TABLE_MIN, SetResult, ends_after, set_result, set_totals

__all__ = [
    # scoring one hand
    "score_hand",
    "HandEntry",
    "SeatEntry",
    "PenaltyEntry",
    "ScoredHand",
    "SeatResult",
    "PenaltyResult",
    "Outcome",
    # what the checks report
    "Problem",
    "HandInvalid",
    "CODES",
    "FIELDS",
    # penalties
    "OVERCALL",
    "FALSE_LAYDOWN",
    "CHALLENGE",
    "CHALLENGE_POINTS",
    "PENALTY_KINDS",
    "PENALTY_LABELS",
    "default_penalty_points",
    # re-exported from game.rulesets
    "CALLS_ALLOWED",
    "CARDS_PER_CALL",
    "DEFAULT_TABLE_RULES",
    "DIRECTOR_PENALTY_MAX",
    "DIRECTOR_PENALTY_MIN",
    "RULESETS",
    "HandSpec",
    "Ruleset",
    "TableRules",
    "deal_problem",
    "get_ruleset",
    # re-exported from game.sets
    "TABLE_MAX",
    "TABLE_MIN",
    "SetResult",
    "ends_after",
    "set_result",
    "set_totals",
    # re-exported from game.cards
    "Deck",
]
