"""Test data: the cast of named users, and builders for events, rounds and tables.

The cast, as in every permission test: alice directs the event under test, bob directs
another event only, root is a superuser, and an anonymous visitor is just None. A
`World` puts them around a published round; `played_event` plays a whole event
through the real services, so its rows and history look like a director's.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from core import services
from game import rules
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from tournaments.models import Entry, Event, Player, PlayerCode, Round, Seat, Table

_counter = itertools.count(1)
T = TypeVar("T")


def kept_for_the_module(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture: what `build` writes is made once for all the
    module's tests, inside a transaction rolled back after the last of them. Each test
    runs in a savepoint of it (pytest-django's `db`), so what one test writes is gone
    before the next. Only for modules whose tests are not transactional; the suite keeps
    such a module's tests in one process (tests/conftest.py)."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build()
        except BaseException:
            atomic.__exit__(*sys.exc_info())
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def make_user(username: str, *, superuser: bool = False):
    user_model = get_user_model()
    return user_model.objects.create_user(
        username=username,
        password="pw",
        is_staff=superuser,
        is_superuser=superuser,
    )


def make_alice(tag: str = ""):
    """Directs the event under test (the caller makes her its director)."""
    return make_user(f"alice{tag}")


def make_bob(tag: str = ""):
    """Directs another event only."""
    bob = make_user(f"bob{tag}")
    make_event(slug=f"bobs-event{tag}", name="Bob's Event").directors.add(bob)
    return bob


def make_root(tag: str = ""):
    """A superuser: directs every event."""
    return make_user(f"root{tag}", superuser=True)


def make_event(**fields) -> Event:
    n = next(_counter)
    fields.setdefault("slug", f"event-{n}")
    fields.setdefault("name", f"Event {n}")
    fields.setdefault("status", Event.Status.RUNNING)
    return Event.objects.create(**fields)


def make_entries(event: Event, count: int) -> list[Entry]:
    players = Player.objects.bulk_create(
        [Player(name=f"Player {next(_counter)}") for _ in range(count)]
    )
    first = Entry.objects.filter(event=event).count() + 1
    return [
        Entry.objects.create(event=event, player=p, seed_number=i)
        for i, p in enumerate(players, start=first)
    ]


def ranked_event(players: int, *, slug: str = "national", name: str = "National Championship"):
    """An event whose first round is closed with `players` ranked 1 to N (10 points a
    rank), as a rebuild leaves them: a long leaderboard to page through."""
    from scoring.models import Standing

    event = make_event(slug=slug, name=name)
    entries = make_entries(event, players)
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.CLOSED)
    Standing.objects.bulk_create(
        Standing(event=event, round=round_, entry=entry, rank=i, points=10 * i)
        for i, entry in enumerate(entries, start=1)
    )
    return event


def named_entries(event: Event, names: list[str]) -> list[Entry]:
    """Entries of players with these names, seeded in this order."""
    entries = make_entries(event, len(names))
    for entry, name in zip(entries, names, strict=True):
        Player.objects.filter(pk=entry.player_id).update(name=name)
        entry.player.name = name
    return entries


def make_round(
    event: Event,
    *,
    table_sizes: tuple[int, ...] = (4,),
    number: int = 1,
    status: str = Round.Status.PUBLISHED,
    entries: list[Entry] | None = None,
) -> Round:
    """A round seated in entry order: table 1 gets the first entries, and so on."""
    if entries is None:
        entries = make_entries(event, sum(table_sizes))
    round_ = Round.objects.create(event=event, number=number, status=status)
    it = iter(entries)
    for t, size in enumerate(table_sizes, start=1):
        table = Table.objects.create(round=round_, number=t)
        for position in range(1, size + 1):
            Seat.objects.create(
                table=table,
                round=round_,
                entry=next(it),
                position=position,
                first_dealer=position == 1,
            )
    return round_


def make_table(**event_fields) -> Table:
    """The first table of a fresh event's published round 1, four seats."""
    event = make_event(**event_fields)
    return make_round(event).tables.get(number=1)


# --- The cast around a published round ------------------------------------------------


@dataclass
class World:
    alice: object  # directs `event`
    bob: object  # directs `bobs_event` only
    root: object  # a superuser
    event: Event
    bobs_event: Event
    round: Round
    table: Table

    def url(self, rest: str = "", *, slug: str | None = None) -> str:
        return f"/director/{slug or self.event.slug}/{rest}"

    def sheet_url(self, round_: int = 1, table: int = 1) -> str:
        return self.url(f"rounds/{round_}/tables/{table}/")

    def hand_url(self, hand: int, round_: int = 1, table: int = 1, rest: str = "") -> str:
        return self.url(f"rounds/{round_}/tables/{table}/hands/{hand}/{rest}")


def make_world(*, table_sizes: tuple[int, ...] = (4, 4), tag: str = "", **event_fields) -> World:
    """Round 1 of alice's event published, tables seated in entry order. A `tag` makes
    a second world in the same database (users alice2, event kingston2, ...)."""
    alice, bob, root = make_alice(tag), make_bob(tag), make_root(tag)
    event_fields.setdefault("slug", f"kingston{tag}")
    event_fields.setdefault("name", "Kingston Open")
    event = make_event(**event_fields)
    event.directors.add(alice)
    bobs_event = Event.objects.get(slug=f"bobs-event{tag}")
    entries = make_entries(event, sum(table_sizes))
    round_ = make_round(event, table_sizes=table_sizes, entries=entries)
    return World(alice, bob, root, event, bobs_event, round_, round_.tables.get(number=1))


# --- A whole event, played through the services ----------------------------------------


PLAYERS = [
    ("Andre Brown", "Kingston Kalooki Club", "JM", 1500),
    ("Beverley Campbell", "Spanish Town Card Players", "JM", 1620),
    ("Carlton Clarke", "Port of Spain All Fours & Kalooki", "TT", None),
    ("Delroy Edwards", "Brooklyn Jamaican Association", "US", 1710),
    ("Errol Ferguson", "", "", None),
    ("Fitzroy Gordon", "Toronto Caribbean Club", "CA", 1440),
    ("Garfield Grant", "Birmingham Kalooki Society", "GB", 1380),
    ("Hyacinth Henry", "Kingston Kalooki Club", "JM", 1800),
    ("Icilda James", "Mandeville Social Club", "JM", 1550),
]


def hand(went_out: int, seats: int, *, base: int = 10, **extra) -> HandEntry:
    """A scored hand: `went_out` scores 0, the others base+seat points."""
    scores = tuple(
        SeatEntry(seat=s, points=0 if s == went_out else base + s) for s in range(1, seats + 1)
    )
    return HandEntry(went_out=went_out, scores=scores, **extra)


def hand_at(seats, went_out: int | None = None, *, base: int = 10) -> HandEntry:
    """A scored hand for exactly these seats (a table that lost a player): the first
    seat, or `went_out`, scores 0; the others base+seat points."""
    seats = list(seats)
    out = seats[0] if went_out is None else went_out
    scores = tuple(SeatEntry(seat=s, points=0 if s == out else base + s) for s in seats)
    return HandEntry(went_out=out, scores=scores)


def play(table: Table, numbers, seats, *, by=None, base: int = 10) -> None:
    """Record hands `numbers` at `table` for `seats`, through the service. In one
    transaction: the jobs each hand queues run once it commits, and the first standings
    rebuild covers every hand (the others find nothing left to do)."""
    with transaction.atomic():
        for number in numbers:
            entry = hand_at(seats, base=base)
            services.record_hand(table=table, number=number, entry=entry, by=by)


def make_players(event: Event) -> list[Entry]:
    players = [Player.objects.create(name=n, club=c, country=k, rating=r) for n, c, k, r in PLAYERS]
    return [
        Entry.objects.create(event=event, player=p, seed_number=i)
        for i, p in enumerate(players, start=1)
    ]


def played_event(*, slug: str = "kingston", director=None, **fields) -> Event:
    """Round 1 (a table of 5 and one of 4) played out and closed, with standings; round 2
    published and part-way through, one player withdrawn during it, its clock running
    with extra time for table 2; one announcement showing, one removed."""
    fields.setdefault("name", "Kingston Kalooki Open")
    fields.setdefault("venue", "Kingston, Jamaica")
    fields.setdefault("rounds_planned", 2)
    event = make_event(slug=slug, **fields)
    if director is not None:
        event.directors.add(director)
    entries = make_players(event)
    hand_count = event.rules.hand_count
    round1 = make_round(event, table_sizes=(5, 4), entries=entries)
    for table in round1.tables.order_by("number"):
        size = table.seats.count()
        for number in range(1, hand_count + 1):
            if number == 2 and table.number == 1:
                services.record_hand(
                    table=table, number=2, entry=HandEntry(redeal=True), by=director
                )
            extra = {}
            if number == 3:
                extra["penalties"] = (PenaltyEntry(seat=1, kind="overcall", extra_calls=1),)
            if number == 4:
                extra["down_and_out"] = True
            went_out = (number % size) + 1
            services.record_hand(
                table=table, number=number, entry=hand(went_out, size, **extra), by=director
            )
        # A correction, kept in the history.
        services.record_hand(table=table, number=1, entry=hand(1, size, base=12), by=director)
    services.close_round(round=round1, by=director)
    services.refresh_standings(event=event)
    round2 = make_round(
        event,
        number=2,
        table_sizes=(5, 4),
        entries=list(reversed(entries)),
        status=Round.Status.PUBLISHED,
    )
    table = round2.tables.get(number=1)
    for number in (1, 2):
        services.record_hand(table=table, number=number, entry=hand(2, 5), by=director)
    services.record_hand(table=table, number=3, entry=hand(3, 5), by=director)
    services.delete_hand(table=table, number=3, by=director)
    services.withdraw_entry(entry=table.seats.get(position=5).entry, by=director)
    services.clock_action(round=round2, action="start", minutes=100, by=director)
    services.clock_action(round=round2, action="extend", minutes=5, table=2, by=director)
    old = services.post_announcement(event=event, text="Round 2 starts at 14:30", by=director)
    services.remove_announcement(announcement=old, by=director)
    services.post_announcement(event=event, text="Table 2 please see the director", by=director)
    services.refresh_standings(event=event)
    event.refresh_from_db()
    return event


def engine_problems(
    entry: HandEntry,
    *,
    ruleset: str = "jamaica",
    number: object = 1,
    table_rules: rules.TableRules = rules.DEFAULT_TABLE_RULES,
) -> tuple[rules.Problem, ...]:
    """Everything the rules engine finds wrong with `entry`, at a table of four."""
    with pytest.raises(rules.HandInvalid) as invalid:
        rules.score_hand(
            ruleset=rules.get_ruleset(ruleset),
            deck=rules.Deck(),
            number=number,
            seats=(1, 2, 3, 4),
            entry=entry,
            table_rules=table_rules,
        )
    return invalid.value.problems


# --- Entry at the table ---------------------------------------------------------------


def codes_of(round_: Round) -> dict[tuple[int, int], str]:
    """Each seated player's code in `round_` by (table, seat), issued now if need be
    (a round built by `make_round` skips publishing, which issues them)."""
    services.issue_codes(round=round_)
    codes = dict(PlayerCode.objects.filter(round=round_).values_list("entry_id", "code"))
    return {
        (seat.table.number, seat.position): codes[seat.entry_id]
        for seat in Seat.objects.filter(round=round_).select_related("table")
    }
