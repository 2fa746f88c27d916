"""A generated round's tables, seats and hands, written as the services would write them
(the seating as `core.seating.services.store_plan` stores a plan, each hand's rows as
`core.hands.services.score_rows` makes them), in bulk with their history."""

from __future__ import annotations

import random

from core import stored_texts as st
from core.demo.bulk import create_rows, create_with_history
from core.demo.simulator import Simulator
from core.hands.rows import score_rows
from game import rules, seating
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Event, Round, Seat, Table

# The history's reason for every row the demo makes (worded when shown).
DEMO_DATA = st.stored(st.DEMO)


def store_tables(
    round_: Round, plan: tuple[seating.TablePlan, ...]
) -> tuple[list[Table], list[Seat]]:
    """The round's tables and seats as `store_plan` writes them: the tables (no history,
    as there), the seats with theirs."""
    tables = [Table(round=round_, number=t.number) for t in plan]
    create_rows(Table, tables)
    seats = [
        Seat(
            table=table,
            round=round_,
            entry_id=entry_id,
            position=position,
            first_dealer=position == planned.dealer,
        )
        for table, planned in zip(tables, plan, strict=True)
        for position, entry_id in enumerate(planned.seats, start=1)
    ]
    return tables, create_with_history(Seat, seats, reason=DEMO_DATA)


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
    hands = create_with_history(Hand, [hand for hand, _, _ in planned], reason=DEMO_DATA)
    score_objs: list[HandScore] = []
    penalty_objs: list[Penalty] = []
    for hand, (_, scored, table_seats) in zip(hands, planned, strict=True):
        hand_scores, hand_penalties = score_rows(hand, scored, table_seats)
        score_objs += hand_scores
        penalty_objs += hand_penalties
    create_with_history(HandScore, score_objs, reason=DEMO_DATA)
    create_with_history(Penalty, penalty_objs, reason=DEMO_DATA)


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
