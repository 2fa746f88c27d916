"""Reading an archive written by an earlier version, or before optional fields existed:
its payload brought to the current shape (what it lacks is what it meant then)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from core.archive import EVENT_FIELDS, HISTORY_SECTIONS, HOUSE_RULES, SECTIONS, encode
from core.stored_texts import english
from game.identity import derived_uid, new_uid
from game.rulesets import get_ruleset
from game.sets import ends_after
from tournaments.models import Event


def upgrade(payload: dict[str, Any], version: int) -> dict[str, Any]:
    """An older archive's payload in the current version's shape (its checksum was
    checked as written): what it lacks is what it meant."""
    if version <= 3:
        payload = with_identity(payload)  # before version 1's missing seed is made up
    if version == 1:
        payload = upgrade_from_1(payload)
    if version <= 2:
        payload = upgrade_from_2(payload)
    return with_stored_texts(with_optional_fields(payload))


def with_identity(payload: dict[str, Any]) -> dict[str, Any]:
    """Versions 1 to 3 carried no identity: the event's is derived from its creation
    time and draw seed, as the event itself was given one where it was made, so this
    archive is known as that event there, and every import of it as the same event."""
    event = payload.get("event")
    if not isinstance(event, dict) or "uid" in event:
        return payload
    try:
        created_at = datetime.fromisoformat(event.get("created_at"))
    except (TypeError, ValueError):
        uid = new_uid()  # no creation time to derive from: the checks that follow say so
    else:
        if created_at.tzinfo is None:
            created_at = created_at.replace(tzinfo=timezone.utc)
        uid = derived_uid(created_at, event.get("draw_seed"))
    return {**payload, "event": {**event, "uid": str(uid)}}


def upgrade_from_2(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 2 had no prizes and no house rules: none, the draw deciding ties."""
    event = payload.get("event")
    if not isinstance(event, dict):
        return payload
    event = {**event, HOUSE_RULES: None}
    for name in ("prizes", "prize_ties", "frozen_ruleset"):
        if name not in event:
            field = Event._meta.get_field(name)
            event[name] = encode(field, field.get_default())
    payload = {**payload, "event": event}
    # Nobody carried points into an event then (a series final's carried-over score).
    history = payload.get("history")
    history_rows = history.get("entries") if isinstance(history, dict) else None
    for rows in (payload.get("entries"), history_rows):
        for row in rows if isinstance(rows, list) else ():
            if isinstance(row, dict):
                row.setdefault("carried_points", 0)
    return payload


# Fields added without raising the format version: an archive written before them (of
# the same version) is read with these defaults. By section ("event": the event row);
# a section's history rows take the same defaults.
OPTIONAL_FIELDS: dict[str, dict[str, Any]] = {
    "event": {
        "check_in": False,
        "club_avoidance": False,
        "results_changed_at": None,
        # The round was named in the reason then ("Round 2 reopened: why").
        "results_changed_round": None,
        "results_changed_reason": "",
        # An event of then ranked a knockout by places per table.
        "even_knockout_places": False,
        "prize_currency": "",
        # Every event's pages were in English then.
        "language": "en",
    },
    "entries": {"checked_in": False},
    "proposals": {"version": 1},
    "rounds": {"adjusted_at": None},
    "seats": {"at_fault": ""},
    "standings": {"adjusted_hands": 0, "at_fault_hands": 0, "adjusted": [], "filled_in": []},
}
# Sections added the same way: an archive written before them has none of their rows
# (an event of then adjusted no score: its incomplete sets stand as they were ranked).
OPTIONAL_SECTIONS = ("adjusted_scores",)


def with_optional_fields(payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` with every optional field it lacks at its default (rows of the wrong
    shape are left for the checks that follow to name)."""
    payload = {**payload}
    for name in OPTIONAL_SECTIONS:
        payload.setdefault(name, [])

    def filled(rows: Any, defaults: dict[str, Any]) -> Any:
        if not isinstance(rows, list):
            return rows
        return [{**defaults, **row} if isinstance(row, dict) else row for row in rows]

    for name, defaults in OPTIONAL_FIELDS.items():
        if name == "event":
            if isinstance(payload.get("event"), dict):
                payload["event"] = {**defaults, **payload["event"]}
            continue
        if name in payload:
            payload[name] = filled(payload[name], defaults)
        history = payload.get("history")
        if isinstance(history, dict) and name in history:
            payload["history"] = {**history, name: filled(history[name], defaults)}
    return payload


def with_stored_texts(payload: dict[str, Any]) -> dict[str, Any]:
    """The texts an earlier version stored in English (the history's reasons the site
    wrote, the default rule at time, "Round 2 reopened: why", a seating that failed for
    too few players) as the codes stored now, where they are recognisable
    (`core.stored_texts.english`), so they are worded for each reader once imported."""
    payload = {**payload}
    event = payload.get("event")
    if isinstance(event, dict):
        event = {**event}
        if isinstance(event.get("time_rule"), str):
            event["time_rule"] = english.time_rule_from_english(event["time_rule"])
        round_, reason = event.get("results_changed_round"), event.get("results_changed_reason")
        if round_ is None and isinstance(reason, str):
            round_, reason = english.results_changed_from_english(None, reason)
            event["results_changed_round"], event["results_changed_reason"] = round_, reason
        payload["event"] = event
    history = payload.get("history")
    history = {**history} if isinstance(history, dict) else None
    if history is not None:
        payload["history"] = history
    if "rounds" in payload:
        payload["rounds"] = rows_with(payload["rounds"], "quality", kind=None)
    for section in HISTORY_SECTIONS:
        if history is None or section.name not in history:
            continue
        kind = section.model.__name__.lower()
        rows = rows_with(history[section.name], "history_change_reason", kind=kind)
        history[section.name] = rows_with(rows, "quality", kind=None)
    return payload


def rows_with(rows: Any, name: str, *, kind: str | None) -> Any:
    """`rows` with their `name` read from English: a history's reason (rows of `kind`),
    or a round's quality report (rows of the wrong shape are left for the checks)."""
    if not isinstance(rows, list):
        return rows
    changed = []
    for row in rows:
        if isinstance(row, dict) and name in row:
            value = row[name]
            if name == "quality":
                value = english.seating_error_from_english(value)
            elif isinstance(value, str):
                value = english.reason_from_english(value, kind or "")
            row = {**row, name: value}
        changed.append(row)
    return changed


def upgrade_from_1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no agreed rules, table ends, incomplete sets or round history. An
    event whose penalties carry amounts other than the agreed one allowed them; a
    table's end follows from its seats' leave points."""
    payload = {**payload}
    event = payload.get("event")
    if not isinstance(event, dict):
        return payload  # the checks that follow say what is wrong
    agreed = event.get("director_penalty")
    amounts = {
        row.get("points")
        for row in payload.get("penalties") or ()
        if isinstance(row, dict) and row.get("kind") != "challenge"
    }
    event = {**event, "overcall_penalty": True, "trinidad_doubling": False}
    event["penalty_per_hand"] = bool(amounts - {agreed})
    payload["event"] = event
    leave_points: dict[Any, list] = {}
    for seat in payload.get("seats") or ():
        if isinstance(seat, dict):
            leave_points.setdefault(seat.get("table"), []).append(seat.get("left_after_hand"))
    try:
        hands = get_ruleset(event.get("ruleset")).hand_count
    except ValueError:
        hands = None
    payload["tables"] = [
        {**row, "closed_after_hand": ends(leave_points.get(row.get("id"), []), hands)}
        if isinstance(row, dict)
        else row
        for row in payload.get("tables") or ()
    ]
    payload["standings"] = [
        {**row, "sets_incomplete": 0, "incomplete": []} if isinstance(row, dict) else row
        for row in payload.get("standings") or ()
    ]
    # Settings and rows that came after version 1 (players' entries, the venue screens):
    # an event of then had their defaults and none of the rows.
    for name in EVENT_FIELDS:
        if name not in event:
            field = Event._meta.get_field(name)
            event[name] = encode(field, field.get_default())
    for section in SECTIONS:
        payload.setdefault(section.name, [])
    history = payload.get("history")
    if isinstance(history, dict):
        tables = [
            {**row, "closed_after_hand": None} if isinstance(row, dict) else row
            for row in history.get("tables") or ()
        ]
        payload["history"] = {**history, "tables": tables, "rounds": []}
        for section in HISTORY_SECTIONS:
            payload["history"].setdefault(section.name, [])
    return payload


def ends(leave_points: list, hands: int | None) -> int | None:
    if hands is None or not all(p is None or isinstance(p, int) for p in leave_points):
        return None
    return ends_after(leave_points, hands)
