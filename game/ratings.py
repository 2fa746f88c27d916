"""Ratings across events: one OpenSkill (Weng-Lin) rating per player.

Plain data in, plain data out; `openskill` does the maths. Every set at a table is one
multiplayer game ordered by the set totals, lower is better, equal totals tie. A set
that is not complete (the player withdrew, the table closed short, the round was
closed with hands missing) is left out of its game: the complete sets at that table
are rated among themselves, and a table left with fewer than two complete sets is no
game at all. A rating is shown as the conservative `mu - 3 sigma` (the skill the
player is very likely above), so a newcomer starts at 0 and rises as they play.

The model is openskill's Bradley-Terry with full pairing: a set at a table counts as
every pair of its players compared. Measured against Plackett-Luce (openskill's
default) on simulated circuits (`bench/ratings.py`, docs/benchmarks.md), it recovers
the true order of skill better after 1, 3 and 10 events in every setting tried.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6  # the spread of one set's performance around a player's skill
TAU = MU / 300  # how much a skill may drift between games (keeps sigma from vanishing)
# Players need this many rated sets before the public ranking shows them by default.
MIN_SETS = 6


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    sets: int = 0  # sets rated so far

    @property
    def display(self) -> float:
        """The conservative value shown and ranked on: mu - 3 sigma."""
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


NEW = Rating()


@dataclass(frozen=True)
class Result:
    """One player's set at one table: its total (lower is better) and whether it is
    complete (an incomplete set is not rated)."""

    player: int
    total: int
    complete: bool = True


def make_model(*, beta: float = BETA, tau: float = TAU, kind: Any = BradleyTerryFull) -> Any:
    """An openskill model (Bradley-Terry, full pairing, unless `kind` names another of
    its models) with this performance spread and drift; the site uses the defaults."""
    return kind(mu=MU, sigma=SIGMA, beta=beta, tau=tau)


MODEL = make_model()


def game_of(results: Iterable[Result]) -> list[Result]:
    """The players a table's sets rate: its complete sets, in player order; none when
    fewer than two are complete (nobody to be compared with)."""
    complete = sorted((r for r in results if r.complete), key=lambda r: r.player)
    return complete if len(complete) >= 2 else []


def rate_table(
    ratings: dict[int, Rating], results: Iterable[Result], *, model: Any = MODEL
) -> dict[int, Rating]:
    """The new ratings of the players whose sets at one table are rated (the others at
    the table are left as they were); `ratings` lacks a newcomer."""
    game = game_of(results)
    if not game:
        return {}
    before = [ratings.get(r.player, NEW) for r in game]
    teams = [[model.rating(mu=b.mu, sigma=b.sigma)] for b in before]
    after = model.rate(teams, ranks=[float(r.total) for r in game])
    return {
        r.player: Rating(mu=team[0].mu, sigma=team[0].sigma, sets=b.sets + 1)
        for r, b, team in zip(game, before, after, strict=True)
    }


def rate_round(
    ratings: dict[int, Rating],
    tables: Iterable[Iterable[Result]],
    *,
    model: Any = MODEL,
) -> dict[int, Rating]:
    """Rate one round's tables (each player sits at one table in a round, so the order
    of the tables does not matter); return the changed ratings only."""
    changed: dict[int, Rating] = {}
    for table in tables:
        changed.update(rate_table(ratings, table, model=model))
    return changed


def rate_all(
    rounds: Iterable[Iterable[Iterable[Result]]],
    ratings: dict[int, Rating] | None = None,
    *,
    model: Any = MODEL,
) -> dict[int, Rating]:
    """Apply rounds in order, starting from `ratings` (everybody new by default)."""
    current = dict(ratings or {})
    for tables in rounds:
        current.update(rate_round(current, tables, model=model))
    return current
