"""A hand's score and penalty rows: those a scored entry stands for, and bringing the
stored ones to them with their history (in bulk: a fixed number of queries)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from core.common import with_history_user
from game import rules
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Seat

SCORE_FIELDS = ("card_points", "cards", "penalty_points", "score", "sat_out")
PENALTY_FIELDS = ("points", "extra_calls")


def cards_text(result: rules.SeatResult) -> str:
    return " ".join(str(card) for card in result.cards) if result.cards is not None else ""


def score_rows(
    hand: Hand, scored: rules.ScoredHand, seats: dict[int, Seat]
) -> tuple[list[HandScore], list[Penalty]]:
    """The score and penalty rows that `scored` stands for (unsaved)."""
    scores = [
        HandScore(
            hand=hand,
            seat=seats[r.seat],
            card_points=r.card_points,
            cards=cards_text(r),
            penalty_points=r.penalty_points,
            score=r.score,
            sat_out=r.sat_out,
        )
        for r in scored.results
    ]
    penalties = [
        Penalty(
            hand=hand,
            seat=seats[p.seat],
            kind=p.kind,
            points=p.points,
            extra_calls=p.extra_calls,
        )
        for p in scored.penalties
    ]
    return scores, penalties


def sync_rows(
    existing: dict, wanted: dict, fields: tuple[str, ...], by, reason: str | None = None
) -> None:
    """Bring stored rows to the wanted ones, updating in place so each row's history
    shows before -> after; rows no longer wanted are deleted. New and changed rows are
    written in bulk, with their history: two queries each, whatever their number."""
    for key, row in existing.items():
        if key not in wanted:
            with_history_user(row, by, reason).delete()
    created, changed, columns = [], [], set()
    for key, new in wanted.items():
        row = existing.get(key)
        if row is None:
            created.append(with_history_user(new, by, reason))
            continue
        differ = {f for f in fields if getattr(row, f) != getattr(new, f)}
        if differ:
            for f in differ:
                setattr(row, f, getattr(new, f))
            changed.append(with_history_user(row, by, reason))
            columns |= differ
    if created:
        bulk_create_with_history(created, type(created[0]), default_change_reason=reason)
    if changed:
        # Only the columns some row changed (the history rows keep every field).
        written = [f for f in fields if f in columns]
        bulk_update_with_history(changed, type(changed[0]), written, default_change_reason=reason)


@dataclass(frozen=True)
class StoredRows:
    """The score and penalty rows a hand has before a save (with their seats loaded)."""

    scores: list[HandScore]
    penalties: list[Penalty]


def write_rows(
    hand: Hand,
    scored: rules.ScoredHand,
    seats: dict[int, Seat],
    stored: StoredRows,
    by: AbstractBaseUser | None,
    reason: str | None = None,
) -> tuple[set[int], list[HandScore], list[Penalty]]:
    """Bring the hand's score and penalty rows from `stored` to what `scored` says;
    return the seats whose scores in it were written or removed (their set totals
    change), and the rows it now has."""
    scores, penalties = score_rows(hand, scored, seats)
    existing = {s.seat.position: s for s in stored.scores}
    sync_rows(existing, {s.seat.position: s for s in scores}, SCORE_FIELDS, by, reason)
    sync_rows(
        {(p.seat.position, p.kind): p for p in stored.penalties},
        {(p.seat.position, p.kind): p for p in penalties},
        PENALTY_FIELDS,
        by,
        reason,
    )
    return {s.seat_id for s in existing.values()} | {s.seat_id for s in scores}, scores, penalties
