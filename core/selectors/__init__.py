"""Every read that feeds a page or an endpoint: plain data, a fixed number of queries
whatever the event's size. Modules by subject; the names used across the site are
gathered here."""

from __future__ import annotations

from core.selectors.access import (
    User,
    can_add_players,
    can_create_events,
    can_direct,
    directed_event,
    directed_events,
    event_for,
    visible_events,
)
from core.selectors.boards import (
    Board,
    board,
    check_round,
    player_history,
    public_event,
    public_table,
    round_board,
)
from core.selectors.events import (
    entries_of,
    players,
    public_event_list,
    quality_by_player,
    round_of,
    round_with_seating,
    rounds_of,
    seat_in_play,
    seats_leaving,
    table_count,
    table_of,
)
from core.selectors.hands import (
    HandView,
    TableSheet,
    event_has_hands,
    hand_at,
    hand_version,
    playing_seats,
    table_sheet,
)
from core.selectors.history import HistoryEntry, hand_history
from core.selectors.progress import RoundProgress, TableProgress, round_progress, tables_progress
from core.selectors.standings import StandingRow, Standings, standings_after, standings_round

__all__ = [
    "Board",
    "HandView",
    "HistoryEntry",
    "RoundProgress",
    "StandingRow",
    "Standings",
    "TableProgress",
    "TableSheet",
    "User",
    "board",
    "can_add_players",
    "can_create_events",
    "can_direct",
    "check_round",
    "directed_event",
    "directed_events",
    "entries_of",
    "event_for",
    "event_has_hands",
    "hand_at",
    "hand_history",
    "hand_version",
    "player_history",
    "players",
    "playing_seats",
    "public_event",
    "public_event_list",
    "public_table",
    "quality_by_player",
    "round_board",
    "round_of",
    "round_progress",
    "round_with_seating",
    "rounds_of",
    "seat_in_play",
    "seats_leaving",
    "standings_after",
    "standings_round",
    "table_count",
    "table_of",
    "table_sheet",
    "tables_progress",
    "visible_events",
]
