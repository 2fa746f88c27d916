"""Seating round 6 of a generated 1,024-player event, swiss, on PostgreSQL.

Times the whole service (gather who met whom, standings and dealer history from the
database, seat, store the tables and seats with history) and the pure seating step
inside it, and prints the repeat meetings the quality report gives.

    .venv/bin/python bench/seat_round.py
"""

from __future__ import annotations

import time

from _setup import big_event, command_line, setup_django


def main() -> None:
    print(f"$ {command_line()}")
    setup_django()
    from django.db import transaction

    from core.seating.selectors import seating_request
    from core.services import refresh_standings, start_round
    from game import seating
    from tournaments.models import Event, Round

    event = big_event(1024, 5)
    Round.objects.filter(event=event, number__gt=5).delete()
    Event.objects.filter(pk=event.pk).update(
        status=Event.Status.RUNNING, rounds_planned=10, seating=Event.Seating.SWISS
    )
    event.refresh_from_db()
    refresh_standings(event=event)
    with transaction.atomic():
        round_ = Round.objects.create(event=event, number=6, status="seating", policy="swiss")
        started = time.perf_counter()
        request = seating_request(round_)
        gathered = time.perf_counter()
        plan = seating.seat(request)
        seated = time.perf_counter()
        transaction.set_rollback(True)
    started_service = time.perf_counter()
    round_ = start_round(event=event, policy="swiss", seed=6)  # Celery eager: seats it
    service = time.perf_counter() - started_service
    round_.refresh_from_db()
    print(f"{event.slug}: round 6 of 10, {len(request.contenders)} players, swiss")
    print(f"  gather history and standings from the database: {gathered - started:.3f} s")
    print(f"  seating.seat():                                  {seated - gathered:.3f} s")
    print(f"  start_round -> seat_round -> tables stored:      {service:.3f} s")
    print(
        f"  repeat meetings: {round_.quality['repeat_meetings']} "
        f"(lower bound {round_.quality['lower_bound']}); "
        f"largest rank spread at a table: {max(plan.quality.rank_spread or [0])}"
    )
    Round.objects.filter(pk=round_.pk).delete()


if __name__ == "__main__":
    main()
