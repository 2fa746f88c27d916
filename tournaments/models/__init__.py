"""Events, players, entries, rounds, tables and seats.

Every invariant the database can hold is a constraint here; the rest (a table has 3
to 6 seats, a round starts only after the previous one closed) is checked in
`core.services` before anything is written.

One module per group of models; Django finds them all through this package, and the
rest of the project imports them from here:

- `rulesets`: the built-in rulesets' choices and house rules (`HouseRuleset`);
- `events`: `Event`, its settings' choices and defaults;
- `players`: `Player`, and `Entry`, a player registered in an event;
- `rounds`: `Round`, `Table` and `Seat`;
- `event_day`: players' codes (`PlayerCode`), `RoundClock`, `Announcement`;
- `series`: `Series`;
- `site`: `SiteSetting`;
- `publishing`: publishing an event from a venue to the site.
"""

from __future__ import annotations

from tournaments.models.event_day import ANNOUNCEMENT_MAX, Announcement, PlayerCode, RoundClock
from tournaments.models.events import (
    DEFAULT_TIME_RULE,
    Event,
    EventFormat,
    EventStatus,
    OddTables,
    SeatingPolicy,
    TableEntry,
    default_table_points,
    default_tiebreaks,
)
from tournaments.models.players import Entry, Player
from tournaments.models.publishing import (
    OutgoingChange,
    Publication,
    PublishedRow,
    PublishingLink,
)
from tournaments.models.rounds import (
    MAX_SEATS,
    MIN_SEATS,
    PLAYED_ROUND_STATUSES,
    Round,
    Seat,
    Table,
)
from tournaments.models.rulesets import HouseRuleset, Ruleset, default_house_hands
from tournaments.models.series import Series
from tournaments.models.site import SiteSetting

__all__ = [
    "ANNOUNCEMENT_MAX",
    "DEFAULT_TIME_RULE",
    "MAX_SEATS",
    "MIN_SEATS",
    "PLAYED_ROUND_STATUSES",
    "Announcement",
    "Entry",
    "Event",
    "EventFormat",
    "EventStatus",
    "HouseRuleset",
    "OddTables",
    "OutgoingChange",
    "Player",
    "PlayerCode",
    "Publication",
    "PublishedRow",
    "PublishingLink",
    "Round",
    "RoundClock",
    "Ruleset",
    "Seat",
    "SeatingPolicy",
    "Series",
    "SiteSetting",
    "Table",
    "TableEntry",
    "default_house_hands",
    "default_table_points",
    "default_tiebreaks",
]
