"""Reading an event archive and checking it whole before anything is written (the
format is described in core.archive; importing it is core.archive.importer): its format,
version and checksum (`load`), then every row's values, references and usernames
(`check_payload`), and an event of house rules' ruleset values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models
from django.utils.translation import gettext as _

from core.archive import (
    BY_NAME,
    EVENT_FIELDS,
    FORMAT,
    HISTORY_ROWS_PER_ROW,
    HISTORY_SECTIONS,
    HOUSE_RULES,
    MAX_DIRECTORS,
    MAX_ROWS,
    READABLE_VERSIONS,
    SECTIONS,
    VERSION,
    ArchiveError,
    Section,
    checksum,
    decode,
)
from core.archive.upgrade import upgrade
from game.rulesets import check_house
from tournaments.models import Event, HouseRuleset

# --- reading and checking an archive -------------------------------------------------


def refuse_constant(name: str) -> None:
    raise ValueError(_("%(name)s is not a JSON number") % {"name": name})


def json_problem(error: ValueError) -> str:
    """Where the JSON stops being JSON, in the reader's language (the parser's own words
    are English); any other error as it is."""
    if isinstance(error, json.JSONDecodeError):
        return _("line %(line)s, column %(column)s") % {"line": error.lineno, "column": error.colno}
    if isinstance(error, UnicodeDecodeError):
        return _("not UTF-8 text")
    return str(error)


def load(raw: bytes | str | Mapping[str, Any]) -> dict[str, Any]:
    """The payload of an archive, after checking its format, version and checksum."""
    if isinstance(raw, Mapping):
        document = dict(raw)
    else:
        try:
            document = json.loads(raw, parse_constant=refuse_constant)
        except (UnicodeDecodeError, ValueError) as error:
            raise ArchiveError(
                _("This is not an event archive: it cannot be read as JSON (%(error)s).")
                % {"error": json_problem(error)}
            ) from error
        except RecursionError as error:
            raise ArchiveError(
                _("This is not an event archive: its JSON is nested far too deep.")
            ) from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ArchiveError(
            _("This is not a Kalooki event archive (its format is not %(format)s).")
            % {"format": repr(FORMAT)}
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ArchiveError(_("The archive has no format version; it cannot be imported."))
    if version not in READABLE_VERSIONS:
        readable = ", ".join(str(v) for v in READABLE_VERSIONS)
        if version > VERSION:
            message = _(
                "The archive was written by a newer version of this software in format "
                "version %(version)s; this installation reads versions %(readable)s only. "
                "Nothing was imported."
            )
        else:
            message = _(
                "The archive was written in format version %(version)s; this installation "
                "reads versions %(readable)s only. Nothing was imported."
            )
        raise ArchiveError(message % {"version": version, "readable": readable})
    payload = document.get("payload")
    if not isinstance(payload, dict) or not isinstance(document.get("checksum"), str):
        raise ArchiveError(_("The archive has no payload or no checksum; it is incomplete."))
    try:
        actual = checksum(payload)
    except (ValueError, RecursionError) as error:  # NaN, or nested too deep to write
        raise ArchiveError(
            _(
                "This is not an event archive: its payload holds values JSON cannot carry "
                "(NaN, Infinity) or is nested far too deep."
            )
        ) from error
    if actual != document["checksum"]:
        raise ArchiveError(
            _(
                "The archive is corrupted: its checksum does not match its contents "
                "(it was changed or damaged after it was exported). Nothing was imported."
            )
        )
    return upgrade(payload, version)


@dataclass
class Checked:
    """An archive's rows, every value converted and checked, every reference resolved
    to another row of the archive (live rows) or left as a number (history rows)."""

    event: dict[str, Any]
    directors: list[str]
    rows: dict[str, list[dict[str, Any]]]
    history: dict[str, list[dict[str, Any]]]
    usernames: set[str]
    house_rules: dict[str, Any] | None = None


def damaged(where: str, problem: str) -> ArchiveError:
    # `where` names a part of the archive's file and `problem` what the checks found
    # there: the file's own names, left as they are.
    return ArchiveError(
        _("The archive is not valid: %(where)s: %(problem)s. Nothing was imported.")
        % {"where": where, "problem": problem}
    )


def check_keys(where: str, row: Any, expected: set[str]) -> None:
    if not isinstance(row, dict):
        raise damaged(where, "not an object")
    missing, unknown = expected - set(row), set(row) - expected
    if missing or unknown:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(missing)))
        if unknown:
            parts.append("unknown " + ", ".join(sorted(unknown)))
        raise damaged(where, "; ".join(parts) + " (an incompatible archive)")


def check_row_count(where: str, rows: list, bound: int) -> None:
    if len(rows) > bound:
        raise damaged(where, f"{len(rows):,} rows, more than the {bound:,} an archive may carry")


def check_number(where: str, value: Any, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise damaged(where, f"{value!r} is not a row number")
    return value


def check_username(where: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > 150:
        raise damaged(where, f"{value!r} is not a username")
    return value


def check_values(
    where: str, model: type[models.Model], row: Mapping[str, Any], names: Iterable[str]
) -> dict[str, Any]:
    values = {}
    for name in names:
        try:
            values[name] = decode(model._meta.get_field(name), row[name])
        except ValidationError as error:
            raise damaged(f"{where}, {name}", " ".join(error.messages)) from error
    return values


def check_payload(payload: Mapping[str, Any]) -> Checked:
    expected = {"event", "history", *BY_NAME}
    check_keys("the payload", payload, expected)
    event_row = payload["event"]
    check_keys("the event", event_row, {*EVENT_FIELDS, "directors", HOUSE_RULES})
    event = check_values("the event", Event, event_row, EVENT_FIELDS)
    house_rules = check_house_rules(event, event_row[HOUSE_RULES])
    directors = event_row["directors"]
    if not isinstance(directors, list):
        raise damaged("the event's directors", "not a list")
    check_row_count("the event's directors", directors, MAX_DIRECTORS)
    usernames = {check_username("the event's directors", d) for d in directors} - {None}
    rows: dict[str, list[dict[str, Any]]] = {}
    ids: dict[str, set[int]] = {}
    for section in SECTIONS:
        raw_rows = payload[section.name]
        if not isinstance(raw_rows, list):
            raise damaged(section.name, "not a list")
        check_row_count(section.name, raw_rows, MAX_ROWS[section.name])
        checked = []
        ids[section.name] = set()
        for i, raw in enumerate(raw_rows, start=1):
            where = f"{section.name} row {i}"
            check_keys(where, raw, section.keys)
            values = check_values(where, section.model, raw, section.fields)
            if section.has_ids:
                number = check_number(f"{where}, id", raw["id"])
                if number in ids[section.name]:
                    raise damaged(where, f"id {number} is given twice")
                ids[section.name].add(number)
                values["id"] = number
            for ref, target in section.refs.items():
                nullable = section.model._meta.get_field(ref).null
                number = check_number(f"{where}, {ref}", raw[ref], nullable=nullable)
                if number is not None and number not in ids[target]:
                    raise damaged(f"{where}, {ref}", f"no {target} row has id {number}")
                values[ref] = number
            for user_field in section.users:
                values[user_field] = check_username(f"{where}, {user_field}", raw[user_field])
                usernames.add(values[user_field])
            checked.append(values)
        rows[section.name] = checked
    history_payload = payload["history"]
    check_keys("the history", history_payload, {s.name for s in HISTORY_SECTIONS})
    history: dict[str, list[dict[str, Any]]] = {}
    for section in HISTORY_SECTIONS:
        raw_rows = history_payload[section.name]
        if not isinstance(raw_rows, list):
            raise damaged(f"the history of {section.name}", "not a list")
        bound = MAX_ROWS[section.name] * HISTORY_ROWS_PER_ROW
        check_row_count(f"the history of {section.name}", raw_rows, bound)
        checked = []
        for i, raw in enumerate(raw_rows, start=1):
            values = check_history_row(f"history of {section.name} row {i}", section, raw)
            usernames.update(values[user_field] for user_field in section.users)
            checked.append(values)
        history[section.name] = checked
    return Checked(
        event=event,
        directors=sorted({d for d in directors if d is not None}),
        rows=rows,
        history=history,
        usernames=usernames - {None},
        house_rules=house_rules,
    )


def check_history_row(
    where: str, section: Section, raw: Any, *, extra: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """One history row's values, checked; its references left as numbers (a history row
    may name a row since deleted). `extra`: keys of its own a caller's rows carry."""
    check_keys(where, raw, section.history_keys | extra)
    values = check_values(
        where,
        section.history_model,
        raw,
        [*section.fields, "history_date", "history_change_reason"],
    )
    values["id"] = check_number(f"{where}, id", raw["id"])
    if raw["history_type"] not in ("+", "~", "-"):
        raise damaged(f"{where}, history_type", f"{raw['history_type']!r} is not +, ~ or -")
    values["history_type"] = raw["history_type"]
    for ref in section.refs:
        values[ref] = check_number(f"{where}, {ref}", raw[ref], nullable=True)
    for user_field in section.users:
        values[user_field] = check_username(f"{where}, {user_field}", raw[user_field])
    values["history_user"] = check_username(f"{where}, history_user", raw["history_user"])
    return values


def check_house_rules(event: dict[str, Any], raw: Any) -> dict[str, Any] | None:
    """The custom ruleset's values an event of house rules carries (None for a built-in
    ruleset), and those frozen into it, checked as a ruleset's own values are."""
    custom = event.get("ruleset") == Event.Ruleset.CUSTOM
    if not custom:
        if raw is not None or event.get("frozen_ruleset") is not None:
            raise damaged("the event's house rules", "given for a built-in ruleset")
        return None
    for where, values in (("house rules", raw), ("frozen ruleset", event.get("frozen_ruleset"))):
        if values is None and where == "frozen ruleset":
            continue
        keys = {"slug", "name", *HouseRuleset.VALUE_FIELDS}
        if not isinstance(values, dict) or set(values) != keys:
            raise damaged(f"the event's {where}", "not the values of a custom ruleset")
        problems = check_house(values)
        if problems or not isinstance(values["slug"], str) or not isinstance(values["name"], str):
            why = "; ".join(f"{k}: {v}" for k, v in problems.items()) or "no slug or name"
            raise damaged(f"the event's {where}", why)
        try:
            validate_slug(values["slug"])
        except ValidationError as error:
            raise damaged(f"the event's {where}", "its slug is not a slug") from error
    return raw
