"""A complete, plausible Kalooki event, made by simulating every table's score sheet.

Each hand is played out as far as scoring needs: a real deck is shuffled, every
player is dealt, one player goes out and the others keep a realistic part of their
hand (so totals are real card values, within every bound), with the odd
down-and-out, redeal and over-call. Every hand is checked by `game.rules` exactly
as a director's entry would be, then written in bulk with its history.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from core import services
from core import stored_texts as st
from core.seating.services import store_plan
from core.services import issue_codes, score_rows, withdraw_entry
from game import rules, seating
from game.cards import Card, Deck
from game.ranking import draw_commitment
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Entry, Event, Player, Round, Seat, Table

# The history's reason for every row the demo makes (worded when shown).
DEMO_DATA = st.stored(st.DEMO)

FIRST_NAMES = [
    "Andre",
    "Beverley",
    "Carlton",
    "Delroy",
    "Donovan",
    "Errol",
    "Fitzroy",
    "Garfield",
    "Hyacinth",
    "Icilda",
    "Jasmine",
    "Kemar",
    "Lorna",
    "Marcia",
    "Nadine",
    "Omar",
    "Patrice",
    "Queenie",
    "Rohan",
    "Sheldon",
    "Tamika",
    "Winston",
    "Yvonne",
    "Claudette",
    "Desmond",
    "Everton",
    "Kadian",
    "Leroy",
    "Monique",
    "Neville",
    "Odette",
    "Paulette",
    "Ricardo",
    "Shanice",
    "Tyrone",
    "Veronica",
    "Althea",
    "Barrington",
    "Camille",
    "Dwayne",
    "Keisha",
    "Lloyd",
    "Maxine",
    "Orville",
    "Sharon",
]
LAST_NAMES = [
    "Brown",
    "Campbell",
    "Clarke",
    "Edwards",
    "Ferguson",
    "Gordon",
    "Grant",
    "Henry",
    "James",
    "Johnson",
    "Lewis",
    "Morgan",
    "Reid",
    "Robinson",
    "Scott",
    "Smith",
    "Stewart",
    "Thomas",
    "Thompson",
    "Walker",
    "Williams",
    "Wilson",
    "Wright",
    "Bailey",
    "Barrett",
    "Chin",
    "Ellis",
    "Forbes",
    "Hylton",
    "Lindo",
    "Mais",
    "McKenzie",
    "Palmer",
    "Powell",
    "Rattray",
    "Samuels",
    "Sinclair",
    "Whyte",
    "Ramdial",
    "Mohammed",
    "Charles",
    "Joseph",
    "Baptiste",
    "Alexander",
    "Ramsaran",
]
CLUBS = (
    ("Kingston Kalooki Club", "JM"),
    ("Spanish Town Card Players", "JM"),
    ("Montego Bay Rummy Circle", "JM"),
    ("Mandeville Social Club", "JM"),
    ("Ocho Rios Kalooki League", "JM"),
    ("May Pen Domino & Kalooki", "JM"),
    ("Port of Spain All Fours & Kalooki", "TT"),
    ("San Fernando Card Club", "TT"),
    ("Brooklyn Jamaican Association", "US"),
    ("Toronto Caribbean Club", "CA"),
    ("Birmingham Kalooki Society", "GB"),
)


@dataclass(frozen=True)
class DemoOptions:
    players: int = 32
    rounds: int = 3
    seed: int = 7
    slug: str = "demo-kalooki-open"
    name: str = "Demo Kalooki Open"
    ruleset: str = "jamaica"
    # Leave the last round in play with some hands still to enter.
    live: bool = False
    # With `live`: the last round just published, no hand played yet (the seating board).
    seated: bool = False
    # Rounds the event plans (default: those generated); with no round generated, the
    # event is still taking registrations.
    planned: int | None = None
    # Who enters the hands ("directors" or "players", Event.table_entry).
    table_entry: str = "directors"
    # Where the event is played.
    venue: str = "Kingston, Jamaica"


class Simulator:
    """Plays hands at one table well enough to produce a director's sheet."""

    def __init__(self, rng: random.Random, ruleset: rules.Ruleset, deck: Deck, penalty: int):
        self.rng = rng
        self.ruleset = ruleset
        self.deck = deck
        self.penalty = penalty
        self.cards = [
            Card(rank, suit)
            for _ in range(deck.packs)
            for suit in "SHDC"
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        ] + [Card("JK", None)] * deck.jokers

    def hand_entry(self, number: int, seats: list[int]) -> rules.HandEntry:
        """One scored hand's sheet row, as a director would enter it."""
        rng = self.rng
        spec = self.ruleset.hand(number)
        deck = self.cards[:]
        rng.shuffle(deck)
        went_out = rng.choice(seats)
        down_and_out = self.ruleset.down_and_out_allowed and rng.random() < 0.06
        # One hand in forty or so, someone is caught with more than three calls.
        over_caller = None
        if rng.random() < 0.025:
            over_caller = rng.choice([s for s in seats if s != went_out])
        by_cards = rng.random() < 0.15  # some sheets list the cards held
        scores, position = [], 0
        for seat in seats:
            if seat == went_out:
                continue
            held = spec.cards_dealt + 2 * rng.randint(0, 3)
            if seat == over_caller:
                held += 2
            # Down and out catches everyone holding most of a hand.
            share = rng.uniform(0.6, 1.0) if down_and_out else rng.betavariate(2.0, 3.0)
            keep = max(1, min(held, round(held * share)))
            cards = deck[position : position + keep]
            position += keep
            if by_cards:
                scores.append(rules.SeatEntry(seat=seat, cards=" ".join(map(str, cards))))
            else:
                scores.append(rules.SeatEntry(seat=seat, points=sum(c.points for c in cards)))
        penalties = ()
        if over_caller is not None:
            penalties = (rules.PenaltyEntry(seat=over_caller, kind="overcall", extra_calls=1),)
        return rules.HandEntry(
            went_out=went_out,
            down_and_out=down_and_out,
            scores=tuple(scores),
            penalties=penalties,
        )


def make_players(rng: random.Random, count: int, *, taken: Iterable[str] = ()) -> list[Player]:
    """`count` new players with names of their own (none of `taken` either)."""
    players, seen = [], set(taken)
    while len(players) < count:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name in seen:
            name = f"{name} {len([n for n in seen if n.startswith(name)]) + 1}"
        seen.add(name)
        club, country = rng.choice(CLUBS)
        players.append(
            Player(name=name, club=club, country=country, rating=rng.randint(1200, 2000))
        )
    return Player.objects.bulk_create(players)


@transaction.atomic
def generate_demo_event(options: DemoOptions) -> Event:
    rng = random.Random(options.seed)
    event = Event.objects.create(
        slug=options.slug,
        name=options.name,
        starts_on=timezone.localdate(),
        venue=options.venue,
        ruleset=options.ruleset,
        rounds_planned=options.planned or options.rounds or 3,
        status=(
            Event.Status.REGISTRATION
            if options.rounds == 0
            else Event.Status.RUNNING
            if options.live or (options.planned or 0) > options.rounds
            else Event.Status.FINISHED
        ),
        public=True,
        # The same generator seed makes the same event, its draw included.
        draw_seed=draw_commitment(f"demo:{options.seed}"),
        table_entry=options.table_entry,
    )
    players = make_players(rng, options.players)
    entries = bulk_create_with_history(
        [
            Entry(event=event, player=player, seed_number=i)
            for i, player in enumerate(players, start=1)
        ],
        Entry,
        default_change_reason=DEMO_DATA,
    )
    ruleset, deck = event.rules, event.deck
    simulator = Simulator(rng, ruleset, deck, event.director_penalty)
    met: Counter[frozenset[int]] = Counter()
    dealt: Counter[int] = Counter()
    now = timezone.now()
    for number in range(1, options.rounds + 1):
        last = number == options.rounds
        in_play = options.live and last
        round_ = Round.objects.create(
            event=event,
            number=number,
            status=Round.Status.PUBLISHED if in_play else Round.Status.CLOSED,
            policy="random",
            seed=rng.randrange(2**31),
            published_at=now,
            closed_at=None if in_play else now,
        )
        # Seated as a director would have them: the random policy, which also keeps
        # players who already met apart and shares out who deals first.
        plan = seating.seat(
            seating.SeatingRequest(
                contenders=tuple(
                    seating.Contender(id=e.pk, dealt_first=dealt[e.pk]) for e in entries
                ),
                met=dict(met),
                policy="random",
                seed=round_.seed,
            )
        )
        round_.quality = plan.quality.as_dict()
        round_.save(update_fields=["quality"])
        tables, seats = store_plan(round_, plan.tables, reason=DEMO_DATA)
        for planned in plan.tables:
            for a, b in combinations(sorted(planned.seats), 2):
                met[frozenset((a, b))] += 1
            dealt[planned.seats[planned.dealer - 1]] += 1
        if not (in_play and options.seated):
            write_round_hands(rng, simulator, event, tables, seats, in_play)
        if in_play:  # as publishing it would have: each player's code for the round
            issue_codes(round=round_)
            if not options.seated:
                withdraw_mid_round(rng, round_)
    if options.live:
        demo_screens(event)
    return event


# Minutes of the round already played when the demo's round in play has hands.
DEMO_ELAPSED = 55


def demo_screens(event: Event) -> None:
    """What a venue's screens show during the round in play: its clock running (started
    DEMO_ELAPSED minutes ago, or just now for a round not begun, table 2 given 5 more
    minutes for a late start) and an announcement. Run again, it starts the clock afresh,
    so a demo loaded days ago still shows it running."""
    round_ = event.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if round_ is None:
        return
    clock = getattr(round_, "clock", None)
    if clock is not None and clock.paused_at is None:
        services.clock_action(round=round_, action="pause")
    services.clock_action(round=round_, action="start", minutes=event.round_minutes)
    begun = Hand.objects.filter(table__round=round_).exists()
    if begun:
        services.clock_action(round=round_, action="extend", minutes=-DEMO_ELAPSED)
    if round_.tables.filter(number=2).exists():
        services.clock_action(round=round_, action="extend", minutes=5, table=2)
    if not event.announcements.filter(removed_at__isnull=True).exists():
        text = (
            "Lunch is served in the hall from 13:00"
            if begun
            else f"Round {round_.number} is seated: find your table on the board"
        )
        services.post_announcement(event=event, text=text)


def withdraw_mid_round(rng: random.Random, round_: Round) -> None:
    """A player who leaves a table part-way down its sheet, as happens on the day: they
    keep the hands played, the table plays on without them (through the service)."""
    hands = round_.event.rules.hand_count
    part_way = [
        table
        for table in round_.tables.prefetch_related("seats__entry__player")
        if len(table.seats.all()) >= 4
        and 0 < Hand.objects.filter(table=table, outcome="scored").count() < hands
    ]
    if part_way:
        table = rng.choice(sorted(part_way, key=lambda t: t.number))
        seat = rng.choice(sorted(table.seats.all(), key=lambda s: s.position))
        withdraw_entry(entry=seat.entry)


def write_round_hands(
    rng: random.Random,
    simulator: Simulator,
    event: Event,
    tables: list[Table],
    seats: list[Seat],
    in_play: bool,
) -> None:
    ruleset = simulator.ruleset
    by_table: dict[int, dict[int, Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, {})[seat.position] = seat
    planned: list[tuple[Hand, rules.ScoredHand, dict[int, Seat]]] = []
    # The odd redeal: about one hand in fifty, and at least one in every round.
    forced_redeal = (rng.randrange(len(tables)), rng.randint(1, ruleset.hand_count))
    for index, table in enumerate(tables):
        table_seats = by_table[table.pk]
        hands = ruleset.hand_count
        if in_play:
            # A round in progress: some tables done, most part-way down the sheet.
            hands = rng.choice([ruleset.hand_count, *range(0, ruleset.hand_count)])
        for number in range(1, hands + 1):
            attempt = 1
            if rng.random() < 0.02 or (index, number) == forced_redeal:
                redeal = rules.score_hand(
                    ruleset=ruleset,
                    deck=simulator.deck,
                    number=number,
                    seats=sorted(table_seats),
                    entry=rules.HandEntry(redeal=True),
                    table_rules=event.table_rules,
                )
                planned.append((new_hand(table, number, attempt, redeal), redeal, table_seats))
                attempt += 1
            scored = rules.score_hand(
                ruleset=ruleset,
                deck=simulator.deck,
                number=number,
                seats=sorted(table_seats),
                entry=simulator.hand_entry(number, sorted(table_seats)),
                table_rules=event.table_rules,
            )
            hand = new_hand(table, number, attempt, scored)
            hand.went_out = table_seats[scored.went_out]
            planned.append((hand, scored, table_seats))
    hands = bulk_create_with_history(
        [hand for hand, _, _ in planned], Hand, default_change_reason=DEMO_DATA
    )
    score_objs: list[HandScore] = []
    penalty_objs: list[Penalty] = []
    for hand, (_, scored, table_seats) in zip(hands, planned, strict=True):
        hand_scores, hand_penalties = score_rows(hand, scored, table_seats)
        score_objs += hand_scores
        penalty_objs += hand_penalties
    bulk_create_with_history(
        score_objs, HandScore, batch_size=5000, default_change_reason=DEMO_DATA
    )
    bulk_create_with_history(penalty_objs, Penalty, default_change_reason=DEMO_DATA)


def new_hand(table: Table, number: int, attempt: int, scored: rules.ScoredHand) -> Hand:
    return Hand(
        table=table,
        number=number,
        attempt=attempt,
        contract=scored.contract,
        cards_dealt=scored.cards_dealt,
        outcome=scored.outcome,
        down_and_out=scored.down_and_out,
        version=attempt,
    )
