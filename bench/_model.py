"""The simulated Kalooki the benchmarks play (bench/adjusted_scores.py,
bench/table_size_bias.py): each player's draws hand by hand, a table playing a set, and
the statistics they report. A model, not the truth: see bench/adjusted_scores.py's
docstring for what it assumes. Plain Python on the `game` package."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

from game.rulesets import get_ruleset

PLAYERS = 64
ROUNDS = 4
OUT_WEIGHT = 0.35  # P(go out) is proportional to exp(OUT_WEIGHT * skill)
PENALTY_MEAN = 45.0  # mean cards left in hand, skill 0
PENALTY_PER_SKILL = 6.0  # the mean falls by this much per unit of skill
PENALTY_MEAN_FLOOR = 5.0
PENALTY_SHAPE = 2.0  # gamma shape: skewed to the right
PENALTY_MIN, PENALTY_MAX = 1, 250


def deal_scale(hand_count: int, deal_scaled: bool) -> tuple[float, ...]:
    """Each hand's penalty mean as a multiple of the set's: 1 each, or (`deal_scaled`)
    its cards dealt over the set's average."""
    if not deal_scaled:
        return (1.0,) * hand_count
    ruleset = get_ruleset("jamaica" if hand_count == 9 else "trinidad")
    if ruleset.hand_count != hand_count:
        raise SystemExit(f"--deal-scaled knows sets of 9 and 7 hands, not {hand_count}")
    dealt = [spec.cards_dealt for spec in ruleset.hands]
    average = sum(dealt) / len(dealt)
    return tuple(cards / average for cards in dealt)


def hand_draws(
    rng: random.Random, skill: float, scale: Sequence[float]
) -> tuple[tuple[float, int], ...]:
    """One player's draws for one round, hand by hand: (race, penalty).

    Whoever at the table has the lowest race goes out: an exponential race with rate
    exp(OUT_WEIGHT * skill), so P(going out) is proportional to that rate at any table,
    whoever sits there. The penalty is what the player scores when someone else goes
    out. Drawn per player, not per table, so a player's hands do not depend on who else
    sits at the table (table_size_bias.py relies on it).
    """
    rate = math.exp(OUT_WEIGHT * skill)
    mean = max(PENALTY_MEAN - PENALTY_PER_SKILL * skill, PENALTY_MEAN_FLOOR)
    draws = []
    for factor in scale:
        race = rng.expovariate(rate)
        penalty = rng.gammavariate(PENALTY_SHAPE, mean * factor / PENALTY_SHAPE)
        draws.append((race, min(max(round(penalty), PENALTY_MIN), PENALTY_MAX)))
    return tuple(draws)


def play(
    seats: Sequence[int],
    draws: dict[int, Sequence[tuple[float, int]]],
    hand_count: int,
    leave: dict[int, int],
) -> dict[int, dict[int, int]]:
    """Every hand of the set as the table would play it with nobody cut short: player
    -> hand number -> score. A player who left (`leave`: player -> the hand they left
    after) plays no later hand."""
    scores: dict[int, dict[int, int]] = {player: {} for player in seats}
    for hand in range(1, hand_count + 1):
        present = [p for p in seats if leave.get(p, hand_count) >= hand]
        if not present:
            break
        out = min(present, key=lambda p: draws[p][hand - 1][0])
        for player in present:
            scores[player][hand] = 0 if player == out else draws[player][hand - 1][1]
    return scores


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two paired samples (ties allowed), O(n^2)."""
    if len(x) != len(y):
        raise ValueError("tau-b needs paired samples")
    concordant = discordant = tied_x = tied_y = 0
    n = len(x)
    for i in range(n):
        xi, yi = x[i], y[i]
        for j in range(i + 1, n):
            dx, dy = xi - x[j], yi - y[j]
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx and dy:
                if (dx > 0) == (dy > 0):
                    concordant += 1
                else:
                    discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / denominator if denominator else math.nan


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else math.nan), math.nan
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def pooled_se(per_event: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The mean of every value of every event, and its standard error with the events as
    clusters (a ratio estimator: the values of one event are not independent)."""
    sums = [sum(values) for values in per_event]
    counts = [len(values) for values in per_event]
    n = sum(counts)
    if not n:
        return math.nan, math.nan
    ratio = sum(sums) / n
    spread = sum((s - ratio * c) ** 2 for s, c in zip(sums, counts, strict=True))
    k = len(per_event)
    return ratio, math.sqrt(spread * k / (k - 1)) / n if k > 1 else math.nan
