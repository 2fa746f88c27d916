"""Reading a CSV file of players: its text, its columns (named loosely: "Player name",
"Country code"...), each row's name, club, country (an ISO code or an English name),
seed and rating, with every problem in a row noted against its line."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries

from core.entries.names import name_key
from core.errors import InvalidInput
from core.words import listing
from tournaments.models import Player

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


# The form two names are compared in (case and spacing ignored): the same comparison
# the event's lists tell namesakes apart by.
normalise_name = name_key


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
    # Their rating across events (mu - 3 sigma), if rated.
    rating: float | None = None

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


# --- reading the file -------------------------------------------------------------


WINDOWS_1252_NOTICE = gettext_lazy(
    "The file is not UTF-8: it was read as Windows-1252, the encoding Excel on Windows "
    'saves a plain "CSV" in. Check the accented names below; if any looks wrong, save the '
    'file as "CSV UTF-8" and upload it again.'
)


def decode(data: bytes) -> str:
    return decode_with_notice(data)[0]


def decode_with_notice(data: bytes) -> tuple[str, str]:
    """The file's text, and a notice when its encoding had to be guessed ("" when not):
    UTF-8 (with or without the byte-order mark Excel writes before "CSV UTF-8"), else
    Windows-1252 (Excel's plain "CSV" on Windows)."""
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            _("The file is %(size)s bytes; the most one import takes is %(most)s.")
            % {"size": f"{len(data):,}", "most": f"{MAX_BYTES:,}"},
            field=FILE,
        )
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        try:
            return data.decode("cp1252"), str(WINDOWS_1252_NOTICE)
        except UnicodeDecodeError:
            pass
        raise InvalidInput(
            _(
                "The file is not UTF-8 text (byte 0x%(byte)s at position %(position)s cannot "
                'be read), nor Windows-1252. Save it as "CSV UTF-8" and upload it again.'
            )
            % {"byte": f"{data[error.start]:02x}", "position": error.start},
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
        raise InvalidInput(_("The file is not a CSV text file."), field=FILE)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    if not first_line:
        raise InvalidInput(_("The file is empty."), field=FILE)
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
                    _("The file has more than %(most)s players; split it into several files.")
                    % {"most": MAX_ROWS},
                    field=FILE,
                )
    except csv.Error as error:
        raise InvalidInput(
            _("Line %(line)s cannot be read as CSV: %(error)s.")
            % {"line": reader.line_num, "error": error},
            field=FILE,
        ) from error
    assert header is not None
    columns: dict[str, int] = {}
    notices = []
    aliases = {header_key(alias): key for key, names in COLUMNS.items() for alias in names}
    for index, title in enumerate(header):
        key = aliases.get(header_key(title))
        if key is None:
            if title.strip():
                notices.append(
                    _("The column %(column)s is not used.") % {"column": repr(title.strip())}
                )
            continue
        if key in columns:
            raise InvalidInput(
                _("Two columns are headed %(column)s; keep one and upload the file again.")
                % {"column": repr(key)},
                field=FILE,
            )
        columns[key] = index
    if "name" not in columns:
        found = listing(repr(t.strip()) for t in header if t.strip()) or _("nothing")
        raise InvalidInput(
            _(
                "The first line must name the columns, one of them 'name' (then 'club', "
                "'country', and 'seed' or 'rating' if you have them); it has %(found)s."
            )
            % {"found": found},
            field=FILE,
        )
    if not rows:
        raise InvalidInput(_("The file has a header but no players."), field=FILE)
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
            _(
                "Row %(line)s has %(count)s values but the header names %(width)s columns; "
                "is there a comma in a name that needs quotes?"
            )
            % {"line": line, "count": len(values), "width": width}
        )
    if not row.name:
        row.errors.append(_("Row %(line)s: the name is missing.") % {"line": line})
    elif len(row.name) > NAME_MAX:
        row.errors.append(
            _("Row %(line)s: the name is longer than %(most)s characters.")
            % {"line": line, "most": NAME_MAX}
        )
    row.club = " ".join(cell("club").split())
    if len(row.club) > CLUB_MAX:
        row.errors.append(
            _("Row %(line)s: the club is longer than %(most)s characters.")
            % {"line": line, "most": CLUB_MAX}
        )
    row.raw_country = cell("country")
    country = resolve_country(row.raw_country)
    if country is None:
        row.errors.append(
            _(
                "Row %(line)s: %(country)s is not a country; give its ISO code (e.g. JM) or "
                "its English name (e.g. Jamaica)."
            )
            % {"line": line, "country": repr(row.raw_country)}
        )
    else:
        row.country = country
    raw_seed = cell("seed")
    if raw_seed:
        row.seed = whole_number(raw_seed, low=1, high=MAX_SEED)
        if row.seed is None:
            row.errors.append(
                _("Row %(line)s: the seed %(seed)s is not a whole number from 1 to %(most)s.")
                % {"line": line, "seed": repr(raw_seed), "most": MAX_SEED}
            )
    raw_rating = cell("rating")
    if raw_rating:
        row.rating = whole_number(raw_rating, low=0, high=MAX_RATING)
        if row.rating is None:
            row.errors.append(
                _("Row %(line)s: the rating %(rating)s is not a whole number from 0 to %(most)s.")
                % {"line": line, "rating": repr(raw_rating), "most": MAX_RATING}
            )
    return row
