"""The demo's players: Caribbean names, clubs and countries, each name used once."""

from __future__ import annotations

import random
from collections.abc import Iterable

from tournaments.models import Player

FIRST_NAMES = [
    "Andre",
    "Beverley",
    "Carlton",
    "Delroy",
    "Donovan",
    "Errol",
    "Fitzroy",
    "Garfield",
    "Hyacinth",
    "Icilda",
    "Jasmine",
    "Kemar",
    "Lorna",
    "Marcia",
    "Nadine",
    "Omar",
    "Patrice",
    "Queenie",
    "Rohan",
    "Sheldon",
    "Tamika",
    "Winston",
    "Yvonne",
    "Claudette",
    "Desmond",
    "Everton",
    "Kadian",
    "Leroy",
    "Monique",
    "Neville",
    "Odette",
    "Paulette",
    "Ricardo",
    "Shanice",
    "Tyrone",
    "Veronica",
    "Althea",
    "Barrington",
    "Camille",
    "Dwayne",
    "Keisha",
    "Lloyd",
    "Maxine",
    "Orville",
    "Sharon",
]
LAST_NAMES = [
    "Brown",
    "Campbell",
    "Clarke",
    "Edwards",
    "Ferguson",
    "Gordon",
    "Grant",
    "Henry",
    "James",
    "Johnson",
    "Lewis",
    "Morgan",
    "Reid",
    "Robinson",
    "Scott",
    "Smith",
    "Stewart",
    "Thomas",
    "Thompson",
    "Walker",
    "Williams",
    "Wilson",
    "Wright",
    "Bailey",
    "Barrett",
    "Chin",
    "Ellis",
    "Forbes",
    "Hylton",
    "Lindo",
    "Mais",
    "McKenzie",
    "Palmer",
    "Powell",
    "Rattray",
    "Samuels",
    "Sinclair",
    "Whyte",
    "Ramdial",
    "Mohammed",
    "Charles",
    "Joseph",
    "Baptiste",
    "Alexander",
    "Ramsaran",
]
CLUBS = (
    ("Kingston Kalooki Club", "JM"),
    ("Spanish Town Card Players", "JM"),
    ("Montego Bay Rummy Circle", "JM"),
    ("Mandeville Social Club", "JM"),
    ("Ocho Rios Kalooki League", "JM"),
    ("May Pen Domino & Kalooki", "JM"),
    ("Port of Spain All Fours & Kalooki", "TT"),
    ("San Fernando Card Club", "TT"),
    ("Brooklyn Jamaican Association", "US"),
    ("Toronto Caribbean Club", "CA"),
    ("Birmingham Kalooki Society", "GB"),
)


def make_players(rng: random.Random, count: int, *, taken: Iterable[str] = ()) -> list[Player]:
    """`count` new players with names of their own (none of `taken` either)."""
    players, seen = [], set(taken)
    while len(players) < count:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name in seen:
            name = f"{name} {len([n for n in seen if n.startswith(name)]) + 1}"
        seen.add(name)
        club, country = rng.choice(CLUBS)
        players.append(
            Player(name=name, club=club, country=country, rating=rng.randint(1200, 2000))
        )
    return Player.objects.bulk_create(players)
