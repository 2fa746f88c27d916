"""A generated round's tables, seats and hands, written as the services would write them
(the seating as `core.seating.services.store_plan` stores a plan, each hand's score and
penalty rows as `core.hands.rows.score_rows` makes them), in bulk with their history
(`core.demo.bulk`)."""

from __future__ import annotations

import random

from django.utils import timezone

from core import stored_texts as st
from core.demo.bulk import create_objects, create_values
from core.demo.simulator import Simulator
from core.hands.rows import cards_text
from core.seating.services import planned_seats
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
    tables = create_objects(Table, [Table(round=round_, number=t.number) for t in plan])
    seats = planned_seats(round_, tables, plan)
    return tables, create_objects(Seat, seats, reason=DEMO_DATA)


def write_round_hands(
    rng: random.Random,
    simulator: Simulator,
    event: Event,
    tables: list[Table],
    seats: list[Seat],
    in_play: bool,
) -> None:
    """Play every table's sheet (part of it at the tables of a round in play), each
    hand checked by the rules engine, and write the hands, scores and penalties."""
    ruleset, table_rules = simulator.ruleset, event.table_rules
    by_table: dict[int, dict[int, int]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, {})[seat.position] = seat.pk
    planned: list[tuple[tuple, rules.ScoredHand, dict[int, int]]] = []
    # The odd redeal: about one hand in fifty, and at least one in every round.
    forced_redeal = (rng.randrange(len(tables)), rng.randint(1, ruleset.hand_count))
    for index, table in enumerate(tables):
        table_seats = by_table[table.pk]
        positions = sorted(table_seats)
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
                    seats=positions,
                    entry=rules.HandEntry(redeal=True),
                    table_rules=table_rules,
                )
                planned.append((hand_values(table.pk, number, attempt, redeal, None), redeal, {}))
                attempt += 1
            scored = rules.score_hand(
                ruleset=ruleset,
                deck=simulator.deck,
                number=number,
                seats=positions,
                entry=simulator.hand_entry(number, positions),
                table_rules=table_rules,
            )
            went_out = table_seats[scored.went_out]
            planned.append(
                (hand_values(table.pk, number, attempt, scored, went_out), scored, table_seats)
            )
    when = timezone.now()
    hand_ids = create_values(
        Hand, HAND_NAMES, [values for values, _, _ in planned], reason=DEMO_DATA, when=when
    )
    score_rows: list[tuple] = []
    penalty_rows: list[tuple] = []
    for hand_id, (_, scored, table_seats) in zip(hand_ids, planned, strict=True):
        hand_scores, hand_penalties = score_values(hand_id, scored, table_seats)
        score_rows += hand_scores
        penalty_rows += hand_penalties
    create_values(HandScore, SCORE_NAMES, score_rows, reason=DEMO_DATA, when=when)
    create_values(Penalty, PENALTY_NAMES, penalty_rows, reason=DEMO_DATA, when=when)


# The fields of a hand, a hand score and a penalty the demo gives (the others take
# their defaults: no user recorded the hand, at the time of the write).
HAND_NAMES = (
    "table_id",
    "number",
    "attempt",
    "contract",
    "cards_dealt",
    "outcome",
    "went_out_id",
    "down_and_out",
    "version",
)
SCORE_NAMES = ("hand_id", "seat_id", "card_points", "cards", "penalty_points", "score", "sat_out")
PENALTY_NAMES = ("hand_id", "seat_id", "kind", "points", "extra_calls")


def hand_values(
    table_id: int, number: int, attempt: int, scored: rules.ScoredHand, went_out: int | None
) -> tuple:
    """A hand's HAND_NAMES: its first entry (version 1), or a later deal's."""
    return (
        table_id,
        number,
        attempt,
        scored.contract,
        scored.cards_dealt,
        scored.outcome,
        went_out,
        scored.down_and_out,
        attempt,
    )


def score_values(
    hand_id: int, scored: rules.ScoredHand, seat_ids: dict[int, int]
) -> tuple[list[tuple], list[tuple]]:
    """The values (SCORE_NAMES, PENALTY_NAMES) of the score and penalty rows
    `core.hands.rows.score_rows` makes for `scored`, seat positions taken to seat ids."""
    scores = [
        (
            hand_id,
            seat_ids[r.seat],
            r.card_points,
            cards_text(r),
            r.penalty_points,
            r.score,
            r.sat_out,
        )
        for r in scored.results
    ]
    penalties = [
        (hand_id, seat_ids[p.seat], p.kind, p.points, p.extra_calls) for p in scored.penalties
    ]
    return scores, penalties
