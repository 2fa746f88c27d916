"""A series' grand final: its entries made from the series' qualifiers, seeded by series
rank or by rating across events, with the score each entrant carries into it; and
whether a seeded final still matches its series (`final_plan`, `out_of_step`).

- Carries follow the series rank; players level after the countback's non-random
  steps carry the same (`game.series.carries`); an entrant who is not a qualifier (a
  wildcard, a reserve) carries the series' `wildcard_carry`, by default the lowest
  qualifier's carry.
- Seeding is refused while a leg is not finished by its director (its last round
  closed is not enough), unless forced with a reason.
- Seeding again (the same event) brings the final in step with the series, until its
  first hand is recorded: qualifiers who no longer qualify leave it, new ones enter, and
  a round seated meanwhile is discarded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from core import derived
from core import stored_texts as st
from core.common import with_history_user
from core.entries.services import register_entry
from core.errors import InvalidInput, StateConflict
from core.locks import for_request
from core.ratings import selectors as rating_reads
from core.ratings import services as ratings
from core.screens.services import screens_changed
from core.seating.services import discard_draft
from core.series import selectors as read_series
from core.series.selectors import qualifier_carries, wildcard_carry
from core.series.services import (
    check_carry_over,
    check_counted,
    check_directs,
    check_not_final_elsewhere,
    check_public_event,
)
from core.series.standings import SERIES_STANDINGS, refresh_series_standings
from core.standings.services import queue_standings_refresh
from core.words import listing
from scoring.models import Hand, SeriesStanding
from tournaments.models import Entry, Event, Player, Series

# How the final's entries are seeded: by series rank, or by rating across events.
SEED_BY_SERIES = "series"
SEED_BY_RATING = "rating"
SEED_BY = (SEED_BY_SERIES, SEED_BY_RATING)
FORCED_REASON_MAX = Series._meta.get_field("final_forced_reason").max_length


def check_seed_by(value: Any) -> str:
    if value not in SEED_BY:
        raise InvalidInput(
            _(
                'Seed the final by "%(series)s" (series rank) or "%(rating)s" (rating across '
                "events)."
            )
            % {"series": SEED_BY_SERIES, "rating": SEED_BY_RATING},
            field="seed_by",
        )
    return value


def rating_order(qualified: list[int]) -> list[int]:
    """The qualifiers (player ids, in series rank order) ordered by their rating across
    events, highest first (the shown rating, mu - 3 sigma); players not rated yet come
    after every rated one; equal ratings, and the unrated, keep their series order.
    1 query."""
    rated = rating_reads.ratings_of(qualified)
    rank = {player: i for i, player in enumerate(qualified)}
    return sorted(
        qualified,
        key=lambda p: (0, -rated[p], rank[p]) if p in rated else (1, 0.0, rank[p]),
    )


@dataclass(frozen=True)
class Finalist:
    player: int
    name: str
    seed: int | None
    carried: int
    why: str  # where the carry comes from, in words


def final_plan(series: Series, *, seed_by: str | None = None) -> list[Finalist]:
    """The final's qualifiers as seeding it now would enter them, in seed order, with
    their carries. 2 queries (3 seeded by rating)."""
    rows = list(
        SeriesStanding.objects.filter(series=series, qualified=True)
        .order_by("rank")
        .select_related("player")
    )
    carries = qualifier_carries(rows, series.carry_over_step)
    players = [r.player_id for r in rows]
    if (seed_by or series.final_seed_by or SEED_BY_SERIES) == SEED_BY_RATING:
        players = rating_order(players)
    names = {r.player_id: r.player.name for r in rows}
    return [
        Finalist(player, names[player], seed, *carries[player])
        for seed, player in enumerate(players, start=1)
    ]


def unfinished_legs(series: Series) -> list[Event]:
    """The series' legs its director has not finished (in play, to come, or reopened).
    A leg whose last planned round is closed already scores in the series' standings,
    but only its director's "finished" says no round is to be added or reopened, so
    only then does it count as finished for seeding the final."""
    return [leg for leg in read_series.legs_of(series) if leg.status != Event.Status.FINISHED]


def out_of_step(series: Series) -> list[str]:
    """How the seeded final differs from what seeding it now would make, in words
    (empty: in step, or no final yet)."""
    if series.final_id is None or series.final_seeded_at is None:
        return []
    plan = {f.player: f for f in final_plan(series)}
    entries = list(Entry.objects.filter(event_id=series.final_id).select_related("player"))
    entered = {e.player_id: e for e in entries if e.status == Entry.Status.ACTIVE}
    # A qualifier who withdrew from the final (a no-show, perhaps replaced by a reserve
    # who took their seed) is not asked back.
    withdrew = {e.player_id for e in entries if e.status == Entry.Status.WITHDRAWN}
    replaced_seeds = {f.seed for f in plan.values() if f.player in withdrew}
    seeded = {p: e for p, e in entered.items() if e.seed_number is not None}
    changes = []
    for player, f in plan.items():
        entry = entered.get(player)
        if player in withdrew and entry is None:
            continue
        if entry is None or player not in seeded:
            changes.append(
                _("%(name)s would enter, seed %(seed)s, carrying %(carried)s")
                % {"name": f.name, "seed": f.seed, "carried": f.carried}
            )
            continue
        if entry.seed_number != f.seed:
            changes.append(
                _("%(name)s would be seed %(seed)s (now %(now)s)")
                % {"name": f.name, "seed": f.seed, "now": entry.seed_number}
            )
        if entry.carried_points != f.carried:
            changes.append(
                _("%(name)s would carry %(carried)s (now %(now)s)")
                % {"name": f.name, "carried": f.carried, "now": entry.carried_points}
            )
    for player, entry in seeded.items():
        if player not in plan and entry.seed_number not in replaced_seeds:
            changes.append(
                _("%(name)s would leave (no longer a qualifier)") % {"name": entry.player.name}
            )
    others, _why = wildcard_carry(series, {f.player: (f.carried, f.why) for f in plan.values()})
    for player, entry in entered.items():
        other = player not in plan and (entry.seed_number in replaced_seeds or player not in seeded)
        if other and entry.carried_points != others:
            changes.append(
                _("%(name)s (not a qualifier) would carry %(carried)s (now %(now)s)")
                % {"name": entry.player.name, "carried": others, "now": entry.carried_points}
            )
    return changes


@for_request("series")
def create_final(
    *,
    series: Series,
    event: Event,
    by: AbstractBaseUser | None = None,
    seed_by: str = SEED_BY_SERIES,
    force: bool = False,
    reason: str = "",
) -> list[int]:
    """Register the series' qualifiers in `event`, seeded 1, 2, ... and make it the
    series' final; the player ids in seed order. `seed_by` is "series" (by series rank,
    the default) or "rating" (by rating across events: `rating_order`). Refused while a
    leg is not finished, unless `force` with a `reason` (kept, shown on the series'
    page). The standings, and for "rating" the ratings, are brought up to date first if
    a change is still being ranked. Seeding the same event again brings it in step with
    the series until its first hand is recorded (a round seated meanwhile is discarded,
    to be seated again from the new entries). Round 1 of the final seated "spread"
    uses these seeds; the carries follow the series rank (`qualifier_carries`)."""
    check_seed_by(seed_by)
    series = Series.objects.select_for_update().get(pk=series.pk)
    event = Event.objects.select_for_update().get(pk=event.pk)  # the series' lock first
    check_directs(by, event, as_="a series' final")
    check_counted(event, as_="the final")
    if event.series_id == series.pk:
        raise StateConflict(
            _("%(name)s is a leg of this series, not its final.") % {"name": event.name},
            field="event",
        )
    reseeding = series.final_id == event.pk
    played = Hand.objects.filter(table__round__event=event).exists()
    if event.status == Event.Status.FINISHED or played or (event.rounds.exists() and not reseeding):
        if reseeding:
            message = _(
                "%(name)s has started; the final's entries are made before its first hand "
                "is recorded, so it can no longer be seeded again."
            )
        else:
            message = _(
                "%(name)s has started; the final's entries are made before its first round."
            )
        raise StateConflict(message % {"name": event.name}, field="event")
    check_carry_over(series.carry_over_step, event, field="event", error=StateConflict)
    if series.final_id not in (None, event.pk):
        raise StateConflict(_("This series already has its final."), field="event")
    check_not_final_elsewhere(series, event, field="event")
    check_public_event(series.public, event, as_="the final")
    if not series.qualifiers:
        raise StateConflict(
            _(
                "This series sends nobody to its final: its qualifiers is 0. Set how many "
                "players, by series rank, qualify first."
            ),
            field="qualifiers",
        )
    reason = " ".join((reason or "").split())
    unfinished = unfinished_legs(series)
    if unfinished and not force:
        names = listing(leg.name for leg in unfinished)
        raise StateConflict(
            _(
                "Not every leg is finished: %(names)s. Seed the final once they are, or force "
                "it with a reason (shown on the series' page)."
            )
            % {"names": names},
            field="legs",
        )
    if unfinished and not reason:
        raise InvalidInput(
            _("Say why the final is seeded before every leg is finished."), field="reason"
        )
    if len(reason) > FORCED_REASON_MAX:
        raise InvalidInput(
            _("The reason is at most %(most)s characters.") % {"most": FORCED_REASON_MAX},
            field="reason",
        )
    if derived.is_dirty(SERIES_STANDINGS, series.pk):
        refresh_series_standings(series=series)
    # Seated from the entries about to change, with no hand played: seated again later.
    for seated in event.rounds.order_by("-number"):
        discard_draft(seated, by, why=st.stored(st.DISCARDED_FINAL))
    if seed_by == SEED_BY_RATING and derived.is_dirty(ratings.RATINGS, ratings.KEY):
        ratings.refresh_ratings(if_stale=True)
    plan = final_plan(series, seed_by=seed_by)
    if not plan:
        raise StateConflict(_("No player has qualified yet: no leg has finished."), field="event")
    if event.status == Event.Status.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION)
    players = {f.player for f in plan}
    others_seeded = Entry.objects.filter(event=event, seed_number__isnull=False).exclude(
        player_id__in=players
    )
    if series.final_id == event.pk:
        # Seeded again: the earlier seeding's qualifiers who no longer qualify leave
        # (nothing is played yet; only qualifiers hold seeds once a final is seeded),
        # each recorded in the entry's history.
        for entry in others_seeded:
            with_history_user(entry, by, st.stored(st.LEFT_FINAL)).delete()
    else:
        others_seeded.update(seed_number=None)  # the seeds are the qualifiers'
    Entry.objects.filter(event=event, player_id__in=players).update(seed_number=None)
    carries = {f.player: f.carried for f in plan}
    others, _why = wildcard_carry(series, {f.player: (f.carried, f.why) for f in plan})
    Entry.objects.filter(event=event).exclude(player_id__in=players).update(carried_points=others)
    for f in plan:
        entry = Entry.objects.filter(event=event, player_id=f.player).first()
        if entry is None or entry.status != Entry.Status.ACTIVE:
            player = Player.objects.get(pk=f.player)
            entry = register_entry(event=event, player=player, seed_number=f.seed, by=by)
        Entry.objects.filter(pk=entry.pk).update(
            seed_number=f.seed, carried_points=carries[f.player]
        )
    queue_standings_refresh(event)  # the carried-over scores, before any hand
    series.final = event
    series.final_seeded_at = timezone.now()  # its draw's seed is revealed from now on
    series.final_seed_by = seed_by
    series.final_forced_reason = reason if unfinished else ""
    seeded = st.stored(st.FINAL_SEEDED, reason=reason) if unfinished else None
    with_history_user(series, by, seeded).save(
        update_fields=[
            "final",
            "final_seeded_at",
            "final_seed_by",
            "final_forced_reason",
            "updated_at",
        ]
    )
    screens_changed(event)  # its public page links to the series
    return [f.player for f in plan]


def entrant_carries(series: Series, entries: list[Entry]) -> dict[int, tuple[int, str]]:
    """player -> (carry, where it comes from) for the final's entries, as its page shows
    them: a qualifier's by their series rank, anyone else's as the series sets."""
    plan = {f.player: (f.carried, f.why) for f in final_plan(series)}
    others = wildcard_carry(series, plan)
    return {e.player_id: plan.get(e.player_id, others) for e in entries}


def carry_words(event: Event, rows: Iterable[Any]) -> dict[int, str]:
    """player -> where their carry into `event` comes from, in words, for the rows of
    its field (each with `player` and `carried`): a qualifier's series rank, a player
    level but for the draw carrying the rank above's, a wildcard's or a reserve's carry
    as the series sets it. A carry the series would no longer give (it changed after the
    final was seeded) is said to be as entered, with what the series would give now.
    Empty for an event that is no seeded final. 3 queries; 1 for any other event."""
    series = read_series.seeded_final_of(event)
    if series is None:
        return {}
    rows = list(rows)
    # `entrant_carries` reads each entry's player alone: the rows' players will do.
    carries = entrant_carries(series, [Entry(player_id=row.player) for row in rows])
    found = {}
    for row in rows:
        carried, why = carries[row.player]
        if carried != row.carried:  # out of step: what it carries is not the series' word
            why = _("as entered; the series would now give %(carry)s") % {"carry": carried}
        found[row.player] = why
    return found
