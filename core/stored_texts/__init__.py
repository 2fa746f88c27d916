"""Texts the system writes into the database, kept as a code with its values and worded
in the reader's language when shown (`core.stored_texts.words`), never in the language
of whoever happened to be writing.

A history's reasons ("restored version 2: the sheet was misread", "entered by seat 1
(Ann), confirmed by seat 4 (Ben)"), a round's seating failure and the like are stored as
a small JSON object, its code first: `{"code":"restored","version":2,"reason":"..."}`.
The values are numbers, names and the director's own words, shown as they were typed.
Any other stored text (a director's reason on its own, a text from before) is shown as
it is. No Django here: the migration that converted the English stored before, and the
archive reading an older archive, use it as it stands.
"""

from __future__ import annotations

import json
from typing import Any

START = '{"code":'


def stored(code: str, **values: Any) -> str:
    """The stored form of `code` with `values` (None values left out)."""
    kept = {name: value for name, value in values.items() if value is not None}
    return json.dumps({"code": code, **kept}, ensure_ascii=False, separators=(",", ":"))


def starts(code: str) -> str:
    """How every stored text of `code` begins (for a query on the stored column)."""
    return START + json.dumps(code, ensure_ascii=False)


def parsed(text: object) -> tuple[str, dict[str, Any]] | None:
    """(code, values) of a stored form; None for any other text."""
    if not isinstance(text, str) or not text.startswith(START):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("code"), str):
        return None
    code = value.pop("code")
    return code, value


def code_of(text: object) -> str | None:
    found = parsed(text)
    return found[0] if found else None


def typed(text: str) -> str:
    """A director's own words, kept as the whole of a stored text: as typed, unless they
    would read as a stored form, which they are then wrapped in (shown as typed)."""
    return stored(TYPED, text=text) if parsed(text) is not None else text


def untyped(text: str | None) -> str | None:
    """A director's own words as they typed them, from `typed`."""
    found = parsed(text)
    return found[1].get("text") if found is not None and found[0] == TYPED else text


def seat(position: int, name: str) -> dict[str, Any]:
    """A seat as the reasons name it: its position and its player's name."""
    return {"seat": position, "name": name}


# The codes, one per thing the system says (`words.WORDS` words each).
TYPED = "typed"  # a director's words that looked like a stored form: {text}
DEMO = "demo"  # rows the demo made
# A hand's history.
RESTORED = "restored"  # {version, reason?}
PLAYERS = "players"  # recorded by the players: {seat, name, by_seat, by_name}
ENTERED_VERSION = "entered_version"  # a director recorded the version entered: {seat, name}
DISPUTED_VERSION = "disputed_version"  # ... the disputer's: {seat, name, by_seat, by_name}
# The players' entries (proposals).
ENTERED = "entered"  # {seat, name}
REPLACED = "replaced"  # {seat, name}
VERSION_GIVEN = "version_given"  # {seat, name}
DISPUTED = "disputed"  # {seat, name}
OVERRULED = "overruled"
OVERRULED_DIRECTORS = "overruled_directors"
# Rounds, their seats and the seating.
SEATED = "seated"
FORCED = "forced"  # {count}
REOPENED = "reopened"  # a round or a series: {reason?}
DISCARDED_REOPENED = "discarded_reopened"  # {round}
DISCARDED_FINAL = "discarded_final"
AT_FAULT = "at_fault"  # {reason}
NOT_AT_FAULT = "not_at_fault"
REPLACES = "replaces"  # a seat given to a substitute: {name, replaced}
TOO_FEW_PLAYERS = "too_few_players"  # a seating that failed: {count, least}
# Entries.
NO_SHOW = "no_show"  # {name}: the substitute
SUBSTITUTE = "substitute"  # {name}: the no-show
LEFT_FINAL = "left_final"
# Events and series.
RESULTS_CHANGED = "results_changed"  # {round, reason}
ARCHIVE_REPLACED = "archive_replaced"
LEFT_OUT = "left_out"  # {slug}: the event counted instead
COUNTED = "counted"  # {slug?}: the event it was counted instead of
FINAL_COUNTED = "final_counted"  # {slug}
FINAL_SEEDED = "final_seeded"  # {reason}
