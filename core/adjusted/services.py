"""A round's adjusted scores (the director marks players at fault in `core.rounds`).

A round's adjusted scores (`scoring.models.AdjustedScore`) are made when it closes
(`adjust_round`, called by `core.rounds.services.close_round`), dropped when it is
reopened (`drop_adjusted`: while a round is in play nothing is adjusted), and made
again by a full standings rebuild. The rule is `game.adjusted`'s.
"""

from __future__ import annotations

from collections import Counter

from django.utils import timezone

from game import adjusted
from scoring.models import AdjustedScore, Hand, HandScore
from tournaments.models import Event, Round, Seat


def round_seats(round_: Round, hand_count: int) -> list[adjusted.SeatHands]:
    """Every seat of the round with the hands it played, as `game.adjusted` reads them:
    2 queries."""
    seats = list(
        Seat.objects.filter(round=round_).values_list(
            "pk", "table_id", "table__number", "left_after_hand", "at_fault"
        )
    )
    sizes = Counter(table for _, table, _, _, _ in seats)
    played: dict[int, dict[int, int]] = {pk: {} for pk, *_ in seats}
    scores = HandScore.objects.filter(
        hand__table__round=round_, hand__outcome=Hand.Outcome.SCORED
    ).values_list("seat_id", "hand__number", "score", "penalty_points")
    for seat, number, score, penalty in scores:
        # The hand as played: a director's penalty stays with whoever earned it.
        played[seat][number] = score - penalty
    return [
        adjusted.SeatHands(
            seat=pk,
            table=table_number,
            size=sizes[table],
            scores=played[pk],
            withdrew=left_after is not None and left_after < hand_count,
            at_fault=bool(at_fault),
        )
        for pk, table, table_number, left_after, at_fault in seats
    ]


def adjust_round(round_: Round) -> int:
    """Make the closed round's adjusted scores anew, in the caller's transaction (which
    holds the event's lock): those made before are replaced, and the round's
    `adjusted_at` moves, so what was read from its sets is read again. Returns how many
    hands were adjusted."""
    hand_count = round_.event.rules.hand_count
    made = adjusted.adjust(round_seats(round_, hand_count), hand_count)
    AdjustedScore.objects.filter(seat__round=round_).delete()
    AdjustedScore.objects.bulk_create(
        AdjustedScore(
            seat_id=a.seat, number=a.hand, score=a.score, at_fault=a.at_fault, rule=a.rule
        )
        for a in made
    )
    Round.objects.filter(pk=round_.pk).update(adjusted_at=timezone.now())
    return len(made)


def drop_adjusted(round_: Round) -> None:
    """A reopened round is in play again: nothing in it is adjusted until it closes."""
    AdjustedScore.objects.filter(seat__round=round_).delete()
    Round.objects.filter(pk=round_.pk).update(adjusted_at=None)


def adjust_closed_rounds(event: Event) -> int:
    """Every closed round's adjusted scores made again from its hands (a full rebuild):
    the same values, unless they were lost. A round closed before adjusted scores
    existed (none made: `adjusted_at` empty) keeps its results as they were ranked."""
    return sum(
        adjust_round(r)
        for r in event.rounds.filter(
            status=Round.Status.CLOSED, adjusted_at__isnull=False
        ).select_related("event")
    )
