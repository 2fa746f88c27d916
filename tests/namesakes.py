"""An event with three players called Andre Brown, for the tests of every list that
shows its players: two of Kingston Kalooki Club (registered in that order) and one of
Spanish Town Card Players, with how every list must show them."""

from __future__ import annotations

from core import services
from tests.fixtures import make_event, make_round, play
from tournaments.models import Entry, Event, Player, Round

PLAYERS = [
    ("Andre Brown", "Kingston Kalooki Club"),
    ("Andre Brown", "Spanish Town Card Players"),
    ("Andre Brown", "Kingston Kalooki Club"),
    ("Lorna Bailey", "Mandeville Social Club"),
    ("Marcia Reid", ""),
    ("Delroy Edwards", "Brooklyn Jamaican Association"),
    ("Carlton Clarke", "Port of Spain All Fours & Kalooki"),
    ("Icilda James", "Mandeville Social Club"),
]
# How every list of the event names the three Andre Browns, in the order above.
SHOWN = [
    "Andre Brown (Kingston Kalooki Club, 1)",
    "Andre Brown (Spanish Town Card Players)",
    "Andre Brown (Kingston Kalooki Club, 2)",
]


def enter_namesakes(event: Event) -> list[Entry]:
    """The players above entered in `event`, seeded in that order."""
    return [
        Entry.objects.create(
            event=event, player=Player.objects.create(name=name, club=club), seed_number=seed
        )
        for seed, (name, club) in enumerate(PLAYERS, start=1)
    ]


def namesakes_event(*, director=None, slug: str = "namesakes") -> Event:
    """Round 1 (two tables of four, the three Andre Browns at table 1) played out and
    closed, with its standings."""
    event = make_event(slug=slug, name="Namesakes Open", rounds_planned=3)
    if director is not None:
        event.directors.add(director)
    round1 = make_round(event, table_sizes=(4, 4), entries=enter_namesakes(event))
    for table in round1.tables.order_by("number"):
        play(table, range(1, event.rules.hand_count + 1), (1, 2, 3, 4), by=director)
    services.close_round(round=round1, by=director)
    services.refresh_standings(event=event)
    event.refresh_from_db()
    return event


def seat_round_2(event: Event) -> Round:
    """Round 2 published, seated as round 1 was, with the players' codes issued; no hand
    recorded yet (the public pages show where everyone sits)."""
    entries = list(event.entries.order_by("seed_number"))
    round2 = make_round(event, number=2, table_sizes=(4, 4), entries=entries)
    services.issue_codes(round=round2)
    return round2
