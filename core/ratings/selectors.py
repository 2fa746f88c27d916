"""Reads of the ratings: what a rebuild rates (the closed rounds of public events, in
their one global order, and each table's sets), and the ratings as pages and the API
show them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Sum
from django.utils.translation import gettext_lazy

from core.collation import by_name
from core.entries.names import shown_names
from game import ranking
from game import ratings as maths
from scoring.models import Hand, HandScore, PlayerRating, RatingBook, RatingChange
from tournaments.models import Event, Round, Seat

# --- What a rebuild rates ---------------------------------------------------------------


def rounds_to_rate() -> list[tuple[int, datetime]]:
    """Every round to rate, as (round id, closed at), in the one global order: by the
    time it closed, then by id. Only closed rounds of public events: a rating shows
    nothing a private event would hide; and of events that count (not a copy kept
    beside the event it copies): one played set is rated once. 1 query."""
    return list(
        Round.objects.filter(
            status=Round.Status.CLOSED,
            closed_at__isnull=False,
            event__public=True,
            event__counted=True,
        )
        .order_by("closed_at", "pk")
        .values_list("pk", "closed_at")
    )


def round_results(round_ids: list[int]) -> dict[int, list[list[maths.Result]]]:
    """Each round's tables as lists of players' sets (total, complete or not): 3 queries
    for any number of rounds. A set is complete when it has all the set's hands."""
    if not round_ids:
        return {}
    scored = {
        row["seat_id"]: row
        for row in HandScore.objects.filter(
            hand__table__round_id__in=round_ids, hand__outcome=Hand.Outcome.SCORED
        )
        .values("seat_id")
        .annotate(total=Sum("score"), played=Count("pk"))
        .order_by()
    }
    seats = list(
        Seat.objects.filter(round_id__in=round_ids)
        .order_by("round_id", "table__number", "position")
        .values_list(
            "pk",
            "round_id",
            "table_id",
            "entry__player_id",
            "table__closed_after_hand",
            "left_after_hand",
            "round__event_id",
        )
    )
    events = {e.pk: e for e in Event.objects.filter(rounds__pk__in=round_ids).distinct()}
    hands = {pk: event.rules.hand_count for pk, event in events.items()}
    tables: dict[int, dict[int, list[maths.Result]]] = defaultdict(dict)
    for pk, round_id, table_id, player, ended_after, left_after, event_id in seats:
        row = scored.get(pk) or {"total": 0, "played": 0}
        state, _why = ranking.set_state(
            played=row["played"],
            hands=hands[event_id],
            left_after=left_after,
            ended_after=ended_after,
            over=True,
        )
        tables[round_id].setdefault(table_id, []).append(
            maths.Result(player=player, total=row["total"], complete=state == ranking.COMPLETE)
        )
    return {round_id: list(by_table.values()) for round_id, by_table in tables.items()}


# --- The ratings as shown ---------------------------------------------------------------

EXPLANATION = gettext_lazy(
    "Rating = mu − 3σ: OpenSkill's estimate of a player's skill less three times its "
    "uncertainty, so it rises as results come in and newcomers start at 0."
)


@dataclass(frozen=True)
class RatingRow:
    rank: int
    player_id: int
    name: str
    rating: float
    mu: float
    sigma: float
    sets: int
    movement: float
    # The name as the ranking shows it: namesakes told apart (`core.entries.names`).
    shown: str = ""


def version() -> int:
    return next(iter(RatingBook.objects.values_list("version", flat=True)), 0)


def ratings_table(*, min_sets: int = maths.MIN_SETS) -> list[RatingRow]:
    """The ranking by shown rating (players with at least `min_sets` rated sets), ranks
    shared only by equal ratings, namesakes told apart by club. 1 query."""
    rows = list(
        PlayerRating.objects.filter(sets__gte=min_sets)
        .order_by("-rating", by_name("player__name"), "player_id")
        .values_list(
            "player_id", "player__name", "rating", "mu", "sigma", "sets", "movement", "player__club"
        )
    )
    shown = shown_names((row[0], row[1], row[-1]) for row in rows)
    out: list[RatingRow] = []
    for i, (player, name, rating, mu, sigma, sets, movement, _) in enumerate(rows, start=1):
        rank = out[-1].rank if out and out[-1].rating == rating else i
        out.append(RatingRow(rank, player, name, rating, mu, sigma, sets, movement, shown[player]))
    return out


def rating_of(player_id: int) -> PlayerRating | None:
    return PlayerRating.objects.filter(player_id=player_id).first()


def ratings_of(player_ids) -> dict[int, float]:
    """The shown rating of each of these players who has one. 1 query."""
    return dict(
        PlayerRating.objects.filter(player_id__in=list(player_ids)).values_list(
            "player_id", "rating"
        )
    )


@dataclass(frozen=True)
class HistoryPoint:
    sequence: int
    rating: float
    event: str
    round: int


def rating_history(player_id: int) -> list[HistoryPoint]:
    """The player's shown rating after each round they were rated in (public events
    only, as every rated round is). 1 query."""
    rows = (
        RatingChange.objects.filter(player_id=player_id)
        .order_by("sequence")
        .values_list(
            "sequence", "rating", "rated_round__round__event__name", "rated_round__round__number"
        )
    )
    return [HistoryPoint(*row) for row in rows]


# --- A player's page --------------------------------------------------------------------


@dataclass(frozen=True)
class EventResult:
    event: object  # the Event
    place: int | None
    points: int | None
    sets: int
    hands_won: int
    final: bool
    # A copy of another event is left out of ratings and series (`counted` false):
    # that event's slug, when the reader may see it.
    counted: bool = True
    copy_of: str | None = None


def event_results(history: dict) -> list[EventResult]:
    """Each event of a player's history (`boards.player_history`: only events the viewer
    may see) with their place and points after its latest standings."""
    out = []
    for item in history["events"]:
        standing = item["standing"]
        event = item["event"]
        out.append(
            EventResult(
                event=event,
                place=standing.rank if standing else None,
                points=standing.points if standing else None,
                sets=standing.sets_played if standing else len(item["sets"]),
                hands_won=standing.hands_won if standing else sum(s["won"] for s in item["sets"]),
                final=bool(
                    standing
                    and event.status == Event.Status.FINISHED
                    and standing.round.status == Round.Status.CLOSED
                ),
                counted=event.counted,
                copy_of=item.get("copy_of"),
            )
        )
    return out


def best_results(results: list[EventResult], *, count: int = 3) -> list[EventResult]:
    """The player's best places (finished events first, then the best place, then the
    lowest points); an event they played no set in is no result of theirs, and a copy
    of an event is not another result."""
    placed = [r for r in results if r.place is not None and r.sets and r.counted]
    return sorted(placed, key=lambda r: (not r.final, r.place, r.points))[:count]


def player_summary(history: dict) -> dict:
    """What the API's player document carries: the player, their rating and its
    history, and their events."""
    player = history["player"]
    skill = rating_of(player.pk)
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club,
        "country": str(player.country or ""),
        "rating": skill.rating if skill else None,
        "mu": skill.mu if skill else None,
        "sigma": skill.sigma if skill else None,
        "sets": skill.sets if skill else 0,
        "events": [
            {
                "event": r.event.slug,
                "name": r.event.name,
                "place": r.place,
                "points": r.points,
                "sets": r.sets,
                "hands_won": r.hands_won,
                "final": r.final,
                "counted": r.counted,
                "copy_of": r.copy_of,
            }
            for r in event_results(history)
        ],
        "rating_history": [
            {"sequence": h.sequence, "rating": h.rating, "event": h.event, "round": h.round}
            for h in rating_history(player.pk)
        ],
    }


# --- Using the rating in a tournament ---------------------------------------------------


def seeding_ratings(players: dict[int, int | None]) -> dict[int, int | None]:
    """The rating `spread` seating orders unseeded players by, for each entry (given as
    entry id -> player id): the computed rating (mu - 3 sigma, in
    hundredths, so the seating's whole numbers keep its precision) once any of these
    players is rated, a player not rated yet counting as a newcomer (0); before anyone
    is rated, the rating imported with the players. 1 query."""
    by_player = ratings_of(set(players.values()) - {None})
    if not by_player:
        return {}
    return {
        entry: round(100 * by_player.get(player, maths.NEW.display))
        for entry, player in players.items()
    }
