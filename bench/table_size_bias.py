"""A table of three or five: how far does it move a typical player's place?

Not a test: a simulation whose figures go in docs/benchmarks.md. Plain Python on the
`game` package: no Django, no database.

    .venv/bin/python bench/table_size_bias.py [--events 2000] [--seed 1] [--hands 9]

The model is bench/adjusted_scores.py's (its `hand_draws` and `play`; a model, not the
truth): skills ~ N(0, 1); at a table, one player goes out (score 0) with probability
proportional to exp(0.35 * skill), the others score a gamma-distributed penalty of
mean 45 - 6 * skill. No table is cut short and nobody withdraws here.

- A 64-player field, 4 rounds: "threes" seats 13 tables of four and 4 of three each
  round, "fives" 11 tables of four and 4 of five, the players shuffled at random.
- The marked player has skill 0 (a typical player; the 63 others are drawn from
  N(0, 1)). Each event is played twice: with the marked player at a table of four in
  every round ("never"), and with them moved to an odd-size table (swapping seats with
  one of its players) in exactly one round, uniform in 1..4 ("once"). Every player's
  draws for every hand are made per player, not per table, so the two plays share
  every draw: only the two tables that swapped play differently (common random
  numbers), and the difference is measured far more precisely than two separate
  samples would.
- total and table-points (`game.ranking.rank`, default tiebreaks): the marked
  player's mean final place, "once" minus "never": negative = a better place. The
  table-points scale is resampled for threes and fives (`game.table_points.scale_for`),
  the total format has no such correction.
- knockout: 64 players over 4 rounds is no knockout, so instead round 1 alone
  (`rank(format="knockout", rounds_closed=1)`): the probability that the marked player
  goes through from a table of three, four or five, with advance_per_table 1 and 2.
  "Places per seat" (advance / table size) is a yardstick, not the expected figure: a
  typical player goes through a little less often than an average one (the strong
  players' chances grow faster than the weak ones' shrink); compare with the four.

"Never" is not the middle of the field (32.5): the others at the threes (fives) of
every round gain (lose) places on the marked player, so in a field with threes a player
who never sits at one ranks a little below the middle, with fives a little above.

SE: the standard error of the mean over the events; the 95% interval is ± 1.96 SE.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.adjusted_scores import PLAYERS, ROUNDS, hand_draws, mean_se, play  # noqa: E402
from game.ranking import EntryRecord, SetRecord, rank  # noqa: E402

FIELDS: dict[str, tuple[int, ...]] = {
    "threes": (4,) * 13 + (3,) * 4,
    "fives": (4,) * 11 + (5,) * 4,
}
MARKED = 0  # the marked player's entry; skill 0
SCORED_FORMATS = ("total", "table-points")
ADVANCE = (1, 2)
THRESHOLD = 3  # places: "does the shift exceed 3 places?"
Z95 = 1.96
Seating = list[list[int]]  # one round: the tables, each its seats


def seat_round(rng: random.Random, sizes: Sequence[int]) -> Seating:
    """The field shuffled into tables of `sizes`, the marked player at a table of four."""
    players = list(range(PLAYERS))
    rng.shuffle(players)
    tables, start = [], 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    if len(marked_table(tables)) != 4:
        move_marked(rng, tables, 4)
    return tables


def marked_table(tables: Seating) -> list[int]:
    return next(table for table in tables if MARKED in table)


def move_marked(rng: random.Random, tables: Seating, size: int) -> None:
    """Swap the marked player with a random player at a random table of `size`."""
    here = marked_table(tables)
    there = rng.choice([t for t in tables if len(t) == size and MARKED not in t])
    j = rng.randrange(size)
    here[here.index(MARKED)], there[j] = there[j], MARKED


def round_sets(number: int, tables: Seating, draws, hand_count: int) -> list[SetRecord]:
    sets = []
    for table_number, seats in enumerate(tables, 1):
        scores = play(seats, draws, hand_count, {})
        for player in seats:
            hands = list(scores[player].values())
            sets.append(
                SetRecord(
                    entry=player,
                    round=number,
                    table=table_number,
                    total=sum(hands),
                    hands_won=hands.count(0),
                    penalty_points=0,
                )
            )
    return sets


def place(format_: str, sets: list[SetRecord], entries: list[EntryRecord]) -> int:
    ranked = rank(format=format_, sets=sets, entries=entries)
    return next(r.rank for r in ranked if r.entry == MARKED)


def went_through(sets: list[SetRecord], entries: list[EntryRecord], advance: int) -> int:
    ranked = rank(
        format="knockout", sets=sets, entries=entries, advance_per_table=advance, rounds_closed=1
    )
    return int(next(r.status for r in ranked if r.entry == MARKED) == "active")


def run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    rng = random.Random(args.seed)
    flat = (1.0,) * args.hands
    entries = [EntryRecord(player) for player in range(PLAYERS)]
    # (field, format) -> per event: (place never, place once)
    places = {(name, f): [] for name in FIELDS for f in SCORED_FORMATS}
    # (field, table size, advance) -> per event: went through (1) or not (0)
    through: dict[tuple[str, int, int], list[int]] = {}
    for _ in range(args.events):
        skills = {p: (0.0 if p == MARKED else rng.gauss(0.0, 1.0)) for p in range(PLAYERS)}
        draws = [{p: hand_draws(rng, s, flat) for p, s in skills.items()} for _ in range(ROUNDS)]
        for name, sizes in FIELDS.items():
            odd_size = sizes[-1]
            seatings = [seat_round(rng, sizes) for _ in range(ROUNDS)]
            never = [
                round_sets(n, tables, draws[n - 1], args.hands)
                for n, tables in enumerate(seatings, 1)
            ]
            odd_round = rng.randint(1, ROUNDS)
            moved = [list(t) for t in seatings[odd_round - 1]]
            move_marked(rng, moved, odd_size)
            once = list(never)
            once[odd_round - 1] = round_sets(odd_round, moved, draws[odd_round - 1], args.hands)
            never_sets = [s for sets in never for s in sets]
            once_sets = [s for sets in once for s in sets]
            for format_ in SCORED_FORMATS:
                pair = (place(format_, never_sets, entries), place(format_, once_sets, entries))
                places[name, format_].append(pair)
            # Knockout, round 1 alone: at a four (as seated), then moved to the odd table.
            first = [list(t) for t in seatings[0]]
            at_four = never[0]
            move_marked(rng, first, odd_size)
            at_odd = round_sets(1, first, draws[0], args.hands)
            for advance in ADVANCE:
                for size, sets in ((4, at_four), (odd_size, at_odd)):
                    through.setdefault((name, size, advance), []).append(
                        went_through(sets, entries, advance)
                    )
    took = time.perf_counter() - started
    print_report(args, places, through, took)


def verdict(shift: float, se: float) -> str:
    low, high = abs(shift) - Z95 * se, abs(shift) + Z95 * se
    if low > THRESHOLD:
        return "yes"
    if high < THRESHOLD:
        return "no"
    return "cannot tell"


def print_report(args, places, through, took: float) -> None:
    command = " ".join([".venv/bin/python", *sys.argv])
    print("```")
    print(f"$ {command}")
    print("```")
    print()
    print(
        f"{PLAYERS} players, {ROUNDS} rounds of {args.hands} hands; seed {args.seed}, "
        f"{args.events} events (each played both ways); ran in {took:.0f} s. The marked "
        "player has skill 0; place 1 is the best. Shift = once minus never (negative: "
        "better), ± SE, and its 95% interval."
    )
    print()
    print(
        "| field | format | never at an odd table: mean place | at an odd table once: mean place "
        f"| shift (places) | 95% interval | shift > {THRESHOLD} places? |"
    )
    print("|---|---|---|---|---|---|---|")
    verdicts = []
    for (name, format_), pairs in places.items():
        never, _ = mean_se([a for a, _ in pairs])
        once, _ = mean_se([b for _, b in pairs])
        shift, se = mean_se([b - a for a, b in pairs])
        answer = verdict(shift, se)
        low, high = shift - Z95 * se, shift + Z95 * se
        table = "a three" if name == "threes" else "a five"
        print(
            f"| {name} ({table}) | {format_} | {never:.2f} | {once:.2f} | {shift:+.2f} ± {se:.2f} "
            f"| {low:+.2f} .. {high:+.2f} | {answer} |"
        )
        verdicts.append((table, format_, shift, low, high, answer))
    print()
    print(
        "Knockout, round 1 alone: the probability that the marked player goes through, "
        "± SE (at a four: measured in each field, the same seatings)."
    )
    print()
    header = " | ".join(f"advance_per_table={a}" for a in ADVANCE)
    print(f"| field | table | {header} |")
    print("|---|---|" + "---|" * len(ADVANCE))
    for name, sizes in FIELDS.items():
        for size in (4, sizes[-1]):
            cells = []
            for advance in ADVANCE:
                p, se = mean_se(through[name, size, advance])
                cells.append(f"{p:.1%} ± {se:.1%} (places per seat {min(advance / size, 1):.1%})")
            print(f"| {name} | {size} | {' | '.join(cells)} |")
    print()
    for table, format_, shift, low, high, answer in verdicts:
        direction = "better" if shift < 0 else "worse"
        if answer == "yes":
            said = f"exceeds {THRESHOLD} places"
        elif answer == "no":
            said = f"does not exceed {THRESHOLD} places"
        else:
            said = f"may or may not exceed {THRESHOLD} places (more events needed)"
        print(
            f"- {format_}: {table} in one of the {ROUNDS} rounds moves a typical player "
            f"{abs(shift):.2f} places {direction} (95%: {low:+.2f} .. {high:+.2f}): "
            f"the shift {said} in a {PLAYERS}-player field."
        )
    for name, sizes in FIELDS.items():
        size = sizes[-1]
        moves = []
        for advance in ADVANCE:
            at_four, _ = mean_se(through[name, 4, advance])
            at_odd, _ = mean_se(through[name, size, advance])
            moves.append(
                f"{at_four:.1%} at a four to {at_odd:.1%} at a {size} (advance_per_table={advance})"
            )
        print(f"- knockout: going through round 1 goes from {'; '.join(moves)}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=9, help="hands a set: 9 Jamaica, 7 Trinidad")
    args = parser.parse_args()
    if args.events < 2:
        parser.error("--events must be at least 2")
    run(args)


if __name__ == "__main__":
    main()
