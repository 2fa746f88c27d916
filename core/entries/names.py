"""How a player's name is shown where another player of the same name is listed too:
plain Python, no database. Two people may share a name (a father and son, two
clubs' Andre Browns); every list that shows them tells them apart the same way, by
their club, and by a number where the club is the same too:

    Andre Brown (Kingston Kalooki Club)      Andre Brown (Kingston Kalooki Club, 1)
    Andre Brown (Toronto Caribbean Club)     Andre Brown (Kingston Kalooki Club, 2)

A name nobody else in the list has is shown as it is. The number follows the order
the players were registered in (their ids), so it is the same on every page."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

NO_CLUB = "no club"


def name_key(name: str) -> str:
    """The form two names are compared in: case, accents' encoding and spacing ignored."""
    return " ".join(unicodedata.normalize("NFC", name or "").split()).casefold()


def shown_names(people: Iterable[tuple[int, str, str]]) -> dict[int, str]:
    """Each person's name as a list of these people shows it, by id, from (id, name,
    club) of each: the name alone, or for namesakes the name with the club (or "no
    club"), and a number among those of the same name and club."""
    people = sorted({pid: (pid, name or "", club or "") for pid, name, club in people}.values())
    by_name: dict[str, list[tuple[int, str, str]]] = {}
    for person in people:
        by_name.setdefault(name_key(person[1]), []).append(person)
    shown: dict[int, str] = {}
    for namesakes in by_name.values():
        if len(namesakes) == 1:
            pid, name, _ = namesakes[0]
            shown[pid] = name
            continue
        by_club: dict[str, list[int]] = {}
        for pid, _, club in namesakes:
            by_club.setdefault(name_key(club), []).append(pid)
        any_club = any(by_club)  # a club key is "" for no club
        for pid, name, club in namesakes:
            # Nobody of that name has a club: the number alone tells them apart.
            parts = [" ".join(club.split()) or NO_CLUB] if any_club else []
            same_club = by_club[name_key(club)]
            if len(same_club) > 1:
                parts.append(str(same_club.index(pid) + 1))
            shown[pid] = f"{name} ({', '.join(parts)})"
    return shown
