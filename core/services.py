"""Every write: one function per user action, keyword-only, one transaction each,
checks before writes, history recorded, background work queued once committed. Pages,
the API, the admin, imports and tasks all change data through these functions.
Modules by subject; the names used across the site are gathered here.

Row locks are taken in one order, the standings rebuild's: the event, then a round,
table or entry (`select_for_update(of=("self",))` where only that row is changed), so
a director's change and a rebuild running beside it never deadlock."""

from __future__ import annotations

from core.common import full_clean_or_raise, with_history_user
from core.copies.services import count_copy
from core.entries.event_day import (
    add_extra_round,
    add_late_player,
    record_check_in,
    set_day_options,
    set_up_event,
    substitute_entry,
)
from core.entries.leaving import set_leave_point
from core.entries.services import create_player, register_entry, update_player, withdraw_entry
from core.events.services import (
    EVENT_FIELDS,
    check_event,
    check_new_event,
    check_update,
    create_event,
    update_event,
)
from core.hands.restore import restore_hand_version
from core.hands.services import (
    Recorded,
    TableAt,
    correction_reason,
    delete_hand,
    record_hand,
    score_rows,
)
from core.ratings.services import queue_ratings_refresh, refresh_ratings
from core.rounds.services import (
    check_can_finish,
    check_can_reopen,
    check_can_start,
    close_round,
    finish_event,
    mark_at_fault,
    publish_round,
    reopen_round,
    start_round,
)
from core.rounds.tables import check_table_open, lock_table, unlock_table
from core.screens.services import (
    clock_action,
    post_announcement,
    remove_announcement,
    screens_changed,
)
from core.seating.services import (
    MAX_SEED,
    check_adjustable,
    move_player,
    reseat_round,
    seat_round,
    seating_adjustable,
    swap_players,
)
from core.series.final import create_final
from core.series.selectors import final_started
from core.series.services import (
    add_leg,
    create_series,
    remove_leg,
    reopen_series,
    update_series,
)
from core.series.standings import queue_series_refresh, refresh_series_standings
from core.site.services import set_site_url
from core.standings.services import queue_standings_refresh, refresh_standings
from core.table_entry.services import (
    confirm_proposal,
    dispute_proposal,
    find_seat,
    find_seat_at,
    identify_player,
    issue_codes,
    open_table,
    propose_hand,
)

__all__ = [
    "queue_ratings_refresh",
    "refresh_ratings",
    "add_extra_round",
    "add_late_player",
    "record_check_in",
    "set_day_options",
    "set_up_event",
    "substitute_entry",
    "EVENT_FIELDS",
    "add_leg",
    "create_final",
    "create_series",
    "queue_series_refresh",
    "refresh_series_standings",
    "remove_leg",
    "reopen_series",
    "final_started",
    "update_series",
    "MAX_SEED",
    "Recorded",
    "TableAt",
    "check_adjustable",
    "check_can_finish",
    "check_can_reopen",
    "check_can_start",
    "check_event",
    "check_new_event",
    "check_update",
    "check_table_open",
    "clock_action",
    "close_round",
    "confirm_proposal",
    "correction_reason",
    "count_copy",
    "create_event",
    "create_player",
    "update_player",
    "delete_hand",
    "dispute_proposal",
    "find_seat",
    "find_seat_at",
    "open_table",
    "finish_event",
    "full_clean_or_raise",
    "identify_player",
    "issue_codes",
    "lock_table",
    "move_player",
    "propose_hand",
    "post_announcement",
    "publish_round",
    "queue_standings_refresh",
    "record_hand",
    "refresh_standings",
    "register_entry",
    "remove_announcement",
    "reopen_round",
    "mark_at_fault",
    "restore_hand_version",
    "reseat_round",
    "score_rows",
    "screens_changed",
    "seat_round",
    "seating_adjustable",
    "set_leave_point",
    "set_site_url",
    "start_round",
    "swap_players",
    "unlock_table",
    "update_event",
    "with_history_user",
    "withdraw_entry",
]
