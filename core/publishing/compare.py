"""Whether the site's copy of a published event equals the venue's: the two archives
(`core.archive.export`), field for field, history included, leaving out what each site
keeps for itself (the address, the pages' versions, its directors and its users, a
player's rating and registration date here)."""

from __future__ import annotations

from typing import Any

from core.archive import HISTORY_SECTIONS, SECTIONS
from core.publishing.state import LOCAL_EVENT_FIELDS

# A player of the site's registry keeps the site's rating and date of registration.
PLAYERS_OWN = ("rating", "created_at")
MAX_LISTED = 20


def comparable(payload: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "event": {
            k: v for k, v in payload["event"].items() if k not in (*LOCAL_EVENT_FIELDS, "directors")
        }
    }
    for section in SECTIONS:
        rows = payload[section.name]
        if section.name == "players":
            rows = [{k: v for k, v in r.items() if k not in PLAYERS_OWN} for r in rows]
        elif section.users:
            rows = [{k: v for k, v in r.items() if k not in section.users} for r in rows]
        out[section.name] = rows
    out["history"] = {
        s.name: [
            {k: v for k, v in r.items() if k not in s.users} for r in payload["history"][s.name]
        ]
        for s in HISTORY_SECTIONS
    }
    return out


def differences(venue: dict[str, Any], site: dict[str, Any]) -> list[str]:
    """Where the site's archive payload differs from the venue's, in a director's words
    (the first MAX_LISTED places, then how many more); empty when they agree."""
    a, b = comparable(venue), comparable(site)
    found: list[str] = []
    for name, value in a["event"].items():
        if b["event"].get(name) != value:
            found.append(f"the event's {name}: venue {value!r}, site {b['event'].get(name)!r}")
    parts = [(s.name, a[s.name], b[s.name]) for s in SECTIONS]
    parts += [
        (f"history of {s.name}", a["history"][s.name], b["history"][s.name])
        for s in HISTORY_SECTIONS
    ]
    for where, ours, theirs in parts:
        if len(ours) != len(theirs):
            found.append(f"{where}: {len(ours)} rows at the venue, {len(theirs)} on the site")
        for i, (row, other) in enumerate(zip(ours, theirs, strict=False), start=1):
            if row != other:
                fields = sorted(k for k in row if row.get(k) != other.get(k))
                said = ", ".join(
                    f"{k}: venue {row.get(k)!r}, site {other.get(k)!r}" for k in fields
                )
                found.append(f"{where} row {i}: {said}")
    if len(found) > MAX_LISTED:
        return [*found[:MAX_LISTED], f"... and {len(found) - MAX_LISTED} more"]
    return found
