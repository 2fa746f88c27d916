"""Ratings across events: rebuilt by a background job after a round closes.

Every closed round of a public event is rated once, in one global order: by the time
it closed, then by its id (`core.ratings.selectors.rounds_to_rate`). What has been
applied is recorded (`RatedRound`, numbered 1, 2, ... in that order), with every
player's rating after each round (`RatingChange`). A rebuild compares the two lists:

- only new rounds at the end: they are applied, starting from the current ratings
  (the usual case, a round just closed);
- anything else (a round reopened, and closed again later; an event made private or
  deleted; an archive bringing rounds closed earlier than the last one applied): every rating
  is rolled back to just before the first round that differs, from the history, and
  the rest applied again in order.

Either way the ratings are exactly those a full recomputation from nothing gives
(`recompute_ratings`, which starts with `full=True`): the same rounds, in the same
order, through the same arithmetic. Staleness is recorded in the database like the
standings' (`core.derived`), so ratings catch up by themselves after a fault.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core import background, derived
from core.ratings import selectors as read
from game import ratings as maths
from scoring.models import PlayerRating, RatedRound, RatingBook, RatingChange

RATINGS = "core.refresh_ratings"
KEY = 0  # one set of ratings for the whole site
COLLAPSE_SECONDS = 2.0
# Rounds read and rated per batch (bounded queries on a long history).
BATCH = 100


def queue_ratings_refresh() -> None:
    """The rounds to rate may have changed in this transaction (a round closed or
    reopened, an event's visibility changed): mark the ratings stale, and have them
    rebuilt once it commits."""
    derived.changed(RATINGS, KEY, countdown=COLLAPSE_SECONDS)


@background.runs(RATINGS)
def refresh_ratings_job(key: int = KEY) -> int | None:
    """The background job: rebuild unless an earlier run already covered every change."""
    if not derived.is_dirty(RATINGS, KEY):
        return None
    return refresh_ratings(if_stale=True)


def book() -> RatingBook:
    RatingBook.objects.get_or_create(pk=1)
    return RatingBook.objects.select_for_update().get(pk=1)


@transaction.atomic
def refresh_ratings(*, full: bool = False, if_stale: bool = False) -> int:
    """Bring the ratings up to date with the closed rounds; return the ratings version.
    `full` rates every round again from nothing. Holds the rating book's row lock, so
    two rebuilds run one after the other."""
    ledger = book()
    if if_stale and not derived.is_dirty(RATINGS, KEY):
        return ledger.version
    changes = derived.seen(RATINGS, KEY)
    wanted = read.rounds_to_rate()
    applied = list(
        RatedRound.objects.order_by("sequence").values_list("sequence", "round_id", "closed_at")
    )
    start = 0 if full else common_prefix(wanted, applied)
    if start == len(wanted) == len(applied) and not full and not ratings_lost():
        derived.built(RATINGS, KEY, changes)
        return ledger.version
    RatedRound.objects.filter(sequence__gt=start).delete()  # their history goes with them
    current, last_round = ratings_before(start)
    for at in range(start, len(wanted), BATCH):
        batch = wanted[at : at + BATCH]
        results = read.round_results([round_id for round_id, _ in batch])
        for sequence, (round_id, closed_at) in enumerate(batch, start=at + 1):
            rated = RatedRound.objects.create(
                round_id=round_id, sequence=sequence, closed_at=closed_at
            )
            changed = maths.rate_round(
                {p: r for p, (r, _) in current.items()}, results.get(round_id, [])
            )
            RatingChange.objects.bulk_create(
                RatingChange(
                    player_id=player,
                    rated_round=rated,
                    sequence=sequence,
                    mu=after.mu,
                    sigma=after.sigma,
                    rating=after.display,
                    before=current[player][0].display if player in current else maths.NEW.display,
                    sets=after.sets,
                )
                for player, after in sorted(changed.items())
            )
            for player, after in changed.items():
                before = current[player][0].display if player in current else maths.NEW.display
                current[player] = (after, after.display - before)
                last_round[player] = rated.pk
    save_current(current, last_round)
    ledger.version += 1
    ledger.updated_at = timezone.now()
    ledger.save(update_fields=["version", "updated_at"])
    derived.built(RATINGS, KEY, changes)
    return ledger.version


def ratings_lost() -> bool:
    """Whether some player's current rating went with a deleted round (the last rounds
    applied deleted with their event: the history before them stands, but the current
    ratings that came from them are gone). 2 queries."""
    rated = RatingChange.objects.values("player_id").distinct().count()
    return PlayerRating.objects.count() != rated


def common_prefix(wanted: list[tuple], applied: list[tuple]) -> int:
    """How many rounds at the start are applied exactly as they are to be rated, with
    no gap in their numbering (a gap: an applied round was deleted with its event)."""
    n = 0
    for (round_id, closed_at), (sequence, applied_id, applied_at) in zip(
        wanted, applied, strict=False
    ):
        if sequence != n + 1 or (round_id, closed_at) != (applied_id, applied_at):
            break
        n += 1
    return n


def ratings_before(
    sequence: int,
) -> tuple[dict[int, tuple[maths.Rating, float]], dict[int, int]]:
    """Every player's rating (and its latest movement) after rated round `sequence`,
    and the rated round it came from: from the history. 1 query."""
    current: dict[int, tuple[maths.Rating, float]] = {}
    last_round: dict[int, int] = {}
    rows = (
        RatingChange.objects.filter(sequence__lte=sequence)
        .order_by("player_id", "sequence")
        .values_list("player_id", "mu", "sigma", "sets", "rating", "before", "rated_round_id")
    )
    for player, mu, sigma, sets, rating, before, rated_round in rows:
        current[player] = (maths.Rating(mu=mu, sigma=sigma, sets=sets), rating - before)
        last_round[player] = rated_round
    return current, last_round


def save_current(
    current: dict[int, tuple[maths.Rating, float]], last_round: dict[int, int]
) -> None:
    """Replace the current ratings."""
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(
        PlayerRating(
            player_id=player,
            mu=rating.mu,
            sigma=rating.sigma,
            rating=rating.display,
            sets=rating.sets,
            movement=movement,
            rated_round_id=last_round[player],
        )
        for player, (rating, movement) in sorted(current.items())
    )
