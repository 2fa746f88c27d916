"""Every write to events, entries, rounds, tables and seats: one function per director
action, one transaction each (see the modules for the details)."""

from __future__ import annotations

from tournaments.services.events import (
    check_table_open,
    create_event,
    full_clean_or_raise,
    lock_table,
    register_entry,
    unlock_table,
    update_event,
    with_history_user,
    withdraw_entry,
)
from tournaments.services.rounds import (
    close_round,
    move_player,
    publish_round,
    reseat_round,
    seat_round,
    start_round,
    swap_players,
)

__all__ = [
    "check_table_open",
    "close_round",
    "create_event",
    "full_clean_or_raise",
    "lock_table",
    "move_player",
    "publish_round",
    "register_entry",
    "reseat_round",
    "seat_round",
    "start_round",
    "swap_players",
    "unlock_table",
    "update_event",
    "with_history_user",
    "withdraw_entry",
]
