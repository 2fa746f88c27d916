"""Plain builders for test data: an event with a published round and full tables."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from tournaments.models import Entry, Event, Player, Round, Seat, Table

_counter = itertools.count(1)


def make_user(username: str, *, superuser: bool = False):
    user_model = get_user_model()
    return user_model.objects.create_user(
        username=username,
        password="pw",
        is_staff=superuser,
        is_superuser=superuser,
    )


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
