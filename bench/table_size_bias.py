"""A table of three or five: how far does it move a typical player's place?

Not a test: a simulation whose figures go in docs/benchmarks.md. Plain Python on the
`game` package: no Django, no database.

    .venv/bin/python bench/table_size_bias.py [--events 2000] [--seed 1] [--hands 9]
        [--knockout-events 1000] [--final-table 6]

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
- knockout, the whole event (the first --knockout-events events, 1000 by default, to
  keep the run short): the marked player's mean final place (1 = the winner) in a
  64-player knockout, at a four in round 1 ("never") or moved to a three (five) in
  round 1 ("once", the same round-1 seatings as above; round 1 is seated as above,
  four odd tables, where `table_sizes` would seat 64 at sixteen fours). Run as a
  director would run it: after each round `rank(format="knockout", rounds_closed=r)`
  says who is still in ("active"); while more than --final-table (6) are, they are
  seated at random at `game.seating.table_sizes(count, odd_tables)` tables, and once
  at most that many are, they play one final table (six at one table is a table the
  seating itself never deals: it would seat two threes; --final-table 5 plays the
  round of six first). The final place is the marked player's rank in `rank` over
  every round's sets; once the marked player is out the later rounds are not played,
  since they cannot move that rank (those out in a round rank below all who went
  through it and above all out before, by their set in it). Rounds 2 on are seated
  from one random order of the 64 per round, shared by both plays (those still in, in
  that order, cut into the tables), and every player has the same draws for a round in
  both plays; the marked player sits wherever that puts them, an odd table included,
  in both. No set is cut short and nobody withdraws, so the knockout's fill rule
  (places a table cannot fill go to the best of the rest) never comes into play here.

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

from bench._model import PLAYERS, ROUNDS, hand_draws, mean_se, play  # noqa: E402
from game.ranking import EntryRecord, SetRecord, rank  # noqa: E402
from game.ranking_keys import Ranked, places_by_table  # noqa: E402
from game.seating import table_sizes  # noqa: E402

FIELDS: dict[str, tuple[int, ...]] = {
    "threes": (4,) * 13 + (3,) * 4,
    "fives": (4,) * 11 + (5,) * 4,
}
MARKED = 0  # the marked player's entry; skill 0
SCORED_FORMATS = ("total", "table-points")
ADVANCE = (1, 2)
THRESHOLD = 3  # places: "does the shift exceed 3 places?"
Z95 = 1.96
KNOCKOUT_EVENTS = 1000  # whole knockout events played (the first of the --events)
FINAL_TABLE = 6  # at most this many still in play one final table
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


# Whether the knockout's places follow the seats (`--even-places`: the event setting
# `even_knockout_places`, `game.ranking_keys.places_by_table`) or are per table.
EVEN = {"places": False}


def round_one(sets: list[SetRecord], entries: list[EntryRecord], advance: int) -> list[Ranked]:
    """The knockout's standings once round 1 (`sets`) is decided."""
    return rank(
        format="knockout",
        sets=sets,
        entries=entries,
        advance_per_table=advance,
        rounds_closed=1,
        even_places=EVEN["places"],
    )


def went_through(ranked: list[Ranked]) -> int:
    return int(next(r.status for r in ranked if r.entry == MARKED) == "active")


def knockout_rounds(odd_tables: str, advance: int, final_table: int) -> list[int]:
    """The players in each round of a 64-player knockout, the final's last: with no set
    cut short, who goes through is a matter of the table sizes alone. Round 1 is seated
    as FIELDS says (`table_sizes` would seat 64 at sixteen fours), the later rounds as
    `table_sizes` does."""
    counts = [PLAYERS]
    while counts[-1] > final_table:
        sizes = FIELDS[odd_tables] if len(counts) == 1 else table_sizes(counts[-1], odd_tables)
        if EVEN["places"]:
            shares = places_by_table(dict(enumerate(sizes, 1)), advance, str)
            through = sum(min(shares[t], size) for t, size in enumerate(sizes, 1))
        else:
            through = sum(min(advance, size) for size in sizes)
        if through >= counts[-1]:
            raise SystemExit(f"advance_per_table={advance} never gets down to a final table")
        counts.append(through)
    return counts


def knockout_place(
    first: list[SetRecord],
    first_ranked: list[Ranked],
    odd_tables: str,
    advance: int,
    counts: list[int],
    orders: list[list[int]],
    draws,
    entries: list[EntryRecord],
    args: argparse.Namespace,
) -> int:
    """The marked player's final place in a whole knockout whose round 1 is `first`:
    later rounds seat those still in from `orders` (one random order of the field per
    round), at most `args.final_table` still in play the final at one table. `counts`:
    the players in each round (`knockout_rounds`), checked on the way."""
    sets, ranked = list(first), first_ranked
    number, final = 1, False
    while True:
        mine = next(r for r in ranked if r.entry == MARKED)
        if final or mine.status != "active":
            # Out in round `number` (or the final played), the place is final already:
            # nobody out plays again, and `rank` puts those out in a round below all who
            # went through it, above all out before, and among themselves by that
            # round's set, then their sets so far. The later rounds are not played.
            return mine.rank
        still_in = {r.entry for r in ranked if r.status == "active"}
        order = [player for player in orders[number - 1] if player in still_in]
        assert len(order) == counts[number], (len(order), counts)
        if len(order) <= args.final_table:
            tables, final = [order], True
        else:
            tables, start = [], 0
            for size in table_sizes(len(order), odd_tables):
                tables.append(order[start : start + size])
                start += size
        number += 1
        sets += round_sets(number, tables, draws[number - 1], args.hands)
        ranked = rank(
            format="knockout",
            sets=sets,
            entries=entries,
            advance_per_table=advance,
            rounds_closed=number,
            even_places=EVEN["places"],
        )


def run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    rng = random.Random(args.seed)
    flat = (1.0,) * args.hands
    entries = [EntryRecord(player) for player in range(PLAYERS)]
    # (field, format) -> per event: (place never, place once)
    places = {(name, f): [] for name in FIELDS for f in SCORED_FORMATS}
    # (field, table size, advance) -> per event: went through (1) or not (0)
    through: dict[tuple[str, int, int], list[int]] = {}
    # (field, advance) -> per whole knockout event: (final place at a four, at the odd table)
    finals: dict[tuple[str, int], list[tuple[int, int]]] = {
        (name, a): [] for name in FIELDS for a in ADVANCE
    }
    schedules = {
        (name, a): knockout_rounds(name, a, args.final_table) for name in FIELDS for a in ADVANCE
    }
    most_rounds = max(len(counts) for counts in schedules.values())
    # Its own stream, so the figures above come out as they do without the whole events.
    knockout_rng = random.Random(f"{args.seed}:knockout")
    for event in range(args.events):
        skills = {p: (0.0 if p == MARKED else rng.gauss(0.0, 1.0)) for p in range(PLAYERS)}
        draws = [{p: hand_draws(rng, s, flat) for p, s in skills.items()} for _ in range(ROUNDS)]
        whole = event < args.knockout_events
        if whole:
            # The whole knockouts' rounds 2 on: one order of the field a round, and draws
            # for the rounds past the first ROUNDS; the same for both fields and plays.
            orders = [knockout_rng.sample(range(PLAYERS), PLAYERS) for _ in range(most_rounds - 1)]
            every_round = draws + [
                {p: hand_draws(knockout_rng, s, flat) for p, s in skills.items()}
                for _ in range(most_rounds - ROUNDS)
            ]
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
                pair = []
                for size, sets in ((4, at_four), (odd_size, at_odd)):
                    ranked = round_one(sets, entries, advance)
                    through.setdefault((name, size, advance), []).append(went_through(ranked))
                    if whole:
                        pair.append(
                            knockout_place(
                                sets,
                                ranked,
                                name,
                                advance,
                                schedules[name, advance],
                                orders,
                                every_round,
                                entries,
                                args,
                            )
                        )
                if whole:
                    finals[name, advance].append((pair[0], pair[1]))
    took = time.perf_counter() - started
    print_report(args, places, through, took)
    print_finals(args, finals, schedules)


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


def print_finals(args, finals, schedules) -> None:
    events = min(args.knockout_events, args.events)
    if not events:
        return
    print()
    print(
        f"Knockout, the whole event ({events} events, the first of the {args.events}): the "
        f"marked player's mean final place (1 = the winner) in a {PLAYERS}-player knockout, "
        "at a four in round 1 or at the odd table, the rounds after seated at random "
        f"(the same seatings and draws both ways; at most {args.final_table} still in play "
        "one final table). Shift = odd table minus four (negative: better), ± SE, and its "
        "95% interval."
    )
    print()
    print(
        "| field | advance_per_table | players in, round by round | at a four in round 1: "
        "mean final place | at the odd table in round 1: mean final place | shift (places) "
        f"| 95% interval | shift > {THRESHOLD} places? |"
    )
    print("|---|---|---|---|---|---|---|---|")
    said = []
    for (name, advance), pairs in finals.items():
        four, _ = mean_se([a for a, _ in pairs])
        odd, _ = mean_se([b for _, b in pairs])
        shift, se = mean_se([b - a for a, b in pairs])
        answer = verdict(shift, se)
        low, high = shift - Z95 * se, shift + Z95 * se
        table = "a three" if name == "threes" else "a five"
        rounds = " → ".join(str(count) for count in schedules[name, advance])
        print(
            f"| {name} ({table}) | {advance} | {rounds} | {four:.2f} | {odd:.2f} "
            f"| {shift:+.2f} ± {se:.2f} | {low:+.2f} .. {high:+.2f} | {answer} |"
        )
        said.append((table, advance, shift, low, high, answer))
    print()
    for table, advance, shift, low, high, answer in said:
        direction = "better" if shift < 0 else "worse"
        if answer == "yes":
            verdict_said = f"exceeds {THRESHOLD} places"
        elif answer == "no":
            verdict_said = f"does not exceed {THRESHOLD} places"
        else:
            verdict_said = f"may or may not exceed {THRESHOLD} places (more events needed)"
        print(
            f"- knockout (advance_per_table={advance}): {table} instead of a four in round 1 "
            f"moves a typical player's final place {abs(shift):.2f} places {direction} "
            f"(95%: {low:+.2f} .. {high:+.2f}): the shift {verdict_said} in a "
            f"{PLAYERS}-player field."
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=9, help="hands a set: 9 Jamaica, 7 Trinidad")
    parser.add_argument(
        "--knockout-events",
        type=int,
        default=KNOCKOUT_EVENTS,
        help="of the events, how many also play a whole knockout (0: none)",
    )
    parser.add_argument(
        "--final-table",
        type=int,
        default=FINAL_TABLE,
        choices=(5, 6),
        help="at most this many still in play one final table",
    )
    parser.add_argument(
        "--even-places",
        action="store_true",
        help="knockout places follow the seats (the event setting even_knockout_places)",
    )
    args = parser.parse_args()
    EVEN["places"] = args.even_places
    if args.events < 2:
        parser.error("--events must be at least 2")
    if args.knockout_events == 1 or args.knockout_events < 0:
        parser.error("--knockout-events must be 0 or at least 2")
    run(args)


if __name__ == "__main__":
    main()
