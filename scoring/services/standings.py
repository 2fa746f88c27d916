"""Standings: rebuilt from the scores by a Celery task after every change.

One read query gathers each entry's set at each table (total, hands won, penalty
points, hands played); the pure `scoring.ranking` orders them; the rows of the
current round are replaced in one transaction and the event's standings version
grows, which is what pages and caches key on. A closed round's rows are never
rewritten by a later round: they stay readable as that round's final standings.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Q, Sum

from scoring import ranking
from scoring.leaderboard import announce_version
from scoring.models import Hand, HandScore, Standing
from scoring.rulesets import get_ruleset
from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, Round, Seat

# Changes that arrive within this many seconds share one rebuild.
COLLAPSE_SECONDS = 1.0


def pending_key(event_id: int) -> str:
    return f"standings-pending:{event_id}"


def queue_standings_refresh(event: Event) -> None:
    """After this transaction commits, have the standings rebuilt: once for any number
    of changes that arrive while a rebuild is already waiting to run."""
    from scoring import tasks

    event_id = event.pk

    def queue() -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            tasks.refresh_standings.delay(event_id)
        elif cache.add(pending_key(event_id), 1, timeout=60):
            tasks.refresh_standings.apply_async((event_id,), countdown=COLLAPSE_SECONDS)

    transaction.on_commit(queue)


def current_round(event: Event) -> Round | None:
    """The round whose standings are live: the latest one published or closed."""
    return event.rounds.filter(status__in=PLAYED_ROUND_STATUSES).order_by("-number").first()


def set_records(event: Event, *, up_to: int) -> list[ranking.SetRecord]:
    """Every entry's set at every table in rounds 1..up_to: one query."""
    hand_count = get_ruleset(event.ruleset).hand_count
    rows = (
        HandScore.objects.filter(
            hand__table__round__event=event,
            hand__table__round__number__lte=up_to,
            hand__outcome=Hand.Outcome.SCORED,
        )
        .values("seat__entry_id", "hand__table__round__number", "hand__table__number")
        .annotate(
            total=Sum("score"),
            penalties=Sum("penalty_points"),
            won=Count("pk", filter=Q(hand__went_out_id=F("seat_id"))),
            played=Count("pk"),
        )
        .order_by()
    )
    return [
        ranking.SetRecord(
            entry=row["seat__entry_id"],
            round=row["hand__table__round__number"],
            table=row["hand__table__number"],
            total=row["total"],
            hands_won=row["won"],
            penalty_points=row["penalties"],
            complete=row["played"] >= hand_count,
        )
        for row in rows
    ]


def unstarted_sets(round_: Round, sets: list[ranking.SetRecord]) -> list[ranking.SetRecord]:
    """In the round in play, a seated player whose table has no hand yet has a set
    under way all the same (at 0 so far): live standings keep them among the players
    of the round instead of below everyone whose table has started."""
    started = {s.entry for s in sets if s.round == round_.number}
    return [
        ranking.SetRecord(
            entry=entry,
            round=round_.number,
            table=table,
            total=0,
            hands_won=0,
            penalty_points=0,
            complete=False,
        )
        for entry, table in Seat.objects.filter(round=round_).values_list(
            "entry_id", "table__number"
        )
        if entry not in started
    ]


@transaction.atomic
def refresh_standings(*, event: Event, round_number: int | None = None) -> int:
    """Rebuild the current round's standings (or those after round `round_number`, for
    an event loaded in bulk); return the new standings version.

    Takes the event's row lock, so two workers rebuilding at once run one after the
    other, each from the scores as committed: the result is the same either way.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    round_ = current_round(event)
    if round_number is not None:
        round_ = event.rounds.filter(number=round_number).first()
    if round_ is None:
        return event.standings_version
    closed = (
        event.rounds.filter(status=Round.Status.CLOSED, number__lte=round_.number)
        .order_by("-number")
        .first()
    )
    entries = [
        ranking.EntryRecord(entry=pk, withdrawn=status == Entry.Status.WITHDRAWN)
        for pk, status in Entry.objects.filter(event=event).values_list("pk", "status")
    ]
    sets = set_records(event, up_to=round_.number)
    if round_.status == Round.Status.PUBLISHED:
        sets += unstarted_sets(round_, sets)
    ranked = ranking.rank(
        format=event.format,
        sets=sets,
        entries=entries,
        table_points=event.table_points,
        advance_per_table=event.advance_per_table,
        tiebreaks=event.tiebreaks,
        draw_seed=event.draw_seed,
        rounds_closed=closed.number if closed else 0,
    )
    previous = dict(
        Standing.objects.filter(event=event, round__number=round_.number - 1).values_list(
            "entry_id", "rank"
        )
    )
    if settings.STANDINGS_REBUILD_PAUSE:
        time.sleep(settings.STANDINGS_REBUILD_PAUSE)
    Standing.objects.filter(round=round_).delete()
    Standing.objects.bulk_create(
        [
            Standing(
                event=event,
                round=round_,
                entry_id=r.entry,
                rank=r.rank,
                points=r.points,
                table_points=r.table_points,
                sets_played=r.sets_played,
                hands_won=r.hands_won,
                penalty_points=r.penalty_points,
                best_set=r.best_set,
                status=r.status,
                movement=previous[r.entry] - r.rank if r.entry in previous else None,
                tiebreaks=list(r.tiebreaks),
            )
            for r in ranked
        ],
        batch_size=2000,
    )
    Event.objects.filter(pk=event.pk).update(standings_version=F("standings_version") + 1)
    announce_version(event, event.standings_version + 1)  # live pages see it once committed
    return event.standings_version + 1


def forget_pending(event_id: int) -> None:
    """A rebuild is starting: later changes must queue another one."""
    cache.delete(pending_key(event_id))
