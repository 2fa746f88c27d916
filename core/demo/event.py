"""The demo event, round by round: its players and entries, each round seated as a
director's random draw would seat it (`game.seating`), every table's sheet played
(`core.demo.hands`), and for an event still running the round in play part-entered,
with its players' codes, a player who left mid-set and the venue's screens.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from core.demo.bulk import bulk_load
from core.demo.hands import DEMO_DATA, store_tables, write_round_hands
from core.demo.players import make_players
from core.demo.simulator import Simulator
from core.entries.services import withdraw_entry
from core.screens.services import clock_action, post_announcement
from core.standings.services import collection_paused
from core.table_entry.services import issue_codes
from game import seating
from game.ranking import draw_commitment
from scoring.models import Hand
from tournaments.models import Entry, Event, Round, Seat


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


def generate_demo_event(options: DemoOptions) -> Event:
    """Make the event `options` describe, in one transaction. The garbage collector is
    held off meanwhile: the many rows' values it makes are short-lived and hold no
    cycles, and walking them over and over was a sixth of a big event's time."""
    with collection_paused(), transaction.atomic(), bulk_load():
        return write_demo_event(options)


def write_demo_event(options: DemoOptions) -> Event:
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
        tables, seats = store_tables(round_, plan.tables)
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
        clock_action(round=round_, action="pause")
    clock_action(round=round_, action="start", minutes=event.round_minutes)
    begun = Hand.objects.filter(table__round=round_).exists()
    if begun:
        clock_action(round=round_, action="extend", minutes=-DEMO_ELAPSED)
    if round_.tables.filter(number=2).exists():
        clock_action(round=round_, action="extend", minutes=5, table=2)
    if not event.announcements.filter(removed_at__isnull=True).exists():
        text = (
            "Lunch is served in the hall from 13:00"
            if begun
            else f"Round {round_.number} is seated: find your table on the board"
        )
        post_announcement(event=event, text=text)


def withdraw_mid_round(rng: random.Random, round_: Round) -> None:
    """A player who leaves a table part-way down its sheet, as happens on the day: they
    keep the hands played, the table plays on without them (through the service). Read
    in three queries, whatever the round's size."""
    hands = round_.event.rules.hand_count
    scored = Counter(
        Hand.objects.filter(table__round=round_, outcome="scored").values_list(
            "table_id", flat=True
        )
    )
    seats_at: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("entry__player"):
        seats_at.setdefault(seat.table_id, []).append(seat)
    part_way = [
        table
        for table in round_.tables.all()
        if len(seats_at.get(table.pk, ())) >= 4 and 0 < scored[table.pk] < hands
    ]
    if part_way:
        table = rng.choice(sorted(part_way, key=lambda t: t.number))
        seat = rng.choice(sorted(seats_at[table.pk], key=lambda s: s.position))
        withdraw_entry(entry=seat.entry)
