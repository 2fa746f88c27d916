"""An event where a substitute replaced a no-show, for the tests of every list that
shows its standings: eight players, Errol Ferguson the no-show."""

from __future__ import annotations

from core import services
from tests.fixtures import make_round, play
from tournaments.models import Entry, Event

NAMES = ["Andre Brown", "Lorna Bailey", "Marcia Reid", "Delroy Edwards"]
NAMES += ["Carlton Clarke", "Icilda James", "Errol Ferguson", "Hyacinth Henry"]
NO_SHOW = NAMES.index("Errol Ferguson")


def play_round(event: Event, number: int) -> None:
    """A round of the active players, two tables of four, played out and closed."""
    entries = list(event.entries.filter(status=Entry.Status.ACTIVE).order_by("seed_number"))
    round_ = make_round(event, number=number, table_sizes=(4, 4), entries=entries)
    for table in round_.tables.order_by("number"):
        play(table, range(1, event.rules.hand_count + 1), (1, 2, 3, 4))
    services.close_round(round=round_)
    services.refresh_standings(event=event)
    event.refresh_from_db()
