"""Moving a whole event between installations as one JSON document.

    {"format": "kalooki-event", "version": 2, "checksum": "<sha256>", "payload": {...}}

The payload holds the event and every row that belongs to it: its players, entries,
rounds, tables, seats, players' codes, hands (every attempt), hand scores, penalties,
players' entries of hands (proposals), standings, round clocks, announcements (removed
ones too), and the history rows of the models that keep history. Rows refer to each
other by numbers
local to the archive (1, 2, 3... in the order of the source ids), never by database
ids; users are named by username. The checksum is the SHA-256 of the payload in
canonical JSON (sorted keys, no spaces, UTF-8), so a damaged or edited file is refused.

This module is the format both sides share: its name and version, the sections and
their fields, how values are written, the checksum. Building an archive lives in
core.archive.export, reading and checking one in core.archive.reading, importing it in
core.archive.importer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timezone as dt_timezone
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from core.common import text_problem
from core.events.services import EVENT_FIELDS as EVENT_SETTINGS
from scoring.models import (
    STANDING_FIGURES,
    AdjustedScore,
    Hand,
    HandScore,
    Penalty,
    Proposal,
    Standing,
)
from tournaments.models import (
    Announcement,
    Entry,
    Player,
    PlayerCode,
    Round,
    RoundClock,
    Seat,
    Table,
)

FORMAT = "kalooki-event"
# 2: the event's agreed rules (over-call penalty, Trinidad doubling, penalty amounts
# per hand), its table_entry and clock settings, a table's end when too few players
# were left, incomplete sets in the standings, the rounds' history, the players' codes
# and their entries (proposals), the round clocks and announcements. A version 1
# archive is upgraded as it is read.
# 3: the event's prizes and prize-tie policy, and its house rules (the custom ruleset's
# values as "house_rules", and those frozen into the event). Versions 1 and 2 are
# upgraded: no prizes, the draw decides ties, a built-in ruleset.
# 4: the event's identity ("uid"), the same wherever the event goes, so that a site
# holding the event already replaces it or keeps a copy apart (never counted twice).
# Older versions are upgraded: the identity derived from the event's creation time and
# draw seed, as the event itself was given one (`game.identity.derived_uid`).
VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)
HISTORY_FIELDS = ("history_date", "history_type", "history_change_reason", "history_user")


class ArchiveError(Exception):
    """The archive cannot be imported (or the event exported); nothing was written."""


@dataclass(frozen=True)
class Section:
    """How one model's rows are written in the archive."""

    name: str
    model: type[models.Model]
    # Plain values, by field name.
    fields: tuple[str, ...]
    # Foreign keys to rows of the archive: field name -> section name.
    refs: Mapping[str, str] = field(default_factory=dict)
    # Foreign keys to users, written as usernames.
    users: tuple[str, ...] = ()
    # Rows of this section carry an "id" other rows (or history rows) refer to.
    has_ids: bool = True
    history: bool = False

    @property
    def keys(self) -> set[str]:
        return (
            ({"id"} if self.has_ids else set())
            | set(self.fields)
            | set(self.refs)
            | set(self.users)
        )

    @property
    def history_keys(self) -> set[str]:
        return {"id"} | set(self.fields) | set(self.refs) | set(self.users) | set(HISTORY_FIELDS)

    @property
    def history_model(self) -> type[models.Model]:
        return self.model.history.model


# Every setting a director can give, and what the site keeps about the event besides.
EVENT_FIELDS = (
    *EVENT_SETTINGS,
    "prizes",
    "prize_currency",
    "prize_ties",
    "frozen_ruleset",
    "draw_seed",
    "uid",
    "check_in",
    "club_avoidance",
    "language",
    "results_changed_at",
    "results_changed_round",
    "results_changed_reason",
    "standings_version",
    "screen_version",
    "created_at",
    "updated_at",
)
# The event's links to rows outside it: its custom ruleset travels as its values (the
# event's "house_rules"); which series it is a leg of does not travel (a series is the
# importing site's to make).
EVENT_LINKS = ("custom_ruleset", "series")
# What the site keeps about the event for its series (the places a series last counted
# from it): the series' own, so it does not travel either; nor whether it counts in the
# ratings and series here (a copy kept beside the event it copies does not), which is
# this site's to say.
EVENT_LOCAL = ("series_places", "counted")
HOUSE_RULES = "house_rules"
# The event itself is implicit in these models' "event" field.
IMPLICIT_EVENT = {"entries", "rounds", "standings", "announcements"}

PLAYERS = Section("players", Player, ("name", "club", "country", "rating", "created_at"))
SECTIONS = (
    PLAYERS,
    Section(
        "entries",
        Entry,
        (
            "status",
            "seed_number",
            "carried_points",
            "registered_at",
            "withdrawn_at",
            "checked_in",
        ),
        refs={"player": "players"},
        history=True,
    ),
    Section(
        "rounds",
        Round,
        (
            "number",
            "status",
            "policy",
            "seed",
            "quality",
            "forced_close",
            "published_at",
            "closed_at",
            "adjusted_at",
        ),
        history=True,
    ),
    Section(
        "tables",
        Table,
        ("number", "locked", "closed_after_hand"),
        refs={"round": "rounds"},
        history=True,
    ),
    Section(
        "seats",
        Seat,
        ("position", "first_dealer", "left_after_hand", "at_fault"),
        refs={"table": "tables", "round": "rounds", "entry": "entries"},
        history=True,
    ),
    Section(
        "codes", PlayerCode, ("code", "created_at"), refs={"round": "rounds", "entry": "entries"}
    ),
    Section(
        "hands",
        Hand,
        (
            "number",
            "attempt",
            "contract",
            "cards_dealt",
            "outcome",
            "down_and_out",
            "version",
            "recorded_at",
        ),
        refs={"table": "tables", "went_out": "seats"},
        users=("recorded_by",),
        history=True,
    ),
    Section(
        "hand_scores",
        HandScore,
        ("card_points", "cards", "penalty_points", "score", "sat_out"),
        refs={"hand": "hands", "seat": "seats"},
        history=True,
    ),
    Section(
        "adjusted_scores",
        AdjustedScore,
        ("number", "score", "at_fault", "rule"),
        refs={"seat": "seats"},
        has_ids=False,
    ),
    Section(
        "penalties",
        Penalty,
        ("kind", "points", "extra_calls"),
        refs={"hand": "hands", "seat": "seats"},
        history=True,
    ),
    Section(
        "proposals",
        Proposal,
        (
            "number",
            "state",
            "entry",
            "base_version",
            "entered_seat",
            "confirmed_seat",
            "disputed_seat",
            "alternative",
            "version",
            "created_at",
            "updated_at",
        ),
        refs={
            "table": "tables",
            "entered_by": "entries",
            "confirmed_by": "entries",
            "disputed_by": "entries",
        },
        history=True,
    ),
    Section(
        "standings",
        Standing,
        (
            "rank",
            *STANDING_FIGURES,
            "status",
            "movement",
            "tiebreaks",
            "incomplete",
            "adjusted",
            "filled_in",
        ),
        refs={"round": "rounds", "entry": "entries"},
        has_ids=False,
    ),
    Section(
        "clocks",
        RoundClock,
        ("minutes", "ends_at", "paused_at", "table_extra_s", "updated_at"),
        refs={"round": "rounds"},
        history=True,
    ),
    Section(
        "announcements",
        Announcement,
        ("text", "posted_at", "removed_at"),
        users=("posted_by", "removed_by"),
    ),
)
BY_NAME = {section.name: section for section in SECTIONS}
# The most rows of each section an archive may carry, far beyond any real event (a
# 1,024-player event of 10 rounds has 2,560 tables, about 23,000 hands and 92,000 hand
# scores), so that a hostile archive cannot fill the database or the pages that list
# them (README, "Moving an event between installations"). A section's history may hold
# HISTORY_ROWS_PER_ROW times as many rows.
MAX_ROWS = {
    "players": 10_000,
    "entries": 10_000,
    "rounds": 100,
    "tables": 25_000,
    "seats": 125_000,
    "codes": 125_000,
    "hands": 500_000,
    "hand_scores": 2_500_000,
    "adjusted_scores": 1_000_000,
    "penalties": 500_000,
    "proposals": 500_000,
    "standings": 1_000_000,
    "clocks": 100,
    "announcements": 2_000,
}
HISTORY_ROWS_PER_ROW = 10
MAX_DIRECTORS = 100
HISTORY_SECTIONS = tuple(s for s in SECTIONS if s.history)


# --- values --------------------------------------------------------------------------


def encode(model_field: models.Field, value: Any) -> Any:
    """A field's value as JSON, the same whichever database it was read from."""
    if value is None:
        return None
    if isinstance(model_field, models.DateTimeField):
        return value.astimezone(dt_timezone.utc).isoformat()
    if isinstance(model_field, models.DateField):
        return value.isoformat()
    if isinstance(model_field, models.DecimalField):
        return f"{value:.{model_field.decimal_places}f}"
    if isinstance(model_field, models.JSONField):
        return value
    if isinstance(value, bool | int | float | str):
        return value
    return str(value)  # a country


def decode(model_field: models.Field, value: Any) -> Any:
    """A value from the archive, checked as the model would check it."""
    if value is None and model_field.null:
        return None
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            raise ValidationError(problem)
    if isinstance(model_field, models.JSONField):
        if value is None and not model_field.null:
            raise ValidationError(_("This field cannot be null."))
        return value
    if isinstance(model_field, models.IntegerField) and not (
        value is None or (isinstance(value, int) and not isinstance(value, bool))
    ):
        raise ValidationError(_("%(value)s is not a whole number.") % {"value": repr(value)})
    if isinstance(model_field, models.BooleanField) and not isinstance(value, bool):
        raise ValidationError(_("%(value)s is not true or false.") % {"value": repr(value)})
    return model_field.clean(value, None)


def canonical(payload: Any) -> bytes:
    return json.dumps(
        payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def checksum(payload: Any) -> str:
    return hashlib.sha256(canonical(payload)).hexdigest()


def renumber_quality(quality: Any, numbers: Mapping[int, int | None]) -> Any:
    """A round's quality report names pairs of entries by id: carry them across (the
    repeat meetings' pairs, and with club avoidance the clubmates' pairs)."""
    if not isinstance(quality, dict):
        return quality
    renumbered = dict(quality)
    for key in ("repeat_pairs", "club_pairs"):
        if not isinstance(quality.get(key), list):
            continue
        pairs = []
        for pair in quality[key]:
            if isinstance(pair, list):
                pair = [numbers.get(x) if isinstance(x, int) else x for x in pair]
            pairs.append(pair)
        renumbered[key] = pairs
    return renumbered


def dumps(document: Mapping[str, Any]) -> str:
    """The archive as text: ASCII only (names are escaped), so redirecting a command's
    output to a file works whatever the console's encoding."""
    return json.dumps(document, ensure_ascii=True, indent=1, sort_keys=True) + "\n"
