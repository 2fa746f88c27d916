"""Reads about who plays that every list of players needs: how each player's name is
shown in an event (`core.entries.names`: namesakes told apart by club and number),
and which withdrawn players a substitute replaced. A fixed number of queries each,
whatever the event's size."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q
from django.db.models.functions import Lower

from core import stored_texts as st
from core.caching import ProcessCopies, versioned, versioned_key
from core.common import author_and_reason
from core.entries.names import shown_names
from tournaments.models import Entry, Event

# The history `core.entries.event_day.substitute_entry` writes when a substitute
# replaces a no-show: the no-show's entry first, then the substitute's (as codes).
NO_SHOW_REASON = st.NO_SHOW
SUBSTITUTE_REASON = st.SUBSTITUTE


def namesakes_of(event: Event | int) -> dict[int, str]:
    """Player id -> the name to show, for the event's players (withdrawn ones too) who
    share their name with another of them; everyone else is shown by their name as it
    is (`shown_of`): 1 query, which brings back only the namesakes."""
    entries = Entry.objects.filter(event=event).annotate(lname=Lower("player__name"))
    repeated = entries.order_by().values("lname").annotate(n=Count("pk")).filter(n__gt=1)
    rows = entries.filter(lname__in=repeated.values("lname")).values_list(
        "player_id", "player__name", "player__club"
    )
    return shown_names(rows)


# The namesakes of the events this process served lately, each under the screen version
# it was read for. Pays for: the players' entry region at 4,096 players
# (docs/benchmarks.md, "One phone poll that brings the region again"), where the
# event-wide query was the dearest of the request's.
NAMESAKES = ProcessCopies(
    "namesakes of an event",
    size=64,
    max_bytes=4 * 2**20,
    why="docs/benchmarks.md, one phone poll that brings the region again",
)


def event_namesakes(event: Event) -> dict[int, str]:
    """`namesakes_of(event)`, kept under the event's screen version: from this
    process's copy or the shared cache, else 1 query. Every change to who is registered
    (a registration, a withdrawal, a substitute, a publication or archive applied) and
    to a player's name or club (`core.admin.events.PlayerAdmin`) grows the screen version
    of the events concerned in the same transaction, and `event` was read with its
    version, so the copy under that version holds those changes. Not a copy to use
    with an event row read before a change in the same transaction."""
    key = versioned_key("namesakes", event.pk, event.screen_version)
    return versioned(
        key,
        lambda: namesakes_of(event),
        copies=NAMESAKES,
        slot=versioned_key("namesakes", event.pk),
    )


def shown_of(names: dict[int, str], player_id: int, name: str) -> str:
    """The name to show for a player, from `namesakes_of`."""
    return names.get(player_id, name)


def label_players(players: Iterable[Any], names: dict[int, str]) -> None:
    """Give each player (model instance) its name as shown, as `shown`, for a page
    that lists players read as models."""
    for player in players:
        player.shown = names.get(player.pk, player.name)


def label_entries(entries: Iterable[Entry], names: dict[int, str] | None = None) -> list[Entry]:
    """The entries (each with its player loaded), their players labelled as
    `label_players` does; `names` from `namesakes_of`, or (None) worked out from these
    entries themselves when they are all of the event's. No query."""
    entries = list(entries)
    if names is None:
        names = shown_names((e.player_id, e.player.name, e.player.club) for e in entries)
    label_players((e.player for e in entries), names)
    return entries


# --- Substitutes ---------------------------------------------------------------------


def pair_substitutions(rows: Iterable[tuple[int, str, str | None]]) -> dict[int, int]:
    """No-show entry id -> its substitute's entry id, from history rows (entry id,
    status, reason) in the order they were written: an entry withdrawn as a no-show is
    replaced by the substitute whose row follows it. An entry active again since (or
    withdrawn again for another reason) is no longer a replaced no-show."""
    replaced: dict[int, int] = {}
    status_of: dict[int, str] = {}
    waiting: int | None = None  # the no-show whose substitute's row comes next
    for entry, status, stored in rows:
        code = st.code_of(author_and_reason(stored)[1])
        if code == SUBSTITUTE_REASON and waiting is not None:
            replaced[waiting] = entry
            waiting = None
        turned = status == Entry.Status.WITHDRAWN and status_of.get(entry) != status
        if turned or status != Entry.Status.WITHDRAWN:
            replaced.pop(entry, None)
        if turned and code == NO_SHOW_REASON:
            waiting = entry
        status_of[entry] = status
    return {
        noshow: sub
        for noshow, sub in replaced.items()
        if status_of.get(noshow) == Entry.Status.WITHDRAWN
    }


def replacements(event: Event | int) -> dict[int, int]:
    """The event's withdrawn no-shows replaced by a substitute, by player: the
    no-show's player id -> the substitute's, read from the entries' history: 1 query."""
    withdrawn = Entry.objects.filter(event=event, status=Entry.Status.WITHDRAWN)
    rows = list(
        Entry.history.filter(event=event)
        .filter(
            Q(id__in=withdrawn.values("pk"))
            | Q(history_change_reason__contains=st.starts(SUBSTITUTE_REASON))
        )
        .order_by("history_date", "history_id")
        .values_list("id", "status", "history_change_reason", "player_id")
    )
    player_of = {entry: player for entry, _, _, player in rows}
    pairs = pair_substitutions((entry, status, reason) for entry, status, reason, _ in rows)
    return {player_of[noshow]: player_of[sub] for noshow, sub in pairs.items()}
