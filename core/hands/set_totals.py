"""Each seat's set totals, kept up to date by the write that changes them.

A standings rebuild needs, for every seat, its set's total, director-penalty points,
hands won and hands played. Adding them up from every hand score of the event is the
cost of a full rebuild; instead, the transaction that saves (or deletes) a hand adds
them up again for the seats at that one table (`keep`: one query, whatever the
event's size) and stores them as `scoring.models.SetTotal` rows, so the rebuild after
it reads one row per set (`core.standings.rebuild.kept_set_records`).

The totals are trusted only for an event whose totals a full rebuild has written
(`rebuild`, which marks them kept): an imported event, one generated in bulk, or one
whose round was reopened (`forget`) is rebuilt in full from its hand scores first.
"""

from __future__ import annotations

from django.db import connection

from scoring.models import DerivedState, Hand, HandScore, SetTotal
from tournaments.models import Round, Seat, Table

TOTAL, SEAT = SetTotal._meta.db_table, Seat._meta.db_table
SCORE, HAND = HandScore._meta.db_table, Hand._meta.db_table

# The DerivedState row that says an event's set totals are kept by every hand save
# (never dirty: `derived.catch_up` leaves it alone).
KEPT = "core.set_totals"
FIELDS = ("total", "penalty_points", "hands_won", "hands_played")
ZERO = dict.fromkeys(FIELDS, 0)


def keep(*, event_id: int, table_id: int, seat_ids) -> None:
    """Add up again the sets of `seat_ids` (seats at table `table_id`) from their
    scored hands and store them: 1 query (an upsert from the sums). Called inside the
    hand's transaction, holding the table's row lock, so the totals commit with the
    hand."""
    seat_ids = sorted(set(seat_ids))
    if not seat_ids:
        return
    marks = ", ".join(["%s"] * len(seat_ids))
    sql = f"""
        INSERT INTO {TOTAL} (seat_id, event_id, total, penalty_points, hands_won, hands_played)
        SELECT s.id, %s,
               COALESCE(SUM(CASE WHEN h.id IS NULL THEN 0 ELSE hs.score END), 0),
               COALESCE(SUM(CASE WHEN h.id IS NULL THEN 0 ELSE hs.penalty_points END), 0),
               COALESCE(SUM(CASE WHEN h.went_out_id = s.id THEN 1 ELSE 0 END), 0),
               COUNT(h.id)
        FROM {SEAT} s
        LEFT JOIN {SCORE} hs ON hs.seat_id = s.id
        LEFT JOIN {HAND} h ON h.id = hs.hand_id AND h.table_id = %s AND h.outcome = %s
        WHERE s.id IN ({marks})
        GROUP BY s.id
        ON CONFLICT (seat_id) DO UPDATE SET total = excluded.total,
            penalty_points = excluded.penalty_points, hands_won = excluded.hands_won,
            hands_played = excluded.hands_played
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [event_id, table_id, Hand.Outcome.SCORED, *seat_ids])


def store(event_id: int, totals: dict[int, dict]) -> None:
    SetTotal.objects.bulk_create(
        [
            SetTotal(seat_id=seat, event_id=event_id, **{f: row[f] for f in FIELDS})
            for seat, row in totals.items()
        ],
        update_conflicts=True,
        unique_fields=["seat"],
        update_fields=list(FIELDS),
        batch_size=2000,
    )


def rebuild(event_id: int, scored: dict[int, dict]) -> None:
    """Write every seat's set totals of the event again from `scored` (seat -> the sums
    over its hand scores, as `scored_totals` gives them), and mark them kept."""
    seats = Seat.objects.filter(round__event_id=event_id).values_list("pk", flat=True)
    SetTotal.objects.filter(event_id=event_id).delete()
    store(event_id, {seat: scored.get(seat, ZERO) for seat in seats})
    DerivedState.objects.update_or_create(
        kind=KEPT, key=event_id, defaults={"dirty_since": None, "changes": 0, "built": 0}
    )


def lock_tables_in_play(event_id: int) -> None:
    """Hold the row locks of the event's tables in play (those a hand save locks), so
    no save commits while a full rebuild reads the hand scores and writes the totals."""
    list(
        Table.objects.select_for_update(of=("self",))
        .filter(round__event_id=event_id, round__status=Round.Status.PUBLISHED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def is_kept(event_id: int) -> bool:
    return DerivedState.objects.filter(kind=KEPT, key=event_id).exists()


def forget(event_id: int) -> None:
    """The event's set totals can no longer be trusted (a round reopened, data loaded in
    bulk): the next standings rebuild is a full one."""
    DerivedState.objects.filter(kind=KEPT, key=event_id).delete()
