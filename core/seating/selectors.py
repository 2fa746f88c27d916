"""What seating a round needs to know, read from the database: who is to be seated,
who has met whom, the standings, who has dealt first and sat where. The pure
`game.seating` takes it from here."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

from django.db.models import Count, Q

from core.ratings.selectors import seeding_ratings
from game import seating
from scoring.models import Standing
from tournaments.models import Entry, Event, Round, Seat


def contenders_for(event: Event, policy: str) -> list[Entry]:
    """The entries to seat: the active ones, or for a knockout those who advanced;
    with check-in, only those checked in."""
    active = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).select_related("player")
    if event.check_in:
        active = active.filter(checked_in=True)
    if policy != seating.KNOCKOUT:
        return list(active)
    last_closed = event.rounds.filter(status=Round.Status.CLOSED).order_by("-number").first()
    advanced = Standing.objects.filter(round=last_closed, status=Standing.Status.ACTIVE)
    return list(active.filter(pk__in=advanced.values("entry_id")))


def meetings(event: Event, *, before: int) -> dict[frozenset[int], int]:
    """How often each pair of entries has shared a table in rounds before `before`."""
    at_table: dict[int, list[int]] = defaultdict(list)
    rows = Seat.objects.filter(round__event=event, round__number__lt=before).values_list(
        "table_id", "entry_id"
    )
    for table_id, entry_id in rows:
        at_table[table_id].append(entry_id)
    met: Counter[frozenset[int]] = Counter()
    for entries in at_table.values():
        for a, b in combinations(sorted(entries), 2):
            met[frozenset((a, b))] += 1
    return dict(met)


def latest_ranks(event: Event, *, before: int) -> dict[int, int]:
    """Each entry's rank in the latest standings before round `before`."""
    last = (
        Round.objects.filter(event=event, number__lt=before, standings__isnull=False)
        .order_by("-number")
        .first()
    )
    if last is None:
        return {}
    # A mapping: no order (the default sorts through the round to the event's date and name).
    return dict(Standing.objects.filter(round=last).order_by().values_list("entry_id", "rank"))


def seating_request(round_: Round) -> seating.SeatingRequest:
    """Everything `game.seating.seat` needs to seat `round_`: 6 queries. Unseeded players
    are spread by their rating across events once any of them is rated
    (`ratings.seeding_ratings`), else by the rating imported with them."""
    event = round_.event
    entries = contenders_for(event, round_.policy)
    ranks = latest_ranks(event, before=round_.number)
    computed = seeding_ratings({e.pk: e.player_id for e in entries})  # ratings across events
    earlier = Seat.objects.filter(round__event=event, round__number__lt=round_.number)
    dealt = dict(
        earlier.values("entry_id")
        .annotate(n=Count("pk", filter=Q(first_dealer=True)))
        .values_list("entry_id", "n")
    )
    positions: dict[int, list[int]] = defaultdict(list)
    for entry_id, position in earlier.order_by("round__number").values_list("entry_id", "position"):
        positions[entry_id].append(position)
    contenders = tuple(
        seating.Contender(
            id=entry.pk,
            seed=entry.seed_number,
            rating=computed.get(entry.pk, entry.player.rating),
            rank=ranks.get(entry.pk),
            dealt_first=dealt.get(entry.pk, 0),
            positions=tuple(positions[entry.pk]),
            club=entry.player.club,
        )
        for entry in sorted(entries, key=lambda e: e.pk)
    )
    return seating.SeatingRequest(
        contenders=contenders,
        met=meetings(event, before=round_.number),
        policy=round_.policy,
        odd_tables=event.odd_tables,
        seed=round_.seed,
        avoid_clubs=event.club_avoidance,
    )


def table_lists(round_: Round) -> list[list[int]]:
    """The round's tables as lists of entry ids in seat order, table 1 first."""
    by_table: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_number, position, entry_id in Seat.objects.filter(round=round_).values_list(
        "table__number", "position", "entry_id"
    ):
        by_table[table_number].append((position, entry_id))
    return [[e for _, e in sorted(by_table[n])] for n in sorted(by_table)]


def seating_quality(round_: Round) -> seating.Quality:
    """The quality report of the round's seating as it now stands."""
    ranks = latest_ranks(round_.event, before=round_.number)
    tables = table_lists(round_)
    clubs = None
    if round_.event.club_avoidance:
        ids = [pid for table in tables for pid in table]
        clubs = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__club"))
    return seating.assess(
        tables,
        meetings(round_.event, before=round_.number),
        ranks or None,
        policy=round_.policy,
        clubs=clubs,
    )
