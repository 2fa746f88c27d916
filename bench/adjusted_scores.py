"""Adjusted scores for unplayed hands: which rule keeps the ranking closest to full play?

Not a test: a simulation whose figures go in docs/benchmarks.md (game/adjusted.py chose
its `RULE` by them). Plain Python on the `game` package: no Django, no database.

    .venv/bin/python bench/adjusted_scores.py [--events 1000] [--seed 1] [--hands 9]

The model (a model, not the truth):

- An event: 64 players, each with a hidden skill ~ N(0, 1); 4 rounds of 9 hands
  (`--hands 7`: Trinidad); each round seated at random at tables of four
  (`game.seating.table_sizes` with fives once withdrawals leave a field that does not
  divide by four).
- A hand at a table of k players: one goes out and scores 0, chosen with probability
  proportional to exp(0.35 * skill); every other player scores the cards left in hand,
  drawn from a gamma distribution of shape 2 (skewed: mostly 10-80, now and then a
  joker-laden 150+) with mean 45 - 6 * skill (at least 5), rounded and clipped to
  1..250. Every hand has the same mean unless `--deal-scaled`, which scales it by the
  hand's cards dealt over the set's average (Jamaica deals 9 cards in hand 1, 16 in
  hand 9). No down and out, no director penalties.
- Mishaps, each round: a table is cut short (time ran out, or the director
  force-closed the round) with probability 0.2, after a hand uniform in 4..8 (4..H-1):
  every seat at it misses the rest. A player withdraws mid-round with probability
  0.01, after a hand uniform in 1..8 (1..H-1), and plays no later round; a table left
  with fewer than three players closes after that hand (`game.sets.ends_after`), its
  other sets short. The heavier scenario cuts tables with probability 0.4.
- Every draw is made up front (each player's draws for every hand of every round, the
  seating, the withdrawals, each table's cut), so an event is the same whatever the
  scenario: the 0.4 scenario cuts every table the 0.2 one cuts, and more; the rules are
  compared on the very same hands (common random numbers).
- Full play, the reference: the same hands with no table cut short. Withdrawals still
  happen (a player's own doing), but the others at a table the withdrawals left with
  fewer than three play on in the reference (the hands they would have played; the
  model does not care how many sit at a table).

The rules, each ranking every event with `game.ranking.rank` (default tiebreaks, one
fixed draw seed) in the `total` and `table-points` formats:

- today: a set cut short is INCOMPLETE (why: forced or short) and ranks as such;
- pro_rata, field_mean, field_median: `game.adjusted.adjust` fills each unplayed hand
  (the field is the round's seats), the set's total is its played hands' total plus
  the adjusted scores, and it is COMPLETE.

A withdrawn player's set stays INCOMPLETE under every rule, so only the players who
never withdrew are compared, by their order among themselves (1..m).

How to read the figures (per scenario, format and rule; SE: the standard error):

- tau-b: Kendall's tau-b between the rule's order and full play's; 1 = identical.
- winner changes: the share of events whose winner is not full play's winner.
- top-8 out: how many of full play's top 8 are not in the rule's top 8 (mean).
- cut-table |move|: for each player who had a set cut short (cut or short table) in
  some round, the number of places between their rule and full-play places (mean over
  all such players of all events).
- cut-table > 8 down: the share of those players ranked more than 8 places below
  their full-play place.
- cut-table mean move (+: down): the same places, signed. Not closeness but fairness:
  below 0, the rule lifts the players whose tables were cut short over those who
  played in full (a lenient rule also looks good on "> 8 down").

A perfect rule would read 1, 0%, 0, 0, 0%, 0; a cut table's hands are lost, so no rule
can be: the figures compare the rules with each other. Under each table, the best rule
on each measure and its lead over the runner-up, measured event by event on the same
events (so far tighter than the two means' SEs suggest); "clear": more than 2 SE. For
scale, the footnote gives tau-b between full play and the players' skill order, how
well a whole event finds who is better.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._model import (  # noqa: E402
    PLAYERS,
    ROUNDS,
    deal_scale,
    hand_draws,
    kendall_tau_b,
    mean_se,
    play,
    pooled_se,
)
from game.adjusted import FIELD_MEAN, FIELD_MEDIAN, PRO_RATA, SeatHands, adjust  # noqa: E402
from game.ranking import (  # noqa: E402
    COMPLETE,
    INCOMPLETE,
    WITHDREW,
    EntryRecord,
    SetRecord,
    rank,
    set_state,
)
from game.seating import table_sizes  # noqa: E402
from game.sets import ends_after  # noqa: E402

# --- The model -------------------------------------------------------------------------

CUT_FIRST = 4  # a cut table stops after a hand uniform in CUT_FIRST..hands-1
WITHDRAW_RATE = 0.01  # per player per round
DRAW_SEED = 0  # the ranking's seeded draw (ties are rare with these totals)
FORMATS = ("total", "table-points")
TODAY = "today"
FULL = "full"
RULES = (TODAY, PRO_RATA, FIELD_MEAN, FIELD_MEDIAN)
TOP = 8
FAR = 8  # "ranked more than FAR places below full play"


@dataclass(frozen=True)
class Table:
    number: int
    seats: tuple[int, ...]
    leave: dict[int, int]  # player -> the hand they left after (withdrew mid-round)
    cut_draw: float  # uniform 0..1: the table is cut short when below the scenario's rate
    cut_after: int  # the last hand a cut table plays
    scores: dict[int, dict[int, int]]  # full play: player -> hand -> score


@dataclass(frozen=True)
class Event:
    hand_count: int
    skills: dict[int, float]
    rounds: tuple[tuple[Table, ...], ...]
    withdrawn: frozenset[int]


def simulate_event(rng: random.Random, hand_count: int, scale: Sequence[float]) -> Event:
    skills = {player: rng.gauss(0.0, 1.0) for player in range(1, PLAYERS + 1)}
    withdrawn: set[int] = set()
    rounds = []
    for _ in range(ROUNDS):
        field_ = [p for p in skills if p not in withdrawn]
        rng.shuffle(field_)
        draws = {p: hand_draws(rng, skills[p], scale) for p in field_}
        leave = {}
        for player in field_:
            if rng.random() < WITHDRAW_RATE:
                leave[player] = rng.randint(1, hand_count - 1)
        tables = []
        start = 0
        for number, size in enumerate(table_sizes(len(field_)), 1):
            seats = tuple(field_[start : start + size])
            start += size
            left = {p: leave[p] for p in seats if p in leave}
            cut_draw, cut_after = rng.random(), rng.randint(CUT_FIRST, hand_count - 1)
            scores = play(seats, draws, hand_count, left)
            tables.append(Table(number, seats, left, cut_draw, cut_after, scores))
        withdrawn.update(leave)
        rounds.append(tuple(tables))
    return Event(hand_count, skills, tuple(rounds), frozenset(withdrawn))


# --- One scenario's sets, under each rule ----------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One seat's set as a scenario leaves it."""

    player: int
    played: int  # hands 1..played
    left_mid: bool  # the player withdrew mid-set (never adjusted)
    short_after: int | None  # the table closed for want of players after this hand
    cut: bool  # the set is over before its last hand, not by the player's doing


def seats_of(table: Table, hand_count: int, cut_rate: float | None) -> list[Seat]:
    """The table's seats in a scenario (`cut_rate` None: full play, nobody cut short)."""
    if cut_rate is None:
        end, short = hand_count, None
    else:
        short = ends_after([table.leave.get(p) for p in table.seats], hand_count)
        cut = table.cut_after if table.cut_draw < cut_rate else None
        end = min(x for x in (short, cut, hand_count) if x is not None)
        if short is not None and short > end:
            short = None  # cut short before it would have closed
    seats = []
    for player in table.seats:
        leave = table.leave.get(player)
        left_mid = leave is not None and leave <= end
        played = leave if left_mid else end
        seats.append(Seat(player, played, left_mid, short, not left_mid and end < hand_count))
    return seats


def round_sets(
    round_number: int, tables: Sequence[Table], hand_count: int, cut_rate: float | None, rule: str
) -> tuple[list[SetRecord], set[int]]:
    """The round's sets under `rule` (FULL: full play), and the players who had a set cut
    short in it."""
    seated = [(table, seat) for table in tables for seat in seats_of(table, hand_count, cut_rate)]
    cut_players = {seat.player for _, seat in seated if seat.cut}
    adjusted: dict[int, int] = {}
    if rule in (PRO_RATA, FIELD_MEAN, FIELD_MEDIAN) and cut_players:
        seat_hands = [
            SeatHands(
                seat=seat.player,
                table=table.number,
                size=len(table.seats),
                scores={h: s for h, s in table.scores[seat.player].items() if h <= seat.played},
                withdrew=seat.left_mid,
            )
            for table, seat in seated
        ]
        for adjustment in adjust(seat_hands, hand_count, rule):
            adjusted[adjustment.seat] = adjusted.get(adjustment.seat, 0) + adjustment.score
    sets = []
    for table, seat in seated:
        hands = [s for h, s in table.scores[seat.player].items() if h <= seat.played]
        total, won = sum(hands), hands.count(0)
        if seat.played == hand_count:
            state, missing = COMPLETE, 0
        elif seat.player in adjusted:
            state, missing, total = COMPLETE, 0, total + adjusted[seat.player]
        else:
            left_after = seat.played if seat.left_mid else None
            state, why = set_state(
                played=seat.played,
                hands=hand_count,
                left_after=left_after,
                ended_after=seat.short_after,
                over=True,
            )
            assert state == INCOMPLETE and (rule == TODAY or why == WITHDREW), (rule, why)
            missing = hand_count - seat.played
        sets.append(
            SetRecord(
                entry=seat.player,
                round=round_number,
                table=table.number,
                total=total,
                hands_won=won,
                penalty_points=0,
                state=state,
                hands_missing=missing,
            )
        )
    return sets, cut_players


def standing(event: Event, cut_rate: float | None, rule: str, formats: Sequence[str]):
    """format -> the order of the players who never withdrew, best first; and the
    players (never withdrawn) who had a set cut short."""
    sets: list[SetRecord] = []
    cut_players: set[int] = set()
    for number, tables in enumerate(event.rounds, 1):
        made, cut = round_sets(number, tables, event.hand_count, cut_rate, rule)
        sets.extend(made)
        cut_players |= cut
    entries = [EntryRecord(p, withdrawn=p in event.withdrawn) for p in event.skills]
    orders = {}
    for format_ in formats:
        ranked = rank(format=format_, sets=sets, entries=entries, draw_seed=DRAW_SEED)
        orders[format_] = [r.entry for r in ranked if r.entry not in event.withdrawn]
    return orders, cut_players - event.withdrawn


# --- Measures --------------------------------------------------------------------------


@dataclass
class Measure:
    """One scenario, format and rule, over the events."""

    taus: list[float] = field(default_factory=list)
    winner_changed: list[int] = field(default_factory=list)
    top_out: list[int] = field(default_factory=list)
    # per event: each cut-table player's rule place minus full-play place (+: lower)
    moves: list[dict[int, int]] = field(default_factory=list)

    def add(self, order: list[int], full: list[int], cut_players: set[int]) -> None:
        place = {p: i for i, p in enumerate(order, 1)}
        full_place = {p: i for i, p in enumerate(full, 1)}
        self.taus.append(kendall_tau_b([place[p] for p in full], list(range(1, len(full) + 1))))
        self.winner_changed.append(int(order[0] != full[0]))
        self.top_out.append(len(set(full[:TOP]) - set(order[:TOP])))
        self.moves.append({p: place[p] - full_place[p] for p in sorted(cut_players)})


@dataclass(frozen=True)
class Metric:
    """A column: per event, one value (`pooled` False) or one per cut-table player."""

    name: str
    per_event: Callable[[Measure], list]
    pooled: bool
    higher_is_better: bool
    decimals: int
    percent: bool = False
    signed: bool = False

    def shown(self, value: float, se: float, extra: int = 0) -> str:
        """ "value ± SE", with `extra` decimals more than the table's."""
        kind = "%" if self.percent else "f"
        sign = "+" if self.signed else ""
        places = self.decimals + extra
        return f"{value:{sign}.{places}{kind}} ± {se:.{places}{kind}}"


METRICS = (
    Metric("tau-b vs full play", lambda m: m.taus, False, True, 3),
    Metric("winner changes", lambda m: m.winner_changed, False, False, 1, percent=True),
    Metric(f"full-play top {TOP} out of top {TOP}", lambda m: m.top_out, False, False, 2),
    Metric(
        "cut-table players: mean abs. move",
        lambda m: [[abs(d) for d in moves.values()] for moves in m.moves],
        True,
        False,
        2,
    ),
    Metric(
        f"cut-table players: > {FAR} places down",
        lambda m: [[int(d > FAR) for d in moves.values()] for moves in m.moves],
        True,
        False,
        1,
        percent=True,
    ),
)
# Not a measure of closeness but of fairness: do cut-table players gain (-) or lose (+)
# places on average? A rule can look close by being lenient.
SIGNED = Metric(
    "cut-table players: mean move (+: down)",
    lambda m: [list(moves.values()) for moves in m.moves],
    True,
    False,
    2,
    signed=True,
)


def summary(metric: Metric, measure: Measure) -> tuple[float, float]:
    values = metric.per_event(measure)
    return pooled_se(values) if metric.pooled else mean_se(values)


def paired(metric: Metric, a: Measure, b: Measure) -> tuple[float, float]:
    """a minus b, event by event (the same events, the same cut-table players)."""
    pairs = zip(metric.per_event(a), metric.per_event(b), strict=True)
    if metric.pooled:
        return pooled_se([[x - y for x, y in zip(xs, ys, strict=True)] for xs, ys in pairs])
    return mean_se([x - y for x, y in pairs])


# --- Running ---------------------------------------------------------------------------


def run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    rng = random.Random(args.seed)
    scale = deal_scale(args.hands, args.deal_scaled)
    measures = {
        (cut, format_, rule): Measure()
        for cut in args.cuts
        for format_ in FORMATS
        for rule in RULES
    }
    skill_taus: dict[str, list[float]] = {format_: [] for format_ in FORMATS}
    cut_counts: dict[float, list[int]] = {cut: [] for cut in args.cuts}
    for _ in range(args.events):
        event = simulate_event(rng, args.hands, scale)
        full, _ = standing(event, None, FULL, FORMATS)
        for format_ in FORMATS:
            skills = [event.skills[p] for p in full[format_]]
            skill_taus[format_].append(kendall_tau_b(range(len(skills)), [-s for s in skills]))
        for cut in args.cuts:
            for rule in RULES:
                orders, cut_players = standing(event, cut, rule, FORMATS)
                for format_ in FORMATS:
                    measures[cut, format_, rule].add(orders[format_], full[format_], cut_players)
            cut_counts[cut].append(len(cut_players))
    took = time.perf_counter() - started
    print_report(args, measures, skill_taus, cut_counts, took)


def print_report(args, measures, skill_taus, cut_counts, took: float) -> None:
    command = " ".join([".venv/bin/python", *sys.argv])
    model = "deal-scaled hand penalties" if args.deal_scaled else "the same mean every hand"
    print("```")
    print(f"$ {command}")
    print("```")
    print()
    print(
        f"{PLAYERS} players, {ROUNDS} rounds of {args.hands} hands, {model}; "
        f"seed {args.seed}, {args.events} events per scenario (the same events in each); "
        f"withdrawals {WITHDRAW_RATE:.0%} per player per round; ran in {took:.0f} s."
    )
    columns = (*METRICS, SIGNED)
    for cut in args.cuts:
        cut_mean = statistics.fmean(cut_counts[cut])
        print()
        print(
            f"**Tables cut short with probability {cut}** (after a hand uniform in "
            f"{CUT_FIRST}..{args.hands - 1}; on average {cut_mean:.1f} players per event "
            f"had a set cut short). Mean ± SE."
        )
        print()
        print("| format | rule | " + " | ".join(metric.name for metric in columns) + " |")
        print("|---|---|" + "---|" * len(columns))
        for format_ in FORMATS:
            for rule in RULES:
                m = measures[cut, format_, rule]
                cells = [metric.shown(*summary(metric, m)) for metric in columns]
                print(f"| {format_} | {rule} | " + " | ".join(cells) + " |")
        for format_ in FORMATS:
            print()
            print(f"Best in {format_} (lead over the runner-up, paired by event, ± SE):")
            print()
            for metric in METRICS:
                print(f"- {metric.name}: {best(metric, cut, format_, measures)}")
    print()
    shown = ", ".join(
        f"{format_} {statistics.fmean(taus):.3f}" for format_, taus in skill_taus.items()
    )
    print(f"For scale: tau-b between full play and the players' skill order: {shown}.")


def best(metric: Metric, cut: float, format_: str, measures) -> str:
    """The best rule on one metric, and its lead over the second best, measured on the
    same events (far tighter than the two means' SEs suggest)."""
    sign = -1 if metric.higher_is_better else 1
    ranked = sorted(RULES, key=lambda r: sign * summary(metric, measures[cut, format_, r])[0])
    first, second = ranked[:2]
    lead, se = paired(metric, measures[cut, format_, first], measures[cut, format_, second])
    if lead == 0:
        return f"{first} and {second} tie on every event"
    clear = "clear" if abs(lead) > 2 * se else "within 2 SE: not resolved"
    return f"{first}, by {metric.shown(abs(lead), se, extra=1)} over {second} ({clear})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1000, help="events per scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=9, help="hands a set: 9 Jamaica, 7 Trinidad")
    parser.add_argument(
        "--cuts",
        type=float,
        nargs="+",
        default=[0.2, 0.4],
        help="the scenarios: the probability a table is cut short in a round",
    )
    parser.add_argument(
        "--deal-scaled",
        action="store_true",
        help="scale each hand's penalty mean by its cards dealt",
    )
    args = parser.parse_args()
    if args.hands < CUT_FIRST + 1:
        parser.error(f"--hands must be at least {CUT_FIRST + 1}")
    if args.events < 1:
        parser.error("--events must be at least 1")
    run(args)


if __name__ == "__main__":
    main()
