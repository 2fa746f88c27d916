"""Reads of standings: what a rebuild ranks (each entry's sets), and the standings
after a round as pages, the API and the exports show them."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, F, Q, Sum
from django.http import Http404

from game import ranking
from scoring.models import STANDING_FIGURES, Hand, HandScore, Standing
from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, Round, Seat

# --- What a rebuild ranks --------------------------------------------------------------


def current_round(event: Event) -> Round | None:
    """The round whose standings are live: the latest one published or closed."""
    return event.rounds.filter(status__in=PLAYED_ROUND_STATUSES).order_by("-number").first()


def latest_closed(event: Event, *, up_to: int) -> Round | None:
    return (
        event.rounds.filter(status=Round.Status.CLOSED, number__lte=up_to)
        .order_by("-number")
        .first()
    )


def entry_records(event: Event) -> list[ranking.EntryRecord]:
    return [
        ranking.EntryRecord(entry=pk, withdrawn=status == Entry.Status.WITHDRAWN)
        for pk, status in Entry.objects.filter(event=event).values_list("pk", "status")
    ]


def set_records(event: Event, *, up_to: int) -> list[ranking.SetRecord]:
    """Every entry's set at every table in rounds 1..up_to: one query."""
    hand_count = event.rules.hand_count
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


def ranks_after(event: Event, number: int) -> dict[int, int]:
    """Each entry's rank in the standings after round `number` (none: {})."""
    return dict(
        Standing.objects.filter(event=event, round__number=number).values_list("entry_id", "rank")
    )


# --- The standings as shown -------------------------------------------------------------


def standings_round(event: Event, number: int | None = None) -> Round | None:
    """The round whose standings to show: the one asked for, else the latest that has any."""
    rounds = Round.objects.filter(event=event, standings__isnull=False).distinct()
    if number is not None:
        found = rounds.filter(number=number).first()
        if found is None:
            raise Http404("No standings for this round.")
        return found
    return rounds.order_by("-number").first()


@dataclass(frozen=True)
class PlayerRef:
    id: int
    name: str


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: PlayerRef
    club: str
    country: str
    points: int
    table_points: float
    sets_played: int
    hands_won: int
    penalty_points: int
    best_set: int | None
    movement: int | None  # places gained since the previous round (None: new)
    status: str

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def move(self) -> str:
        if self.movement is None:
            return "new"
        return "up" if self.movement > 0 else "down" if self.movement else "same"

    @property
    def move_by(self) -> int:
        return abs(self.movement) if self.movement else 0


@dataclass(frozen=True)
class Standings:
    """The standings after a round (API.md, "Standings")."""

    version: int
    round: int | None
    round_closed: bool
    final: bool
    rows: tuple[StandingRow, ...]


ROW_FIELDS = (
    "rank",
    "entry__player_id",
    "entry__player__name",
    "entry__player__club",
    "entry__player__country",
    *STANDING_FIGURES,
    "movement",
    "status",
)


def standings_after(event: Event, number: int | None = None) -> Standings:
    """The standings after round `number` (default: the latest round that has any).

    Cached per standings version: a rebuild bumps the version, so a cached copy is
    never stale; while nothing changes, a read costs one cache hit (and the event's
    own row, which the caller has already loaded to check who may see it).
    """
    key = f"standings:{event.pk}:{event.standings_version}:{number}"
    found = cache.get(key)
    if found is None:
        found = build_standings(event, number)
        cache.set(key, found, timeout=3600)
    return found


def standing_row(values: tuple) -> StandingRow:
    """A row of `ROW_FIELDS` values as a StandingRow."""
    rank, player_id, name, club, country, *figures, movement, status = values
    figure = dict(zip(STANDING_FIGURES, figures, strict=True))
    figure["table_points"] = float(figure["table_points"])
    return StandingRow(
        rank=rank,
        player=PlayerRef(player_id, name),
        club=club,
        country=str(country or ""),
        movement=movement,
        status=status,
        **figure,
    )


def build_standings(event: Event, number: int | None) -> Standings:
    """2 queries: the round, then its rows as plain values."""
    round_ = standings_round(event, number)
    rows = (
        Standing.objects.filter(round=round_).order_by("rank").values_list(*ROW_FIELDS)
        if round_
        else []
    )
    closed = round_ is not None and round_.status == Round.Status.CLOSED
    return Standings(
        version=event.standings_version,
        round=round_.number if round_ else None,
        round_closed=closed,
        final=closed and round_.number >= event.rounds_planned,
        rows=tuple(standing_row(values) for values in rows),
    )
