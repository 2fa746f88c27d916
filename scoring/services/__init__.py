"""Every write to hands, hand scores, penalties and standings."""

from __future__ import annotations

from scoring.services.hands import (
    Recorded,
    deck_of,
    delete_hand,
    record_hand,
    ruleset_of,
    score_rows,
)
from scoring.services.standings import queue_standings_refresh, refresh_standings

__all__ = [
    "Recorded",
    "deck_of",
    "delete_hand",
    "queue_standings_refresh",
    "record_hand",
    "refresh_standings",
    "ruleset_of",
    "score_rows",
]
