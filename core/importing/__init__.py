"""Importing players from a CSV file into an event: read, preview, apply.

The director uploads a file of players (name, club, country; optionally a seed or a
rating). `preview_import` reads it and checks every row against the file itself and
the database without writing anything: per-row errors, players already in the
registry offered for merging, players already entered. `apply_import` reads the same
file again (the database may have changed since the preview), takes the director's
choice for each duplicate, and writes everything in one transaction through
`core.services.register_entry`, or nothing at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.entries.services import create_player, register_entry
from core.errors import InvalidInput, ServiceError
from core.events.access import User
from core.events.selectors import visible_players
from core.importing.reading import (
    FILE,
    MAX_BYTES,
    NEW,
    Candidate,
    Row,
    decode_with_notice,
    normalise_name,
    parse_row,
    read_rows,
)
from core.words import listing
from tournaments.models import Entry, Event, Player

__all__ = ["MAX_BYTES", "NEW", "apply_import", "build_preview", "parse_choice", "preview_import"]


@dataclass
class Preview:
    """What an import would do; nothing has been written."""

    event: Event
    rows: list[Row] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and not any(row.errors for row in self.rows)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(1 for row in self.rows if row.errors)

    @property
    def duplicates(self) -> list[Row]:
        return [row for row in self.rows if row.candidates]

    def error_dict(self) -> dict[str, list[str]]:
        """The errors in the shape `InvalidInput` carries: by row, and the file's own."""
        found: dict[str, list[str]] = {}
        if self.errors:
            found[FILE] = list(self.errors)
        for row in self.rows:
            if row.errors:
                found[f"row {row.line}"] = list(row.errors)
        return found


@dataclass
class ImportResult:
    created: list[Player] = field(default_factory=list)
    merged: list[Player] = field(default_factory=list)
    entered: list[Entry] = field(default_factory=list)
    already_entered: list[Player] = field(default_factory=list)

    def summary(self) -> str:
        parts = [
            ngettext("%(count)s entered", "%(count)s entered", len(self.entered))
            % {"count": len(self.entered)},
            ngettext("%(count)s new players", "%(count)s new players", len(self.created))
            % {"count": len(self.created)},
            ngettext(
                "%(count)s merged with existing players",
                "%(count)s merged with existing players",
                len(self.merged),
            )
            % {"count": len(self.merged)},
        ]
        if self.already_entered:
            count = len(self.already_entered)
            parts.append(
                ngettext("%(count)s already entered", "%(count)s already entered", count)
                % {"count": count}
            )
        return listing(parts)


# --- checking the rows against the file and the database ---------------------------


def same_or_blank(a: str, b: str) -> bool:
    return not a or not b or a.casefold() == b.casefold()


def find_candidates(event: Event, rows: list[Row], viewer: User | None = None) -> None:
    """Attach the registry's players of the same name to each row, among those `viewer`
    may see (everyone for an operator at the command line): 2 queries."""
    names = {normalise_name(row.name) for row in rows if row.name}
    if not names:
        return
    # Lower() in SQL, then the exact comparison (casefold, spacing) in Python.
    lowered = {n.lower() for n in names} | {row.name.lower() for row in rows if row.name}
    registry = Player.objects.all() if viewer is None else visible_players(viewer)
    namesakes = registry.annotate(lname=Lower("name"), skill_rating=F("skill__rating")).filter(
        lname__in=lowered
    )
    found: dict[str, list[Player]] = {}
    for player in namesakes.order_by("id"):
        found.setdefault(normalise_name(player.name), []).append(player)
    entries = {
        player_id: (status, seed)
        for player_id, status, seed in Entry.objects.filter(
            event=event, player__in=namesakes.values("pk")
        ).values_list("player_id", "status", "seed_number")
    }
    for row in rows:
        for player in found.get(normalise_name(row.name), []):
            status, seed = entries.get(player.pk, (None, None))
            row.candidates.append(
                Candidate(
                    id=player.pk,
                    name=player.name,
                    club=player.club,
                    country=str(player.country or ""),
                    entry=status,
                    seed=seed,
                    rating=player.skill_rating,
                    close=same_or_blank(row.club, player.club)
                    and same_or_blank(row.country, str(player.country or "")),
                )
            )
        # The closest first: an entered player, then same club and country, then oldest.
        row.candidates.sort(key=lambda c: (c.entry is None, not c.close, c.id))


def suggest(row: Row, taken: Mapping[int, int] | None = None) -> None:
    """What happens to the row without a choice: merged with the closest registered
    namesake no earlier row of the file takes (`taken`: player id -> row), else new."""
    taken = taken or {}
    best = next((c for c in row.candidates if c.id not in taken), None)
    if best is None or not (best.close or best.entry):
        row.suggested = NEW
        if row.candidates:
            row.notices.append(
                _(
                    "A player called %(name)s is already registered with another club or "
                    "country: merge if it is the same person."
                )
                % {"name": row.name}
            )
        return
    row.suggested = best.id
    describe_choice(row, best)


def describe_choice(row: Row, chosen: Candidate | None) -> None:
    if chosen is None:
        return
    if chosen.entry == Entry.Status.ACTIVE:
        row.notices.append(
            _("%(name)s is already entered in this event; nothing changes.") % {"name": chosen.name}
        )
    elif chosen.entry == Entry.Status.WITHDRAWN:
        row.notices.append(
            _("%(name)s had withdrawn from this event and will be active again.")
            % {"name": chosen.name}
        )


def same_person(a: Row, b: Row) -> bool:
    """Two rows of one name that say nothing else apart either: the same club, country
    and rating (a seed is where the event puts a player, not who they are)."""
    return (
        normalise_name(a.club) == normalise_name(b.club)
        and (a.country or a.raw_country.casefold()) == (b.country or b.raw_country.casefold())
        and a.rating == b.rating
    )


def check_file_duplicates(rows: list[Row]) -> None:
    """A row repeating an earlier one (same name, club, country and rating) is an error;
    two people of one name, told apart by another club (or country, or rating), are
    both imported, and every list of the event tells them apart (`core.entries.names`)."""
    namesakes: dict[str, list[Row]] = {}
    seeds: dict[int, int] = {}
    for row in rows:
        key = normalise_name(row.name)
        if key:
            earlier = namesakes.setdefault(key, [])
            twin = next((other for other in earlier if same_person(other, row)), None)
            if twin is not None:
                row.errors.append(
                    _(
                        "Row %(line)s: %(name)s is already on row %(twin)s, with the same club, "
                        "country and rating; remove one. If they are two people, tell them apart "
                        "in the file (a club, a country or a rating, or Sr./Jr. in the name)."
                    )
                    % {"line": row.line, "name": row.name, "twin": twin.line}
                )
            elif earlier:
                lines = listing(other.line for other in earlier)
                if any(normalise_name(o.club) == normalise_name(row.club) for o in earlier):
                    notice = _(
                        "Another %(name)s is on row %(lines)s: both are entered as two players, "
                        "told apart on the event's lists by their club and a number."
                    )
                else:
                    notice = _(
                        "Another %(name)s is on row %(lines)s: both are entered as two players, "
                        "told apart on the event's lists by their club."
                    )
                row.notices.append(notice % {"name": row.name, "lines": lines})
            earlier.append(row)
        if row.seed is not None:
            if row.seed in seeds:
                row.errors.append(
                    _("Row %(line)s: seed %(seed)s is also given on row %(other)s.")
                    % {"line": row.line, "seed": row.seed, "other": seeds[row.seed]}
                )
            else:
                seeds.setdefault(row.seed, row.line)


def check_seeds_taken(event: Event, rows: list[Row], choices: Mapping[int, str | int]) -> None:
    """A seed held by another player's entry in the event cannot be given again: 1 query."""
    wanted = {row.seed for row in rows if row.seed is not None}
    if not wanted:
        return
    taken = {
        seed: (player_id, name)
        for seed, player_id, name in Entry.objects.filter(
            event=event, seed_number__in=wanted
        ).values_list("seed_number", "player_id", "player__name")
    }
    for row in rows:
        if row.seed not in taken:
            continue
        holder, name = taken[row.seed]
        if choices.get(row.line, row.suggested) != holder:
            row.errors.append(
                _("Row %(line)s: seed %(seed)s is already taken by %(name)s.")
                % {"line": row.line, "seed": row.seed, "name": name}
            )


def build_preview(
    *,
    event: Event,
    data: bytes,
    choices: Mapping[int, str | int] | None = None,
    viewer: User | None = None,
) -> Preview:
    preview = Preview(event=event)
    try:
        text, guessed = decode_with_notice(data)
        columns, raw_rows, notices = read_rows(text)
    except InvalidInput as error:
        preview.errors = [m for msgs in error.errors.values() for m in msgs]
        return preview
    preview.notices = [guessed, *notices] if guessed else notices
    if event.status == Event.Status.FINISHED:
        preview.errors.append(_("The event is finished; no more players can enter."))
    width = max(columns.values()) + 1
    preview.rows = [parse_row(line, values, columns, width) for line, values in raw_rows]
    check_file_duplicates(preview.rows)
    find_candidates(event, preview.rows, viewer)
    choices = choices or {}
    taken: dict[int, int] = {}  # a registered player -> the row merged with them
    for row in preview.rows:
        if row.line in choices:
            choose(row, choices[row.line])
        else:
            suggest(row, taken)
        if row.suggested == NEW:
            continue
        if row.suggested in taken:
            chosen = row.candidate(row.suggested)
            row.errors.append(
                _(
                    "Row %(line)s: %(name)s (#%(player)s) is already merged with row "
                    "%(other)s; one registered player is one person: choose a different "
                    "person for one row."
                )
                % {
                    "line": row.line,
                    "name": chosen.name if chosen else _("that player"),
                    "player": row.suggested,
                    "other": taken[row.suggested],
                }
            )
        else:
            taken[row.suggested] = row.line
    check_seeds_taken(event, preview.rows, choices)
    return preview


def choose(row: Row, choice: str | int) -> None:
    if choice == NEW:
        row.suggested = NEW
        return
    chosen = row.candidate(choice) if isinstance(choice, int) else None
    if chosen is None:
        row.errors.append(
            _(
                "Row %(line)s: player %(player)s is not one of the registered players "
                "called %(name)s."
            )
            % {"line": row.line, "player": choice, "name": row.name}
        )
        return
    row.suggested = chosen.id
    describe_choice(row, chosen)


def preview_import(*, event: Event, data: bytes, viewer: User | None = None) -> Preview:
    """What importing `data` into `event` would do. Writes nothing: 3 queries."""
    return build_preview(event=event, data=data, viewer=viewer)


def parse_choice(value: object) -> str | int:
    """A choice as a form or the command line gives it: 'new' or a player id."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text == NEW:
        return NEW
    if text.isdigit():
        return int(text)
    raise InvalidInput(
        _("%(value)s is neither 'new' nor a player id.") % {"value": repr(value)}, field="choices"
    )


@transaction.atomic
def apply_import(
    *,
    event: Event,
    data: bytes,
    choices: Mapping[int, str | int] | None = None,
    by: AbstractBaseUser | None = None,
) -> ImportResult:
    """Import the file: create the new players and enter everyone in the event.

    `choices` maps a row's line to NEW or the id of the registered player it is
    (merging: that player is entered, nothing about them changes); rows without a
    choice take the suggestion the preview showed. One transaction: any error and
    nothing is written.
    """
    preview = build_preview(event=event, data=data, choices=choices, viewer=by)
    if not preview.ok:
        raise InvalidInput(preview.error_dict())
    result = ImportResult()
    for row in preview.rows:
        if row.suggested == NEW:
            player = create_player(
                name=row.name, club=row.club, country=row.country, rating=row.rating, by=by
            )
            result.created.append(player)
        else:
            player = Player.objects.get(pk=row.suggested)
            candidate = row.candidate(player.pk)
            if candidate is not None and candidate.entry == Entry.Status.ACTIVE:
                result.already_entered.append(player)
                continue
            result.merged.append(player)
        try:
            entry = register_entry(event=event, player=player, seed_number=row.seed, by=by)
        except ServiceError as error:
            messages = [
                _("Row %(line)s: %(message)s") % {"line": row.line, "message": m}
                for msgs in error.errors.values()
                for m in msgs
            ]
            raise InvalidInput({f"row {row.line}": messages}) from error
        result.entered.append(entry)
    return result
