"""The English the site stored before its stored texts were codes (`core.stored_texts`),
read back as codes where it is recognisable: by the migration that converted the rows
already stored, and by the archive for an archive written before. A text that is not
recognisable (a director's own words) is left as it is. Each kind of row is read only
for what the site wrote on that kind, so a director's reason for correcting a hand
that happens to read "reopened" stays their words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from core import stored_texts as st
from core.common import author_and_reason, imported_reason

# What an event's rule at time was until the default was worded when shown.
OLD_DEFAULT_TIME_RULE = "At time, the hand in play is finished; no new hand is started."

SEAT = r"seat (?P<seat>\d+) \((?P<name>.+)\)"
Reader = tuple[re.Pattern[str], str, Callable[[dict[str, Any]], dict[str, Any]]]


def _numbers(*names: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The matched values, those named made numbers."""
    return lambda found: {
        k: int(v) if k in names and v is not None else v for k, v in found.items()
    }


def _reader(pattern: str, code: str, *numbers: str) -> Reader:
    return re.compile(pattern, re.DOTALL), code, _numbers(*numbers)


DEMO = _reader("demo data", st.DEMO)
PLAYERS = _reader(
    r"entered by seat (?P<seat>\d+) \((?P<name>.+?)\), "
    r"confirmed by seat (?P<by_seat>\d+) \((?P<by_name>.+)\)",
    st.PLAYERS,
    "seat",
    "by_seat",
)
DISCARDED = (
    _reader(r"discarded: round (?P<round>\d+) was reopened", st.DISCARDED_REOPENED, "round"),
    _reader("discarded: the final was seeded again", st.DISCARDED_FINAL),
)
REOPENED = _reader(r"reopened(?:: (?P<reason>.+))?", st.REOPENED)

# By the kind of row (the model's name, lower case): what the site wrote on it.
READERS: dict[str, tuple[Reader, ...]] = {
    "hand": (
        _reader(r"restored version (?P<version>\d+)(?:: (?P<reason>.+))?", st.RESTORED, "version"),
        PLAYERS,
        _reader(f"the version entered by {SEAT}", st.ENTERED_VERSION, "seat"),
        _reader(
            r"the version of seat (?P<by_seat>\d+) \((?P<by_name>.+?)\), "
            r"who disputed the entry of seat (?P<seat>\d+) \((?P<name>.+)\)",
            st.DISPUTED_VERSION,
            "seat",
            "by_seat",
        ),
        DEMO,
    ),
    "proposal": (
        PLAYERS,
        _reader(f"entered by {SEAT}", st.ENTERED, "seat"),
        _reader(f"replaced by {SEAT}", st.REPLACED, "seat"),
        _reader(f"version given by {SEAT}", st.VERSION_GIVEN, "seat"),
        _reader(f"disputed by {SEAT}", st.DISPUTED, "seat"),
        _reader("overruled by a director's entry", st.OVERRULED),
        _reader("overruled: the directors enter the hands now", st.OVERRULED_DIRECTORS),
    ),
    "round": (
        _reader(r"forced: (?P<count>\d+) tables? with hands missing", st.FORCED, "count"),
        REOPENED,
        *DISCARDED,
        DEMO,
    ),
    "seat": (
        _reader("seated", st.SEATED),
        _reader(r"at fault: (?P<reason>.+)", st.AT_FAULT),
        _reader("no longer at fault", st.NOT_AT_FAULT),
        # One " replaces " only: with more, which name is which cannot be told.
        _reader(
            r"(?P<name>(?:(?! replaces ).)+) replaces (?P<replaced>(?:(?! replaces ).)+)",
            st.REPLACES,
        ),
        *DISCARDED,
        DEMO,
    ),
    "entry": (
        _reader(r"no-show, replaced by (?P<name>.+)", st.NO_SHOW),
        _reader(r"substitute for (?P<name>.+)", st.SUBSTITUTE),
        _reader("left the final: no longer a qualifier", st.LEFT_FINAL),
        DEMO,
    ),
    "series": (
        _reader(r"final seeded: (?P<reason>.+)", st.FINAL_SEEDED),
        REOPENED,
        _reader(r"final: (?P<slug>.+), counted instead", st.FINAL_COUNTED),
    ),
    "event": (
        _reader(r"Round (?P<round>\d+) reopened: (?P<reason>.*)", st.RESULTS_CHANGED, "round"),
        _reader("replaced by an imported archive", st.ARCHIVE_REPLACED),
        _reader(r"left out of ratings and series: (?P<slug>.+) counts", st.LEFT_OUT),
        _reader(r"counted(?: instead of (?P<slug>.+))?", st.COUNTED),
    ),
}
# A hand's score and penalty rows are written with the hand's reason.
READERS["handscore"] = READERS["penalty"] = READERS["hand"]


def coded(text: str, readers: tuple[Reader, ...]) -> str | None:
    """The stored form of `text` if one of `readers` recognises it, else None."""
    for pattern, code, values in readers:
        found = pattern.fullmatch(text)
        if found is not None:
            return st.stored(code, **values(found.groupdict()))
    return None


def reason_from_english(text: str | None, kind: str) -> str | None:
    """A history row's reason of a row of `kind` ("hand", "round"...), as a code where
    the English is recognisable; an imported row's author stays named in it."""
    if not text or st.parsed(text) is not None:
        return text
    readers = READERS.get(kind, (DEMO,))
    author, reason = author_and_reason(text)
    if author is None:
        return coded(text, readers) or text
    if not reason or st.parsed(reason) is not None:
        return text
    found = coded(reason, readers)
    return text if found is None else imported_reason(author, found, None)


def time_rule_from_english(text: str | None) -> str | None:
    """An event's rule at time: None (the default, worded when shown) for the default
    stored in English before."""
    return None if text == OLD_DEFAULT_TIME_RULE else text


def results_changed_from_english(round_: int | None, reason: str) -> tuple[int | None, str]:
    """(round, the director's reason) of a finished event's results changed, from the
    English "Round 2 reopened: why" stored before (round None: not recognisable)."""
    if round_ is not None:
        return round_, reason
    found = re.fullmatch(r"Round (\d+) reopened: (.*)", reason or "", re.DOTALL)
    return (int(found[1]), found[2]) if found else (None, reason)


TOO_FEW = re.compile(r"(\d+) players are needed to seat a round; (\d+) (?:is|are) active")


def seating_error_from_english(quality: Any) -> Any:
    """A round's seating quality report, its failure as a code where it is the English
    the seating said when too few players were active."""
    if not isinstance(quality, dict) or not isinstance(quality.get("error"), str):
        return quality
    found = TOO_FEW.fullmatch(quality["error"])
    if found is None:
        return quality
    error = st.stored(st.TOO_FEW_PLAYERS, count=int(found[2]), least=int(found[1]))
    return {**quality, "error": error}
