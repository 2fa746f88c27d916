"""Standings: rebuilt from the scores by a background job after every change.

One read query gathers each entry's set at each table (total, hands won, penalty
points, hands played); the pure `game.ranking` orders them; the rows of the current
round are replaced in one transaction and the event's standings version grows, which
is what pages and caches key on. A closed round's rows are never rewritten by a later
round: they stay readable as that round's final standings.

Every change that moves the standings marks them stale in the database, in its own
transaction (`core.services.derived`); the rebuild clears the mark if nothing changed
while it ran, and the periodic catch-up rebuilds whatever stays stale (a broker that
was down, a worker killed), so the standings are always right again by themselves.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from core.live import announce_version
from core.selectors import standings as read
from core.services import background, derived
from game import ranking
from scoring.models import Standing
from tournaments.models import Event

# Changes that arrive within this many seconds share one rebuild: each queues the job
# this much later, and the first to run finds the others' work done.
COLLAPSE_SECONDS = 1.0


def queue_standings_refresh(event: Event) -> None:
    """Mark the event's standings stale in this transaction, and have them rebuilt once
    it commits."""
    derived.changed(background.STANDINGS, event.pk, countdown=COLLAPSE_SECONDS)


@background.runs(background.STANDINGS)
def refresh_standings_job(event_id: int) -> int | None:
    """The background job: rebuild the standings unless an earlier run already covered
    every change (many changes queue many jobs; one does the work)."""
    if not derived.is_dirty(background.STANDINGS, event_id):
        return None
    event = Event.objects.filter(pk=event_id).first()
    if event is None:  # deleted meanwhile: nothing to rank
        derived.forget(background.STANDINGS, event_id)
        return None
    return refresh_standings(event=event, if_stale=True)


@transaction.atomic
def refresh_standings(
    *, event: Event, round_number: int | None = None, if_stale: bool = False
) -> int:
    """Rebuild the current round's standings (or those after round `round_number`, for
    an event loaded in bulk); return the new standings version. With `if_stale`, only
    if the database still says they are stale once the lock is held.

    Takes the event's row lock, so two workers rebuilding at once run one after the
    other, each from the scores as committed: the result is the same either way.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if if_stale and not derived.is_dirty(background.STANDINGS, event.pk):
        return event.standings_version  # a rebuild that held the lock before us did it all
    changes = derived.seen(background.STANDINGS, event.pk)
    round_ = read.current_round(event)
    if round_number is not None:
        round_ = event.rounds.filter(number=round_number).first()
    if round_ is None:
        derived.built(background.STANDINGS, event.pk, changes)
        return event.standings_version
    closed = read.latest_closed(event, up_to=round_.number)
    sets = read.set_records(event, up_to=round_.number)
    hands = event.rules.hand_count
    notes: dict[int, list[dict]] = {}
    for record in sorted(sets, key=lambda r: r.round):
        if record.incomplete:
            notes.setdefault(record.entry, []).append(read.incomplete_note(record, hands))
    ranked = ranking.rank(
        format=event.format,
        sets=sets,
        entries=read.entry_records(event),
        table_points=event.table_points,
        advance_per_table=event.advance_per_table,
        tiebreaks=event.tiebreaks,
        draw_seed=event.draw_seed,
        rounds_closed=closed.number if closed else 0,
    )
    previous = read.ranks_after(event, round_.number - 1)
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
                sets_incomplete=r.sets_incomplete,
                incomplete=notes.get(r.entry, []),
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
    derived.built(background.STANDINGS, event.pk, changes)
    announce_version(event, event.standings_version + 1)  # live pages see it once committed
    return event.standings_version + 1
