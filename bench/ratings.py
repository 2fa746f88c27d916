"""How well do the ratings recover who is really better?

Players get a hidden true skill; events are played hand by hand by the demo
generator's simulator (core.demo.Simulator), biased by skill (a better player goes out
more often and is caught holding fewer cards), every hand scored by the rules engine
(game.rules.score_hand); round 1 is seated at random, later rounds swiss on the
event's standings (game.seating). After 1, 3 and 10 events, Kendall's tau between the
true skills and:

- the rating (game.ratings, openskill, as the site computes it: mu - 3 sigma, and
  other model settings),
- average finishing place (each event's place as a fraction of its field),
- average set total.

Averaged over several independent circuits (seeds). Also tries model settings.

    .venv/bin/python bench/ratings.py [--players 96] [--field 48] [--rounds 4] [--runs 6]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings_test")
import django  # noqa: E402

django.setup()

from openskill.models import (  # noqa: E402
    PlackettLuce,
    ThurstoneMostellerFull,
)

from core.demo import Simulator  # noqa: E402
from game import ratings as maths  # noqa: E402
from game import rules, seating  # noqa: E402
from game.cards import Deck  # noqa: E402
from game.rulesets import TableRules, get_ruleset  # noqa: E402

CHECKPOINTS = (1, 3, 10)


class SkilledSimulator(Simulator):
    """The demo's simulator with skill: who goes out is drawn with weight
    exp(OUT * skill), and each other seat keeps a share of its cards drawn from
    Beta(2, 3 * exp(KEEP * skill)) (a better player is caught with less). With
    `relative`, that skill is less the winner's: a strong winner goes out early and
    catches the others with more, so a set total depends on who else is at the table,
    as at a real table."""

    OUT = 0.5
    KEEP = 0.35

    def __init__(self, rng, ruleset, deck, penalty, skills, *, relative: bool = False):
        super().__init__(rng, ruleset, deck, penalty)
        self.skills = skills
        self.relative = relative
        self.seat_skill: dict[int, float] = {}

    def hand_entry(self, number: int, seats: list[int]) -> rules.HandEntry:
        rng = self.rng
        spec = self.ruleset.hand(number)
        deck = self.cards[:]
        rng.shuffle(deck)
        weights = [math.exp(self.OUT * self.seat_skill[s]) for s in seats]
        went_out = rng.choices(seats, weights=weights)[0]
        down_and_out = self.ruleset.down_and_out_allowed and rng.random() < 0.06
        scores, position = [], 0
        for seat in seats:
            if seat == went_out:
                continue
            held = spec.cards_dealt + 2 * rng.randint(0, 3)
            skill = self.seat_skill[seat]
            if down_and_out:
                share = rng.uniform(0.6, 1.0)
            else:
                if self.relative:  # caught by a stronger winner, holding more
                    skill -= self.seat_skill[went_out]
                share = rng.betavariate(2.0, 3.0 * math.exp(self.KEEP * skill))
            keep = max(1, min(held, round(held * share)))
            cards = deck[position : position + keep]
            position += keep
            scores.append(rules.SeatEntry(seat=seat, points=sum(c.points for c in cards)))
        return rules.HandEntry(went_out=went_out, down_and_out=down_and_out, scores=tuple(scores))


def play_event(rng, sim, field: list[int], rounds: int):
    """One event: returns its rounds (tables of maths.Result) and each player's place."""
    ruleset, deck, table_rules = sim.ruleset, sim.deck, TableRules()
    totals = dict.fromkeys(field, 0)
    met: dict[frozenset, int] = defaultdict(int)
    played_rounds = []
    for number in range(1, rounds + 1):
        order = sorted(field, key=lambda p: (totals[p], p))
        rank = {p: i + 1 for i, p in enumerate(order)}
        request = seating.SeatingRequest(
            contenders=tuple(
                seating.Contender(id=p, rank=rank[p] if number > 1 else None) for p in field
            ),
            met=dict(met),
            policy=seating.RANDOM if number == 1 else seating.SWISS,
            seed=rng.randrange(1 << 30),
        )
        tables = []
        for plan in seating.seat(request).tables:
            players = list(plan.seats)
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    met[frozenset((a, b))] += 1
            seat_of = {pos: p for pos, p in enumerate(players, start=1)}
            sim.seat_skill = {pos: sim.skills[p] for pos, p in seat_of.items()}
            set_total = dict.fromkeys(seat_of, 0)
            for hand in range(1, ruleset.hand_count + 1):
                scored = rules.score_hand(
                    ruleset=ruleset,
                    deck=deck,
                    number=hand,
                    seats=sorted(seat_of),
                    entry=sim.hand_entry(hand, sorted(seat_of)),
                    table_rules=table_rules,
                )
                for result in scored.results:
                    set_total[result.seat] += result.score
            tables.append([maths.Result(seat_of[s], t) for s, t in set_total.items()])
            for s, t in set_total.items():
                totals[seat_of[s]] += t
        played_rounds.append(tables)
    order = sorted(field, key=lambda p: (totals[p], p))
    places = {p: (i + 0.5) / len(field) for i, p in enumerate(order)}
    return played_rounds, places


def pick_field(rng, skills: dict[int, float], size: int, *, tiered: bool, event: int) -> list[int]:
    """Who plays an event: a uniform draw from the circuit or (tiered) a window of the
    circuit by strength, give or take (skill plus noise), moving from the strongest
    players to the middle to the weakest and round again: an open, a regional, a
    club night, with overlapping fields, so a place means different things at each."""
    pool = sorted(skills)
    if not tiered:
        return sorted(rng.sample(pool, size))
    order = sorted(pool, key=lambda p: -(skills[p] + rng.gauss(0.0, 0.5)))
    windows = 3
    start = (event % windows) * (len(pool) - size) // (windows - 1)
    return sorted(order[start : start + size])


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Kendall's tau-b."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0


def model_settings():
    """(name, model, score) of the settings tried; score: a rating -> what to rank by."""
    shown = lambda r: r.display  # noqa: E731
    mean = lambda r: r.mu  # noqa: E731
    b = maths.BETA
    pl = PlackettLuce
    return [
        ("site: Bradley-Terry (full pairing), beta 25/6, mu-3σ", maths.MODEL, shown),
        ("Bradley-Terry, ranked by mu", maths.MODEL, mean),
        ("Bradley-Terry, beta 25/12", maths.make_model(beta=b / 2), shown),
        ("Bradley-Terry, beta 25/3", maths.make_model(beta=b * 2), shown),
        ("Bradley-Terry, tau 0", maths.make_model(tau=0.0), shown),
        ("Plackett-Luce (openskill's default), beta 25/6", maths.make_model(kind=pl), shown),
        ("Plackett-Luce, ranked by mu", maths.make_model(kind=pl), mean),
        ("Plackett-Luce, beta 25/24", maths.make_model(kind=pl, beta=b / 4), shown),
        ("Plackett-Luce, beta 25/3", maths.make_model(kind=pl, beta=b * 2), shown),
        (
            "Thurstone-Mosteller (full pairing)",
            maths.make_model(kind=ThurstoneMostellerFull),
            shown,
        ),
    ]


def run_circuit(seed: int, args, settings):
    rng = random.Random(seed)
    skills = {p: rng.gauss(0.0, 1.0) for p in range(1, args.players + 1)}
    ruleset = get_ruleset("jamaica")
    sim = SkilledSimulator(
        rng, ruleset, Deck(packs=2, jokers=4), 100, skills, relative=args.hands == "relative"
    )
    ratings = [dict() for _ in settings]
    places: dict[int, list[float]] = defaultdict(list)
    set_totals: dict[int, list[int]] = defaultdict(list)
    out = {}
    for event in range(1, max(CHECKPOINTS) + 1):
        field = pick_field(rng, skills, args.field, tiered=args.fields == "tiered", event=event)
        played, event_places = play_event(rng, sim, field, args.rounds)
        for p, place in event_places.items():
            places[p].append(place)
        for tables in played:
            for table in tables:
                for r in table:
                    set_totals[r.player].append(r.total)
        for i, (_name, model, _score) in enumerate(settings):
            ratings[i] = maths.rate_all(played, ratings[i], model=model)
        if event in CHECKPOINTS:
            seen = sorted(places)
            truth = [skills[p] for p in seen]
            row = {
                "average place": kendall_tau(truth, [-statistics.mean(places[p]) for p in seen]),
                "average set total": kendall_tau(
                    truth, [-statistics.mean(set_totals[p]) for p in seen]
                ),
            }
            for i, (name, _model, score) in enumerate(settings):
                row[name] = kendall_tau(truth, [score(ratings[i][p]) for p in seen])
            out[event] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=96, help="players in the circuit")
    parser.add_argument("--field", type=int, default=48, help="players at each event")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per event")
    parser.add_argument("--runs", type=int, default=6, help="independent circuits averaged")
    parser.add_argument(
        "--hands",
        choices=["absolute", "relative"],
        default="relative",
        help="whether a seat's cards held depend on the winner's skill (relative) or not",
    )
    parser.add_argument(
        "--fields",
        choices=["uniform", "tiered"],
        default="tiered",
        help="who plays each event: a uniform draw, or strong, middle and weak fields in turn",
    )
    args = parser.parse_args()
    settings = model_settings()
    started = time.perf_counter()
    results = [run_circuit(1000 + run, args, settings) for run in range(args.runs)]
    elapsed = time.perf_counter() - started
    names = ["average place", "average set total", *[name for name, _, _ in settings]]
    print(f"$ {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(
        f"{args.players} players with hidden skills N(0, 1), {args.field} at each event "
        f"({args.fields} fields, {args.hands} hands), "
        f"{args.rounds} rounds of 9 hands (jamaica); Kendall's tau vs true skill, mean "
        f"(± standard deviation) over {args.runs} circuits; {elapsed:.0f}s"
    )
    header = (
        "| ranked by | "
        + " | ".join(f"after {n} event{'s' if n > 1 else ''}" for n in CHECKPOINTS)
        + " |"
    )
    print(header)
    print("|---|" + "---|" * len(CHECKPOINTS))
    for name in names:
        cells = []
        for n in CHECKPOINTS:
            values = [r[n][name] for r in results]
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.mean(values):.3f} (± {spread:.3f})")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
