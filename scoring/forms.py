"""A hand row of the director's table sheet: what was typed, read as the rules engine's
entry, and the engine's verdict put in the words of someone holding the paper sheet.

No rule of the game is checked here: every value goes to `scoring.rules` as typed
(a seat's box holds points or cards), and only the wording of its answers changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import BadRequest

from scoring import rules

# A seat's box: "23" is points; anything else ("JK AS 10H") is the cards held. A dash,
# as on the paper sheet, means nothing was written there.
WHOLE = re.compile(r"^[+-]?\d{1,9}$")
DECIMAL = re.compile(r"^[+-]?\d{0,9}[.,]\d{1,9}$")
DASHES = frozenset({"-", "\u2013", "\u2014"})
MAX_PENALTY_SLOTS = 12
TRUE_VALUES = frozenset({"on", "1", "true", "yes"})

PENALTY_LABELS = rules.PENALTY_LABELS


def seat_field(position: int) -> str:
    return f"seat{position}"


@dataclass
class PenaltySlot:
    """One penalty line of a row, as typed (all text, so it re-renders unchanged)."""

    index: int
    seat: str = ""
    kind: str = ""
    calls: str = ""
    # A stored amount other than the event's default (set through the API), carried
    # along hidden so that saving the row again does not change it.
    points: str = ""
    invalid: bool = False

    @property
    def blank(self) -> bool:
        return not (self.seat or self.kind or self.calls)


def _number_or_text(text: str) -> int | float | str | None:
    """A whole number when it is one; what was typed otherwise (the engine names it)."""
    if not text:
        return None
    if WHOLE.match(text):
        return int(text)
    if DECIMAL.match(text):
        return float(text.replace(",", "."))
    return text


class HandRowForm:
    """The POST of one hand row: seat boxes `seat1`..`seat6`, `went_out`,
    `down_and_out`, `redeal`, penalty lines `p1_seat`/`p1_kind`/`p1_calls`/`p1_points`,
    and `version`, the hand's version when the director started editing it."""

    def __init__(self, data: Mapping[str, str], *, seats: Sequence[int]) -> None:
        self.seats = tuple(seats)
        self.values = {pos: data.get(seat_field(pos), "").strip() for pos in self.seats}
        self.went_out = data.get("went_out", "").strip()
        self.down_and_out = data.get("down_and_out", "").lower() in TRUE_VALUES
        self.redeal = data.get("redeal", "").lower() in TRUE_VALUES
        self.penalties = [
            slot
            for slot in (
                PenaltySlot(
                    index=i,
                    seat=data.get(f"p{i}_seat", "").strip(),
                    kind=data.get(f"p{i}_kind", "").strip(),
                    calls=data.get(f"p{i}_calls", "").strip(),
                    points=data.get(f"p{i}_points", "").strip(),
                )
                for i in range(1, MAX_PENALTY_SLOTS + 1)
            )
            if not slot.blank
        ]
        self.version = self.read_version(data.get("version", ""))

    @staticmethod
    def read_version(text: str) -> int | None:
        """The version the director edited; the page always sends it."""
        text = text.strip()
        if not text:
            return None
        if not text.isdigit() or len(text) > 9:
            raise BadRequest("The hand's version must be a whole number.")
        return int(text)

    @property
    def went_out_seat(self) -> int | None:
        value = _number_or_text(self.went_out)
        return value if isinstance(value, int) else None

    def seat_entry(self, position: int) -> rules.SeatEntry | None:
        text = self.values[position]
        if not text or text in DASHES:
            return None
        value = _number_or_text(text)
        if isinstance(value, str):
            return rules.SeatEntry(seat=position, cards=value)
        return rules.SeatEntry(seat=position, points=value)  # type: ignore[arg-type]

    def entry(self) -> rules.HandEntry:
        """Everything as typed: the engine reports whatever does not fit together (a
        redeal with scores, say) rather than this form quietly dropping it."""
        scores = tuple(
            entry for entry in (self.seat_entry(pos) for pos in self.seats) if entry is not None
        )
        penalties = tuple(
            rules.PenaltyEntry(
                seat=_number_or_text(slot.seat),  # type: ignore[arg-type]
                kind=slot.kind or None,  # type: ignore[arg-type]
                extra_calls=_number_or_text(slot.calls),  # type: ignore[arg-type]
                points=_number_or_text(slot.points),  # type: ignore[arg-type]
            )
            for slot in self.penalties
        )
        return rules.HandEntry(
            redeal=self.redeal,
            went_out=_number_or_text(self.went_out),  # type: ignore[arg-type]
            down_and_out=self.down_and_out,
            scores=scores,
            penalties=penalties,
        )


# --- The engine's answers in a director's words -------------------------------------


@dataclass(frozen=True)
class RowProblem:
    """One thing wrong with a row: the words to show, and where to point."""

    text: str
    field: str  # scores, went_out, down_and_out, redeal, penalties, version, ...
    seats: tuple[int, ...] = ()


def _seat_list(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


Rewrite = Callable[[re.Match, "int | None"], str]


def _zero_points(match: re.Match, went_out: int | None) -> str:
    seat = match.group(1)
    if went_out is not None and str(went_out) != seat:
        return f"Seat {seat} shows 0 points, but seat {went_out} went out."
    return f"Seat {seat} shows 0 points, but only the player who went out scores 0."


def _no_cards(match: re.Match, went_out: int | None) -> str:
    seat = match.group(1)
    if went_out is not None and str(went_out) != seat:
        return f"Seat {seat} shows no cards left, but seat {went_out} went out."
    return f"Seat {seat} shows no cards left, but only the player who went out holds none."


def _too_many_points(match: re.Match, went_out: int | None) -> str:
    seat, points, cards, bound, why = match.groups()
    return (
        f"Seat {seat} shows {points} points, but {cards} cards are worth at most {bound} "
        f"({why}). Check the number."
    )


# (field, engine wording, the director's wording). The engine's messages are written
# for the API; these say the same thing the way the paper sheet shows it.
REWRITES: tuple[tuple[str, re.Pattern[str], Rewrite | str], ...] = (
    (
        "scores",
        re.compile(r"^seat (\d+): 0 points, but only the player who went out"),
        _zero_points,
    ),
    (
        "scores",
        re.compile(r"^seat (\d+): no cards entered, but only the player who went"),
        _no_cards,
    ),
    (
        "scores",
        re.compile(r"^seat (\d+): no score entered$"),
        "Seat {1}: enter the points or the cards left in hand.",
    ),
    (
        "scores",
        re.compile(r"^seat (\d+) went out, so its card points are 0, not (\d+)$"),
        "Seat {1} went out, so it scores 0, not {2}.",
    ),
    (
        "scores",
        re.compile(r"^seat (\d+) went out, so it holds no cards, not (\d+)$"),
        "Seat {1} went out, so it holds no cards (you typed {2}).",
    ),
    (
        "scores",
        re.compile(r"^seat (\d+): (\d+) points is more than (\d+) cards can hold \((\d+); (.*)\)$"),
        _too_many_points,
    ),
    (
        "scores",
        re.compile(r"^seat (\d+): points cannot be negative"),
        "Seat {1}: points cannot be negative.",
    ),
    (
        "scores",
        re.compile(r"^seat (\d+): points must be a whole number"),
        "Seat {1}: points are a whole number.",
    ),
    (
        "scores",
        re.compile(r"^seats ([\d, ]+) show nothing in hand, but only one player can go out$"),
        "Seats {1} show nothing left in hand, but only one player can go out.",
    ),
    (
        "scores",
        re.compile(r"^a redeal carries no scores"),
        "A redeal has no scores: clear the seats' boxes, or untick Redeal.",
    ),
    (
        "went_out",
        re.compile(r"^a scored hand needs the seat that went out$"),
        "Choose who went out (or tick Redeal if the stock ran out twice).",
    ),
    (
        "went_out",
        re.compile(r"^a redeal carries no scores: nobody went out$"),
        "A redeal has nobody going out: clear Went out, or untick Redeal.",
    ),
    (
        "down_and_out",
        re.compile(r"^a redeal carries no scores: the hand cannot be down and out$"),
        "A redeal cannot be down and out.",
    ),
    (
        "penalties",
        re.compile(r"^a redeal carries no scores, so no penalties either$"),
        "A redeal carries no penalties: clear the penalty, or untick Redeal.",
    ),
    (
        "penalties",
        re.compile(r"^seat (\d+) went out, but a player charged an over-call may not go out"),
        "Seat {1} is charged an over-call, so it cannot have gone out.",
    ),
    (
        "penalties",
        re.compile(r"^entry (\d+) of penalties: null is not a seat$"),
        "Penalty {1}: choose the seat it is charged to.",
    ),
    (
        "penalties",
        re.compile(r"^seat (\d+): null is not a penalty"),
        "Seat {1}'s penalty: choose its kind.",
    ),
    (
        "penalties",
        re.compile(r"^seat (\d+): extra_calls belongs to an overcall or a challenge$"),
        "Seat {1}: extra calls go with an over-call or a challenge, not a false laydown.",
    ),
    (
        "penalties",
        re.compile(r"^seat (\d+): extra_calls counts the calls beyond three"),
        "Seat {1}: extra calls count the calls beyond three, so at least 1.",
    ),
    (
        "penalties",
        re.compile(r"^seat (\d+) has more than one (\w+) penalty$"),
        "Seat {1} has the same penalty twice.",
    ),
)


def _seats_named(field_name: str, engine_text: str, text: str) -> tuple[int, ...]:
    """The seats a message is about, to mark their boxes."""
    if field_name not in ("scores", "penalties"):
        return ()
    match = re.match(r"^seats? ([\d, ]+)", engine_text) or re.search(
        r"\((?:seat|seats) ([\d, ]+)\)", engine_text
    )
    if match:
        return _seat_list(match.group(1))
    match = re.match(r"^Seat (\d+)", text)
    return _seat_list(match.group(1)) if match else ()


def director_problems(
    errors: Mapping[str, Sequence[str]], *, went_out: int | None = None
) -> list[RowProblem]:
    """The engine's {field: [messages]} as a row's list of problems."""
    problems = []
    for field_name, messages in errors.items():
        for message in messages:
            text = _sentence(message)
            for rewrite_field, pattern, rewrite in REWRITES:
                match = pattern.match(message) if rewrite_field == field_name else None
                if match is None:
                    continue
                if callable(rewrite):
                    text = rewrite(match, went_out)
                else:
                    text = rewrite.format(None, *match.groups())
                break
            seats = _seats_named(field_name, message, text)
            problems.append(RowProblem(text=text, field=field_name, seats=seats))
    return problems


@dataclass
class RowVerdict:
    """What a save attempt says back to the row."""

    problems: list[RowProblem] = field(default_factory=list)
    stale: bool = False
    saved: bool = False

    @property
    def fields(self) -> set[str]:
        return {p.field for p in self.problems}

    def seats_for(self, field_name: str) -> set[int]:
        return {s for p in self.problems if p.field == field_name for s in p.seats}
