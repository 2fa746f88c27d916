"""What a standings rebuild reads and ranks: each entry's sets (from the set totals a
hand save keeps, or from every hand score for a full rebuild), the closed rounds'
tallies and the rows this process last wrote, kept once per process (a closed round
cannot change until it is reopened, which gives it a new close time).
`core.standings.selectors` reads the standings as the pages show them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q, Sum

from core.caching import ProcessCopies
from core.standings.stored import adjusted_notes, incomplete_notes
from game import ranking
from game.adjusted import Adjustment
from scoring.models import AdjustedScore, Hand, HandScore, Standing
from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, PublishedRow, Round, Seat

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


def entries(event: Event) -> tuple[list[ranking.EntryRecord], dict[int, tuple]]:
    """The event's entries to rank, and each one's player as the standings show them
    (entry -> (player id, name, club, country)): 2 queries. An event published here
    from a venue draws by the venue's ids (`core.publishing`)."""
    venue_ids = dict(
        PublishedRow.objects.filter(link__event=event, section="entries").values_list(
            "site_id", "venue_id"
        )
    )
    # One event's entries in their default order without joining the event to sort by
    # its date and name (`Entry.Meta.ordering`).
    rows = (
        Entry.objects.filter(event=event)
        .order_by("seed_number", "pk")
        .values_list(
            "pk",
            "status",
            "carried_points",
            "player_id",
            "player__name",
            "player__club",
            "player__country",
        )
    )
    records, players = [], {}
    for pk, status, carried, *player in rows:
        records.append(
            ranking.EntryRecord(
                entry=pk,
                withdrawn=status == Entry.Status.WITHDRAWN,
                carried=carried,
                drawn_as=venue_ids.get(pk),
            )
        )
        players[pk] = tuple(player)
    return records, players


def scored_totals(*, event: Event, up_to: int | None = None) -> dict[int, dict]:
    """seat -> its set's sums over its scored hands (total, penalty_points, hands_won,
    hands_played), for the event's rounds 1..up_to (all, by default): 1 query. A seat
    with no scored hand is left out."""
    scores = HandScore.objects.filter(
        hand__outcome=Hand.Outcome.SCORED, hand__table__round__event=event
    )
    if up_to is not None:
        scores = scores.filter(hand__table__round__number__lte=up_to)
    return {
        row.pop("seat_id"): row
        for row in scores.values("seat_id")
        .annotate(
            total=Sum("score"),
            penalty_points=Sum("penalty_points"),
            hands_won=Count("pk", filter=Q(hand__went_out_id=F("seat_id"))),
            hands_played=Count("pk"),
        )
        .order_by()
    }


def adjustments(event: Event, *, up_to: int) -> dict[int, tuple[Adjustment, ...]]:
    """seat -> its adjusted scores (`scoring.models.AdjustedScore`) in the event's
    closed rounds 1..up_to, by hand: 1 query. A round in play has none."""
    found: dict[int, list[Adjustment]] = {}
    played = HandScore.objects.filter(
        seat_id=OuterRef("seat_id"),
        hand__number=OuterRef("number"),
        hand__outcome=Hand.Outcome.SCORED,
    )
    rows = (
        AdjustedScore.objects.filter(
            seat__round__event=event,
            seat__round__number__lte=up_to,
            seat__round__status=Round.Status.CLOSED,
        )
        .exclude(Exists(played))  # a hand played is never also adjusted
        .values_list("seat_id", "number", "score", "at_fault", "rule")
    )
    for seat, number, score, at_fault, rule in rows.order_by("seat_id", "number"):
        found.setdefault(seat, []).append(Adjustment(seat, number, score, at_fault, rule))
    return {seat: tuple(made) for seat, made in found.items()}


NO_SCORES = {"total": 0, "penalty_points": 0, "hands_won": 0, "hands_played": 0}
SEAT_FIELDS = (
    "pk",
    "entry_id",
    "round__number",
    "round__status",
    "table__number",
    "table__closed_after_hand",
    "left_after_hand",
)
KEPT_FIELDS = tuple(f"set_total__{name}" for name in NO_SCORES)


def event_seats(event: Event, up_to: int):
    """The seats of the event's rounds 1..`up_to` in play or closed, in the order a seat
    query gives by default (round, table, position), named on the seat's own joins:
    the default order (`Seat.Meta.ordering`) goes on through the table's round to the
    event's date and name, two joins more and a sort on text for 4,096 rows that are
    one event's anyway (docs/benchmarks.md, "A rebuild's SQL halved")."""
    return Seat.objects.filter(
        round__event=event, round__number__lte=up_to, round__status__in=PLAYED_ROUND_STATUSES
    ).order_by("round__number", "table__number", "position")


def set_records(
    event: Event, *, up_to: int, scored: dict[int, dict] | None = None
) -> list[ranking.SetRecord]:
    """Every entry's set at every table it was seated at in rounds 1..up_to that are in
    play or closed, each in its state (`ranking.set_state`), from the hand scores added
    up (`scored`: those sums already read): 2 queries. `kept_set_records` reads the same
    sets from the totals every hand save keeps (`scoring.models.SetTotal`).

    A seat with no hand scored yet has a set all the same: under way at 0 while its
    round is in play (live standings keep it among the round's players instead of
    below everyone whose table has started), incomplete once the round is closed or
    the player has left."""
    hand_count = event.rules.hand_count
    seats = event_seats(event, up_to)
    if scored is None:
        scored = scored_totals(event=event, up_to=up_to)
    adjusted = adjustments(event, up_to=up_to)
    rows = [
        (*values, scored.get(values[0], NO_SCORES), adjusted.get(values[0], ()))
        for values in seats.values_list(*SEAT_FIELDS)
    ]
    return as_set_records(rows, hand_count)


def kept_set_records(
    event: Event, *, up_to: int
) -> tuple[tuple, list[ranking.SetRecord], list[ranking.SetRecord]]:
    """The sets of `set_records`, read from the kept set totals, split in two: (what
    the closed rounds are, their sets, the sets of the rounds in play). The closed
    rounds' sets are read once per process (`closed_rounds`): 2 queries, 1 with the
    closed rounds' sets known."""
    hand_count = event.rules.hand_count
    closed, known = closed_rounds(event, up_to)
    signature = closed_signature(event, up_to, closed)
    seats = event_seats(event, up_to)
    adjusted = {}
    if known is not None:
        seats = seats.exclude(round__number__in=closed)
    elif closed:
        adjusted = adjustments(event, up_to=up_to)  # only closed rounds have any
    rows = [
        (
            *values[:7],
            dict(zip(NO_SCORES, (v or 0 for v in values[7:]), strict=True)),
            adjusted.get(values[0], ()),
        )
        for values in seats.values_list(*SEAT_FIELDS, *KEPT_FIELDS)
    ]
    records = as_set_records(rows, hand_count)
    if known is None:
        known = [r for r in records if r.round in closed]
        records = [r for r in records if r.round not in closed]
        CLOSED_SETS.put(event.pk, (signature, known))
    return signature, known, records


@dataclass(frozen=True)
class ClosedBase:
    """The closed rounds' cumulative figures, what a rebuild ranks the round in play on
    top of: each entry's tally (`ranking.closed_tallies`), its incomplete sets' notes
    and its adjusted hands' notes."""

    key: tuple
    tallies: dict[int, ranking.ClosedTally]
    notes: dict[int, list[dict]]
    adjusted: dict[int, list[dict]]


# The latest ClosedBase made in this process, by event (see `closed_base`). Pays for:
# the incremental rebuild's figures in docs/benchmarks.md ("Closed rounds' cumulative
# figures": about 1,000 sets ranked instead of 10,000 at 1,024 players). About 1.1 MB
# at 4,096 players (docs/benchmarks.md, "Memory of a web process and a worker").
CLOSED_BASES = ProcessCopies(
    "closed rounds' tallies", size=64, why="docs/benchmarks.md: incremental rebuild"
)


def closed_base(event: Event, signature: tuple, sets: list[ranking.SetRecord]) -> ClosedBase:
    """The closed rounds' tallies and notes for the closed rounds `signature` names
    (their sets: `sets`), under the event's scale and tiebreaks: added up once per
    process, then reused while those rounds stay closed and the settings stay the same."""
    key = (signature, event.format, list(event.table_points), list(event.tiebreaks))
    found = CLOSED_BASES.get(event.pk)
    if found is not None and found.key == key:
        return found
    chain = ranking.check_tiebreaks(event.tiebreaks)
    notes = incomplete_notes(sets, event.rules.hand_count)
    made = ClosedBase(
        key=key,
        tallies=ranking.closed_tallies(
            sets=sets,
            table_points=event.table_points,
            with_table_points=event.format == "table-points" or "table_points" in chain,
        ),
        notes=notes,
        adjusted=adjusted_notes(sets),
    )
    CLOSED_BASES.put(event.pk, made)
    return made


# The sets of an event's closed rounds, as the latest kept rebuild in this process read
# them, with what they were read for: a closed round's sets cannot change (its hands
# and leave points are refused until it is reopened, which gives it a new close time),
# so a later rebuild reads only the rounds in play. Keyed by event; one entry each.
# Pays for: the incremental rebuild's figures in docs/benchmarks.md (0.42x a bare SQL
# sum at 1,024 players, 0.28x at 4,096). The biggest copy a worker keeps: about 13 MB
# for a 4,096-player event's nine closed rounds (docs/benchmarks.md, "Memory of a web
# process and a worker"), so four such events fit.
CLOSED_SETS = ProcessCopies(
    "closed rounds' sets",
    size=64,
    max_bytes=64 * 2**20,
    why="docs/benchmarks.md: incremental rebuild",
)


def closed_signature(event: Event, up_to: int, closed: dict) -> tuple:
    return (up_to, event.rules.hand_count, tuple(sorted(closed.items())))


def closed_rounds(event: Event, up_to: int) -> tuple[dict, list[ranking.SetRecord] | None]:
    """The event's closed rounds up to `up_to` (number -> (id, closed_at, adjusted_at)),
    and their sets if this process read them for exactly these rounds: 1 query."""
    closed = {
        number: (pk, closed_at, adjusted_at)
        for pk, number, closed_at, adjusted_at in Round.objects.filter(
            event=event, number__lte=up_to, status=Round.Status.CLOSED
        )
        .order_by()  # a mapping: no join to sort by the event
        .values_list("pk", "number", "closed_at", "adjusted_at")
    }
    found = CLOSED_SETS.get(event.pk)
    if found is not None and found[0] == closed_signature(event, up_to, closed):
        return closed, found[1]
    return closed, None


# The standings rows the latest rebuild in this process wrote and committed, by event:
# (round id, the standings version it made, entry -> (row id, the written values)).
# Pays for: about 40 ms of reading and decoding 2,048 fields per rebuild at 1,024
# players (docs/benchmarks.md, "The rebuild no longer reads every stored standing").
# About 7 MB at 4,096 players: the default byte cap keeps two such events.
WRITTEN_ROWS = ProcessCopies(
    "rows the last rebuild wrote", size=64, why="docs/benchmarks.md: rebuild's compare"
)


def written_rows(event: Event, round_: Round, columns: tuple[str, ...]) -> dict[int, tuple]:
    """The round's stored standings, entry -> (row id, the values of `columns`): this
    process's copy of what it last wrote when no other rebuild has run since (the
    event's standings version, read under its lock, is still the one that rebuild
    made) and no row has gone meanwhile (1 query: a count); else read (1 query)."""
    found = WRITTEN_ROWS.get(event.pk)
    if (
        found is not None
        and found[:2] == (round_.pk, event.standings_version)
        and Standing.objects.filter(round=round_).count() == len(found[2])
    ):
        return found[2]
    return {
        row[0]: (row[1], row[2:])
        for row in Standing.objects.filter(round=round_)
        .order_by()  # a mapping: no join to sort by the round's event
        .values_list("entry_id", "pk", *columns)
    }


def keep_written(event_id: int, round_id: int, version: int, rows: dict[int, tuple]) -> None:
    """Once the rebuild commits: remember what it wrote (`written_rows`)."""
    WRITTEN_ROWS.put(event_id, (round_id, version, rows))


def as_set_records(rows, hand_count: int) -> list[ranking.SetRecord]:
    records = []
    for _pk, entry, number, status, table, ended_after, left_after, row, adjusted in rows:
        state, why = ranking.set_state(
            played=row["hands_played"] + len(adjusted),
            hands=hand_count,
            left_after=left_after,
            ended_after=ended_after,
            over=status == Round.Status.CLOSED,
        )
        records.append(
            ranking.SetRecord(
                entry=entry,
                round=number,
                table=table,
                total=row["total"] + sum(a.score for a in adjusted),
                hands_won=row["hands_won"],
                penalty_points=row["penalty_points"],
                state=state,
                hands_missing=hand_count - row["hands_played"] - len(adjusted)
                if state == ranking.INCOMPLETE
                else 0,
                why=why,
                adjusted=adjusted,
            )
        )
    return records


def ranks_after(event: Event, number: int) -> dict[int, int]:
    """Each entry's rank in the standings after round `number` (none: {})."""
    return dict(
        Standing.objects.filter(event=event, round__number=number)
        .order_by()  # a mapping: no order, so no join to sort by the round's event
        .values_list("entry_id", "rank")
    )
