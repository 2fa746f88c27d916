"""Standings: rebuilt from the scores by a background job after every change.

One read query gathers each entry's set at each table (total, hands won, penalty
points, hands played); the pure `game.ranking` orders them; the rows of the current
round are replaced in one transaction and the event's standings version grows, which
is what pages and caches key on. A closed round's rows are never rewritten by a later
round: they stay readable as that round's final standings.

Every change that moves the standings marks them stale in the database, in its own
transaction (`core.derived`); the rebuild clears the mark if nothing changed
while it ran, and the periodic catch-up rebuilds whatever stays stale (a broker that
was down, a worker killed), so the standings are always right again by themselves.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from functools import partial

from django.db import connection, transaction
from django.db.models import F

from core import background, derived
from core.adjusted.services import adjust_closed_rounds
from core.caching import announce_now, announce_version
from core.common import the_row
from core.hands import set_totals
from core.standings import rebuild as read
from core.standings.document import keep_rebuilt
from core.standings.stored import (
    WRITTEN,
    StoredRow,
    adjusted_notes,
    incomplete_notes,
    merged_notes,
    only_moved,
    stored_row,
)
from game import ranking
from scoring.models import Standing
from tournaments.models import Event

# No delay: a change queues its rebuild at once, so when no rebuild is running the
# standings follow within the time of one rebuild. Only the changes that arrive while
# a rebuild runs are collapsed: the process rebuilding goes round once more for all of
# them (`derived.rebuild_alone`; `derived.seen` counts what it covers), and their jobs,
# waiting for it meanwhile, find the standings clean.
COLLAPSE_SECONDS: float | None = None


def queue_standings_refresh(event: Event) -> None:
    """Mark the event's standings stale in this transaction, and have them rebuilt once
    it commits."""
    derived.changed(background.STANDINGS, event.pk, countdown=COLLAPSE_SECONDS)


@background.runs(background.STANDINGS)
def refresh_standings_job(event_id: int) -> int | None:
    """The background job: rebuild the standings unless an earlier run already covered
    every change (many changes queue many jobs; one does the work), one process at a
    time (`derived.rebuild_alone`): the process rebuilding goes round again for the
    changes that came meanwhile, its copies of the last rebuild in hand."""
    return derived.rebuild_alone(background.STANDINGS, event_id, partial(rebuild_job, event_id))


def rebuild_job(event_id: int) -> int | None:
    event = the_row(Event.objects.filter(pk=event_id))
    if event is None:  # deleted meanwhile: nothing to rank
        derived.forget(background.STANDINGS, event_id)
        return None
    return refresh_standings(event=event, if_stale=True, warm=True)


@contextmanager
def collection_paused():
    """The cyclic garbage collector held off while a rebuild makes its many small,
    short-lived objects (it would otherwise walk every object of the process several
    times, a third of an incremental rebuild's time); it runs as usual afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def refresh_standings(
    *,
    event: Event,
    round_number: int | None = None,
    if_stale: bool = False,
    full: bool = False,
    warm: bool = False,
) -> int:
    """Rebuild the standings (see `rebuild`), with the garbage collector paused."""
    with collection_paused():
        return rebuild(
            event=event, round_number=round_number, if_stale=if_stale, full=full, warm=warm
        )


@transaction.atomic
def rebuild(
    *,
    event: Event,
    round_number: int | None = None,
    if_stale: bool = False,
    full: bool = False,
    warm: bool = False,
) -> int:
    """Rebuild the current round's standings (or those after round `round_number`, for
    an event loaded in bulk, each of whose rounds is ranked in turn); return the new
    standings version. With `if_stale`, only if the database still says they are stale
    once the lock is held.

    Ranks from the set totals every hand save keeps (`core.hands.set_totals`) and
    writes only the standings that changed. `full` (and an event whose totals are not
    kept yet: one loaded in bulk, before its first rebuild) adds up every hand score
    again first, and writes the kept totals from them: the result is the same, only
    slower.

    Takes the event's row lock, so two workers rebuilding at once run one after the
    other, each from the scores as committed: the result is the same either way.

    With `warm` (the background job), the new standings document every page and the
    API read is made from the rows just written (`core.standings.document`) once the
    rebuild commits, claimed in the shared cache before the new version is announced
    and kept after: the web processes then wait for it and read it instead of each
    building it (a 4,096-player field: 0.2-0.3 s
    of a core per version, docs/benchmarks.md, "What a new version costs"), and the
    worker makes it in 19 ms after one hand rather than 0.27 s ("A national
    championship, fifth pass").
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if if_stale and not derived.is_dirty(background.STANDINGS, event.pk):
        return event.standings_version  # a rebuild that held the lock before us did it all
    changes = derived.seen(background.STANDINGS, event.pk)
    round_ = read.current_round(event)
    if round_number is not None:
        round_ = the_row(event.rounds.filter(number=round_number))
    if round_ is None:
        derived.built(background.STANDINGS, event.pk, changes)
        return event.standings_version
    in_full = full or not set_totals.is_kept(event.pk)
    sets, base = read_sets(event, round_, in_full=in_full, full=full)
    closed = read.latest_closed(event, up_to=round_.number)
    entries, players = read.entries(event)
    ranked = ranking.rank_standings(
        format=event.format,
        sets=sets,
        entries=entries,
        closed=base.tallies if base else None,
        table_points=event.table_points,
        advance_per_table=event.advance_per_table,
        even_places=event.even_knockout_places,
        tiebreaks=event.tiebreaks,
        draw_seed=event.draw_seed,
        rounds_closed=closed.number if closed else 0,
    )
    live_notes = incomplete_notes(sets, event.rules.hand_count)
    notes = merged_notes(base.notes if base else None, live_notes)
    adjusted = merged_notes(base.adjusted if base else None, adjusted_notes(sets))
    previous = read.ranks_after(event, round_.number - 1)
    version = event.standings_version + 1
    wanted = {
        r.entry: stored_row(
            r,
            notes.get(r.entry, []),
            movement=previous[r.entry] - r.rank if r.entry in previous else None,
            adjusted=adjusted.get(r.entry, []),
        )
        for r in ranked
    }
    write_changed(event, round_, wanted, version=version)
    Event.objects.filter(pk=event.pk).update(standings_version=F("standings_version") + 1)
    derived.built(background.STANDINGS, event.pk, changes)
    if event.series_id is not None:  # a leg's places move its series' standings
        derived.changed(background.SERIES_STANDINGS, event.series_id, countdown=COLLAPSE_SECONDS)
    if warm and round_number is None:
        event.standings_version = version
        # Made from what was just written, announced after (live pages see the version
        # once committed); a failure to keep it (the cache down) does not stop the
        # announcement.
        announce = partial(announce_now, event, version)

        def keep_and_announce() -> None:  # named: a robust hook's failure is logged by name
            keep_rebuilt(event, round_, wanted, players, announce)

        transaction.on_commit(keep_and_announce, robust=True)
    else:
        announce_version(event, version)
    return version


def read_sets(
    event: Event, round_, *, in_full: bool, full: bool = False
) -> tuple[list[ranking.SetRecord], read.ClosedBase | None]:
    """The sets to rank up to `round_`, and the closed rounds' figures to rank them on
    when only the rounds in play are read (None: `sets` holds every round's).

    In full: every hand score added up again, and the kept set totals written from
    them, with the tables in play locked (after the event, as every writer orders
    them) so that a hand saved meanwhile cannot have its totals overwritten by older
    sums. Otherwise from the kept totals, the closed rounds' added up once per process
    (a knockout ranks every round's tables: its cuts need them)."""
    if in_full:
        set_totals.lock_tables_in_play(event.pk)
        if full:  # the closed rounds' adjusted scores made again from their hands
            adjust_closed_rounds(event)
        scored = read.scored_totals(event=event)
        set_totals.rebuild(event.pk, scored)
        return read.set_records(event, up_to=round_.number, scored=scored), None
    signature, closed_sets, sets = read.kept_set_records(event, up_to=round_.number)
    if event.format == "knockout":
        return [*closed_sets, *sets], None
    return sets, read.closed_base(event, signature, closed_sets)


def write_changed(
    event: Event, round_, wanted: dict[int, StoredRow], *, version: int | None = None
) -> int:
    """Bring the round's stored standings to `wanted` (entry -> its StoredRow),
    writing only the rows that differ (after one hand, the players at its table and
    those they passed): compared as plain values; a row that only moved (its rank and
    movement, nothing else: the players passed) updated in place, the other changed
    rows deleted and written again in bulk, 4 queries at most. With `version` (the
    standings version this rebuild makes), what was written is remembered once
    committed, so the next rebuild in this process compares with it instead of reading
    every row again (see `read.written_rows`). Returns how many rows were written."""
    stored = read.written_rows(event, round_, WRITTEN)
    gone = [pk for entry, (pk, _values) in stored.items() if entry not in wanted]
    changed = {
        entry: values
        for entry, values in wanted.items()
        if entry not in stored or stored[entry][1] != values
    }
    moved = {
        entry: (stored[entry][0], values)
        for entry, values in changed.items()
        if entry in stored and only_moved(stored[entry][1], values)
    }
    rewritten = {entry: values for entry, values in changed.items() if entry not in moved}
    gone += [stored[entry][0] for entry in rewritten if entry in stored]
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    update_places(moved.values())
    made = []
    if rewritten:
        made = Standing.objects.bulk_create(
            [
                Standing(
                    event=event,
                    round=round_,
                    entry_id=entry,
                    **dict(zip(WRITTEN, values, strict=True)),
                )
                for entry, values in rewritten.items()
            ],
            batch_size=2000,
        )
    if version is not None and all(row.pk is not None for row in made):
        now = {entry: found for entry, found in stored.items() if entry in wanted}
        now.update(moved)
        now.update((row.entry_id, (row.pk, rewritten[row.entry_id])) for row in made)
        transaction.on_commit(
            lambda: read.keep_written(event.pk, round_.pk, version, now), robust=True
        )
    return len(changed) + len(gone)


def update_places(rows) -> None:
    """Give each (row id, StoredRow) its new rank and movement: one statement (on
    PostgreSQL, the ids and places sent as three arrays), rather than the row deleted
    and written again with all its figures."""
    rows = list(rows)
    if not rows:
        return
    table = connection.ops.quote_name(Standing._meta.db_table)
    rank, movement = (connection.ops.quote_name(name) for name in ("rank", "movement"))
    ids = [pk for pk, _values in rows]
    ranks = [values.rank for _pk, values in rows]
    moves = [values.movement for _pk, values in rows]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} AS s SET {rank} = v.rank, {movement} = v.movement "
                "FROM unnest(%s::bigint[], %s::integer[], %s::integer[]) AS v(id, rank, movement) "
                "WHERE s.id = v.id",
                [ids, ranks, moves],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET {rank} = %s, {movement} = %s WHERE id = %s",
                list(zip(ranks, moves, ids, strict=True)),
            )
