"""Importing players from a CSV file into an event: read, preview, apply.

The director uploads a file of players (name, club, country; optionally a seed or a
rating). `preview_import` reads it and checks every row against the file itself and
the database without writing anything: per-row errors, players already in the
registry offered for merging, players already entered. `apply_import` reads the same
file again (the database may have changed since the preview), takes the director's
choice for each duplicate, and writes everything in one transaction through
`tournaments.services.register_entry`, or nothing at all.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models.functions import Lower
from django_countries import countries

from tournaments.errors import InvalidInput, ServiceError
from tournaments.models import Entry, Event, Player
from tournaments.services import full_clean_or_raise, register_entry

MAX_BYTES = 1_000_000
MAX_ROWS = 2000
MAX_SEED = 100_000
MAX_RATING = 100_000
NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Player._meta.get_field("club").max_length

NEW = "new"
FILE = "file"

# Header names, compared case-insensitively with spaces, dashes and underscores alike.
COLUMNS = {
    "name": ("name", "player", "player name", "full name"),
    "club": ("club", "club name", "team"),
    "country": ("country", "country code", "nation"),
    "seed": ("seed", "seed number", "seeding"),
    "rating": ("rating", "elo"),
}
# Common ways of writing a country that are not its ISO English name.
COUNTRY_ALIASES = {
    "usa": "US",
    "united states": "US",
    "america": "US",
    "uk": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "t and t": "TT",
    "trinidad": "TT",
    "holland": "NL",
}


def normalise_name(name: str) -> str:
    """The form two names are compared in: case and spacing ignored."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def header_key(text: str) -> str:
    return " ".join(re.sub(r"[_\-.]+", " ", text).split()).casefold()


def resolve_country(value: str) -> str | None:
    """The ISO code for an ISO code (JM, JAM) or an English name (Jamaica); '' for
    blank; None when it is not a country."""
    text = " ".join(value.split())
    if not text:
        return ""
    if len(text) in (2, 3) and text.isalpha():
        code = countries.alpha2(text)
        if code:
            return code
    key = text.casefold().replace("&", " and ").replace(".", " ")
    key = " ".join(key.split())
    if key in COUNTRY_ALIASES:
        return COUNTRY_ALIASES[key]
    key = re.sub(r"^st ", "saint ", key)
    code = countries.by_name(key)
    return code or None


@dataclass
class Candidate:
    """A player in the registry with the same name as a row of the file."""

    id: int
    name: str
    club: str
    country: str
    # This player's entry in the event, if any: "active" or "withdrawn".
    entry: str | None = None
    seed: int | None = None
    # Same club and country as the row (or one side leaves them blank).
    close: bool = False

    @property
    def country_name(self) -> str:
        return countries.name(self.country) if self.country else ""


@dataclass
class Row:
    line: int
    name: str
    club: str = ""
    country: str = ""
    seed: int | None = None
    rating: int | None = None
    raw_country: str = ""
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    # What happens without a choice: NEW, or the id of the candidate to merge with.
    suggested: str | int = NEW

    @property
    def country_name(self) -> str:
        return countries.name(self.country) if self.country else ""

    def candidate(self, player_id: int) -> Candidate | None:
        return next((c for c in self.candidates if c.id == player_id), None)


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
            f"{len(self.entered)} entered",
            f"{len(self.created)} new players",
            f"{len(self.merged)} merged with existing players",
        ]
        if self.already_entered:
            parts.append(f"{len(self.already_entered)} already entered")
        return ", ".join(parts)


# --- reading the file -------------------------------------------------------------


def decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            f"The file is {len(data):,} bytes; the most one import takes is {MAX_BYTES:,}.",
            field=FILE,
        )
    try:
        # utf-8-sig drops the byte-order mark Excel writes at the start of "CSV UTF-8".
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidInput(
            f"The file is not UTF-8 text (byte 0x{data[error.start]:02x} at position "
            f'{error.start} cannot be read). Save it as "CSV UTF-8" and upload it again.',
            field=FILE,
        ) from error


def delimiter_of(header_line: str) -> str:
    """Comma unless the header clearly uses semicolons (European Excel) or tabs."""
    counts = {d: header_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def read_rows(text: str) -> tuple[dict[str, int], list[tuple[int, list[str]]], list[str]]:
    """The column index of each known column, the data rows with their line numbers,
    and notices about ignored columns. Raises InvalidInput for a file it cannot use."""
    if "\x00" in text:
        raise InvalidInput("The file is not a CSV text file.", field=FILE)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    if not first_line:
        raise InvalidInput("The file is empty.", field=FILE)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(first_line))
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    try:
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if header is None:
                header = values
                continue
            rows.append((reader.line_num, values))
            if len(rows) > MAX_ROWS:
                raise InvalidInput(
                    f"The file has more than {MAX_ROWS} players; split it into several files.",
                    field=FILE,
                )
    except csv.Error as error:
        raise InvalidInput(
            f"Line {reader.line_num} cannot be read as CSV: {error}.", field=FILE
        ) from error
    assert header is not None
    columns: dict[str, int] = {}
    notices = []
    aliases = {header_key(alias): key for key, names in COLUMNS.items() for alias in names}
    for index, title in enumerate(header):
        key = aliases.get(header_key(title))
        if key is None:
            if title.strip():
                notices.append(f"The column {title.strip()!r} is not used.")
            continue
        if key in columns:
            raise InvalidInput(
                f"Two columns are headed {key!r}; keep one and upload the file again.",
                field=FILE,
            )
        columns[key] = index
    if "name" not in columns:
        found = ", ".join(repr(t.strip()) for t in header if t.strip()) or "nothing"
        raise InvalidInput(
            "The first line must name the columns, one of them 'name' "
            f"(then 'club', 'country', and 'seed' or 'rating' if you have them); it has {found}.",
            field=FILE,
        )
    if not rows:
        raise InvalidInput("The file has a header but no players.", field=FILE)
    return columns, rows, notices


def whole_number(text: str, *, low: int, high: int) -> int | None:
    text = text.strip().replace(",", "")
    if re.fullmatch(r"[+-]?\d+(\.0+)?", text) is None:
        return None
    value = int(float(text)) if "." in text else int(text)
    return value if low <= value <= high else None


def parse_row(line: int, values: list[str], columns: Mapping[str, int], width: int) -> Row:
    def cell(key: str) -> str:
        index = columns.get(key)
        if index is None or index >= len(values):
            return ""
        return values[index].strip()

    row = Row(line=line, name=" ".join(cell("name").split()))
    if len(values) > width and any(v.strip() for v in values[width:]):
        row.errors.append(
            f"Row {line} has {len(values)} values but the header names {width} columns; "
            "is there a comma in a name that needs quotes?"
        )
    if not row.name:
        row.errors.append(f"Row {line}: the name is missing.")
    elif len(row.name) > NAME_MAX:
        row.errors.append(f"Row {line}: the name is longer than {NAME_MAX} characters.")
    row.club = " ".join(cell("club").split())
    if len(row.club) > CLUB_MAX:
        row.errors.append(f"Row {line}: the club is longer than {CLUB_MAX} characters.")
    row.raw_country = cell("country")
    country = resolve_country(row.raw_country)
    if country is None:
        row.errors.append(
            f"Row {line}: {row.raw_country!r} is not a country; give its ISO code "
            "(e.g. JM) or its English name (e.g. Jamaica)."
        )
    else:
        row.country = country
    raw_seed = cell("seed")
    if raw_seed:
        row.seed = whole_number(raw_seed, low=1, high=MAX_SEED)
        if row.seed is None:
            row.errors.append(
                f"Row {line}: the seed {raw_seed!r} is not a whole number from 1 to {MAX_SEED}."
            )
    raw_rating = cell("rating")
    if raw_rating:
        row.rating = whole_number(raw_rating, low=0, high=MAX_RATING)
        if row.rating is None:
            row.errors.append(
                f"Row {line}: the rating {raw_rating!r} is not a whole number "
                f"from 0 to {MAX_RATING}."
            )
    return row


# --- checking the rows against the file and the database ---------------------------


def same_or_blank(a: str, b: str) -> bool:
    return not a or not b or a.casefold() == b.casefold()


def find_candidates(event: Event, rows: list[Row]) -> None:
    """Attach the registry's players of the same name to each row: 2 queries."""
    names = {normalise_name(row.name) for row in rows if row.name}
    if not names:
        return
    # Lower() in SQL, then the exact comparison (casefold, spacing) in Python.
    lowered = {n.lower() for n in names} | {row.name.lower() for row in rows if row.name}
    namesakes = Player.objects.annotate(lname=Lower("name")).filter(lname__in=lowered)
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
                    close=same_or_blank(row.club, player.club)
                    and same_or_blank(row.country, str(player.country or "")),
                )
            )
        # The closest first: an entered player, then same club and country, then oldest.
        row.candidates.sort(key=lambda c: (c.entry is None, not c.close, c.id))


def suggest(row: Row) -> None:
    best = row.candidates[0] if row.candidates else None
    if best is None or not (best.close or best.entry):
        row.suggested = NEW
        if row.candidates:
            row.notices.append(
                f"A player called {row.name} is already registered with another club "
                "or country: merge if it is the same person."
            )
        return
    row.suggested = best.id
    describe_choice(row, best)


def describe_choice(row: Row, chosen: Candidate | None) -> None:
    if chosen is None:
        return
    if chosen.entry == Entry.Status.ACTIVE:
        row.notices.append(f"{chosen.name} is already entered in this event; nothing changes.")
    elif chosen.entry == Entry.Status.WITHDRAWN:
        row.notices.append(f"{chosen.name} had withdrawn from this event and will be active again.")


def check_file_duplicates(rows: list[Row]) -> None:
    first_line: dict[str, int] = {}
    seeds: dict[int, int] = {}
    for row in rows:
        key = normalise_name(row.name)
        if key:
            if key in first_line:
                row.errors.append(
                    f"Row {row.line}: {row.name} is already on row {first_line[key]}; "
                    "remove one (or tell two people apart in their names)."
                )
            else:
                first_line[key] = row.line
        if row.seed is not None:
            if row.seed in seeds:
                row.errors.append(
                    f"Row {row.line}: seed {row.seed} is also given on row {seeds[row.seed]}."
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
            row.errors.append(f"Row {row.line}: seed {row.seed} is already taken by {name}.")


def build_preview(
    *, event: Event, data: bytes, choices: Mapping[int, str | int] | None = None
) -> Preview:
    preview = Preview(event=event)
    try:
        columns, raw_rows, notices = read_rows(decode(data))
    except InvalidInput as error:
        preview.errors = [m for msgs in error.errors.values() for m in msgs]
        return preview
    preview.notices = notices
    if event.status == Event.Status.FINISHED:
        preview.errors.append("The event is finished; no more players can enter.")
    width = max(columns.values()) + 1
    preview.rows = [parse_row(line, values, columns, width) for line, values in raw_rows]
    check_file_duplicates(preview.rows)
    find_candidates(event, preview.rows)
    choices = choices or {}
    for row in preview.rows:
        if row.line in choices:
            choose(row, choices[row.line])
        else:
            suggest(row)
    check_seeds_taken(event, preview.rows, choices)
    return preview


def choose(row: Row, choice: str | int) -> None:
    if choice == NEW:
        row.suggested = NEW
        return
    chosen = row.candidate(choice) if isinstance(choice, int) else None
    if chosen is None:
        row.errors.append(
            f"Row {row.line}: player {choice} is not one of the registered players "
            f"called {row.name}."
        )
        return
    row.suggested = chosen.id
    describe_choice(row, chosen)


def preview_import(*, event: Event, data: bytes) -> Preview:
    """What importing `data` into `event` would do. Writes nothing: 3 queries."""
    return build_preview(event=event, data=data)


def parse_choice(value: object) -> str | int:
    """A choice as a form or the command line gives it: 'new' or a player id."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text == NEW:
        return NEW
    if text.isdigit():
        return int(text)
    raise InvalidInput(f"{value!r} is neither 'new' nor a player id.", field="choices")


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
    preview = build_preview(event=event, data=data, choices=choices)
    if not preview.ok:
        raise InvalidInput(preview.error_dict())
    result = ImportResult()
    for row in preview.rows:
        if row.suggested == NEW:
            player = Player(name=row.name, club=row.club, country=row.country, rating=row.rating)
            full_clean_or_raise(player)
            player.save()
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
            messages = [f"Row {row.line}: {m}" for msgs in error.errors.values() for m in msgs]
            raise InvalidInput({f"row {row.line}": messages}) from error
        result.entered.append(entry)
    return result
