"""Builders for the ratings tests: events whose rounds are played out through the
services, with chosen players at chosen seats."""

from __future__ import annotations

from core import services
from tests.fixtures import make_round, play
from tournaments.models import Entry, Event, Player, Round


def entries_for(event: Event, players: list[Player]) -> list[Entry]:
    first = Entry.objects.filter(event=event).count() + 1
    return [
        Entry.objects.get_or_create(event=event, player=p, defaults={"seed_number": first + i})[0]
        for i, p in enumerate(players)
    ]


def players(count: int) -> list[Player]:
    first = Player.objects.count()
    return [Player.objects.create(name=f"Rated {first + i}") for i in range(1, count + 1)]


def closed_round(
    event: Event,
    tables: list[list[Player]],
    *,
    number: int = 1,
    base: int = 10,
    force_missing: int | None = None,
) -> Round:
    """A round seated as given (the first player at each table goes out every hand, the
    later seats score more), played through the services and closed. With
    `force_missing`, that table misses its last hand and the round is force-closed."""
    entries = entries_for(event, [p for table in tables for p in table])
    round_ = make_round(
        event, number=number, table_sizes=tuple(len(t) for t in tables), entries=entries
    )
    hands = event.rules.hand_count
    for table in round_.tables.order_by("number"):
        size = table.seats.count()
        last = hands - 1 if table.number == force_missing else hands
        play(table, range(1, last + 1), range(1, size + 1), base=base)
    closed = services.close_round(round=round_, force=force_missing is not None)
    services.refresh_standings(event=event)
    return closed
