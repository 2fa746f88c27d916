"""A hand row of a table's sheet (the director's, and the players' entry page): what
was typed, read as the rules engine's entry, and the engine's verdict put in the words
of someone holding the paper sheet, the same for a director and a player.

No rule of the game is checked here: every value goes to `game.rules` as typed
(a seat's box holds points or cards), and only the wording of its answers changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import BadRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import InvalidInput, in_reader_language
from core.words import listing, translated
from game import rules

# A seat's box: "23" is points; anything else ("JK AS 10H") is the cards held. A dash,
# as on the paper sheet, means nothing was written there.
WHOLE = re.compile(r"^[+-]?\d{1,9}$")
DECIMAL = re.compile(r"^[+-]?\d{0,9}[.,]\d{1,9}$")
DASHES = frozenset({"-", "\u2013", "\u2014"})
MAX_PENALTY_SLOTS = 12
PENALTY_KEY = re.compile(r"^p(\d{1,6})_(seat|kind|calls|points)$")
TRUE_VALUES = frozenset({"on", "1", "true", "yes"})

# The penalties' names as the pages show them (the engine's own words, PENALTY_LABELS
# in `game.rules`, in the reader's language).
PENALTY_LABELS = {
    rules.OVERCALL: gettext_lazy("Over-call"),
    rules.FALSE_LAYDOWN: gettext_lazy("False laydown"),
    rules.CHALLENGE: gettext_lazy("Challenge"),
}


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
    `version`, the hand's version when the director started editing it, and on a
    recorded hand's row `reason`, the director's optional reason for the correction."""

    def __init__(self, data: Mapping[str, str], *, seats: Sequence[int] | None = None) -> None:
        self.data = data
        self.seats: tuple[int, ...] = ()
        self.values: dict[int, str] = {}
        self.seated = False
        if seats is not None:
            self.seat(seats)
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
        self.reason = data.get("reason", "")
        # Lines past the last slot the page offers (sent by hand or by a script): the
        # row is refused rather than saved without them.
        self.lines_beyond = sorted(
            {
                int(match.group(1))
                for key, value in data.items()
                if (match := PENALTY_KEY.match(key))
                and int(match.group(1)) > MAX_PENALTY_SLOTS
                and str(value).strip()
            }
        )

    def seat(self, seats: Sequence[int]) -> None:
        """Read the boxes of these seats (those that play the hand)."""
        self.seats = tuple(seats)
        self.values = {pos: self.data.get(seat_field(pos), "").strip() for pos in self.seats}
        self.seated = True

    def entry_at(self, seats: Sequence[int]) -> rules.HandEntry:
        """`entry`, reading the boxes of these seats: what the hand's save calls with the
        seats it reads under the table's lock (so the form reads none of its own)."""
        self.seat(seats)
        return self.entry()

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
        value = self.inferred_went_out()
        return value if isinstance(value, int) else None

    def inferred_went_out(self) -> int | float | str | None:
        """Who went out as typed; when the box is left empty (and the hand is not a
        redeal), the one seat whose box is empty or 0, if exactly one is: the help says
        to leave the box of the player who went out empty."""
        if self.went_out or self.redeal:
            return _number_or_text(self.went_out)
        out = [
            pos
            for pos, text in self.values.items()
            if not text or text in DASHES or _number_or_text(text) == 0
        ]
        return out[0] if len(out) == 1 else None

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
        if self.lines_beyond:
            raise InvalidInput(
                _(
                    "A hand takes at most %(most)s penalty lines; this row also sends line "
                    "%(lines)s. Nothing was saved: remove the extra lines (a seat's penalties "
                    "of one kind go on one line)."
                )
                % {"most": MAX_PENALTY_SLOTS, "lines": listing(self.lines_beyond)},
                field="penalties",
            )
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
            went_out=self.inferred_went_out(),  # type: ignore[arg-type]
            down_and_out=self.down_and_out,
            scores=scores,
            penalties=penalties,
        )


def row_fields(document: Mapping[str, Any]) -> dict[str, str]:
    """A hand entry in the API's shape as the POST of a sheet row (what HandRowForm
    reads back into the same entry): to send a player's entry on as a director's."""
    if document.get("redeal"):
        return {"redeal": "on"}
    fields = {
        seat_field(score["seat"]): str(score["cards"] if "cards" in score else score["points"])
        for score in document.get("scores", [])
    }
    if document.get("went_out") is not None:
        fields["went_out"] = str(document["went_out"])
    if document.get("down_and_out"):
        fields["down_and_out"] = "on"
    for i, penalty in enumerate(document.get("penalties", []), start=1):
        fields[f"p{i}_seat"] = str(penalty["seat"])
        fields[f"p{i}_kind"] = penalty["kind"]
        fields[f"p{i}_calls"] = str(penalty.get("extra_calls") or "")
        fields[f"p{i}_points"] = str(penalty.get("points") or "")
    return fields


# --- The engine's answers in the words of someone at the sheet -----------------------------


@dataclass(frozen=True)
class RowProblem:
    """One thing wrong with a row: the words to show, and where to point."""

    text: str
    field: str  # scores, went_out, down_and_out, redeal, penalties, version, ...
    seats: tuple[int, ...] = ()


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _other_went_out(problem: rules.Problem, went_out: int | None) -> bool:
    return went_out is not None and went_out != problem.seats[0]


def _zero_points(problem: rules.Problem, went_out: int | None) -> str:
    seat = problem.seats[0]
    if _other_went_out(problem, went_out):
        return _("Seat %(seat)s shows 0 points, but seat %(out)s went out.") % {
            "seat": seat,
            "out": went_out,
        }
    return _("Seat %(seat)s shows 0 points, but only the player who went out scores 0.") % {
        "seat": seat
    }


def _no_cards(problem: rules.Problem, went_out: int | None) -> str:
    seat = problem.seats[0]
    if _other_went_out(problem, went_out):
        return _("Seat %(seat)s shows no cards left, but seat %(out)s went out.") % {
            "seat": seat,
            "out": went_out,
        }
    return _("Seat %(seat)s shows no cards left, but only the player who went out holds none.") % {
        "seat": seat
    }


Wording = Callable[[rules.Problem, "int | None"], str]


def _as_engine_says(problem: rules.Problem, went_out: int | None) -> str:
    """The engine's own words, as a sentence: already plain for someone at a sheet."""
    return _sentence(translated(problem.message))


def _say(template: str) -> Wording:
    """Words from the problem's parameters (`template`, marked for translation, says them
    as %(name)s): %(seat)s is its first seat, %(seats)s them all."""

    def wording(problem: rules.Problem, went_out: int | None) -> str:
        seats = listing(problem.seats)
        first = problem.seats[0] if problem.seats else ""
        params = {name: in_reader_language(value) for name, value in problem.params.items()}
        return str(template) % {**params, "seat": first, "seats": seats}

    return wording


# How the sheet puts each finding of the engine (every code in `rules.CODES`): the
# engine's messages are written for the API; these say the same thing the way the
# paper sheet shows it.
WORDING: dict[str, Wording] = {
    "number_not_whole": _as_engine_says,
    "number_unknown": _as_engine_says,
    "redeal_not_bool": _as_engine_says,
    "redeal_went_out": _say(
        gettext_lazy("A redeal has nobody going out: clear Went out, or untick Redeal.")
    ),
    "redeal_down_and_out": _say(gettext_lazy("A redeal cannot be down and out.")),
    "redeal_scores": _say(
        gettext_lazy("A redeal has no scores: clear the seats' boxes, or untick Redeal.")
    ),
    "redeal_penalties": _say(
        gettext_lazy("A redeal carries no penalties: clear the penalty, or untick Redeal.")
    ),
    "went_out_missing": _say(
        gettext_lazy("Choose who went out (or tick Redeal if the stock ran out twice).")
    ),
    "went_out_not_seat": _as_engine_says,
    "went_out_not_at_table": _as_engine_says,
    "down_and_out_not_bool": _as_engine_says,
    "down_and_out_not_allowed": _as_engine_says,
    "not_a_list": _as_engine_says,
    "entry_not_object": _as_engine_says,
    "entry_seat_invalid": lambda problem, went_out: (
        _("Penalty %(index)s: choose the seat it is charged to.")
        % {"index": problem.params["index"]}
        if problem.field == "penalties" and problem.params["value"] == "null"
        else _as_engine_says(problem, went_out)
    ),
    "seat_not_at_table": _as_engine_says,
    "penalty_kind_unknown": lambda problem, went_out: (
        _("Seat %(seat)s's penalty: choose its kind.") % {"seat": problem.seats[0]}
        if problem.params["value"] == "null"
        else _as_engine_says(problem, went_out)
    ),
    "penalty_twice": _say(gettext_lazy("Seat %(seat)s has the same penalty twice.")),
    "challenge_not_allowed": _as_engine_says,
    "challenge_went_out": _as_engine_says,
    "challenge_points": _as_engine_says,
    "overcall_went_out": _say(
        gettext_lazy("Seat %(seat)s is charged an over-call, so it cannot have gone out.")
    ),
    "penalty_points_range": _as_engine_says,
    "extra_calls_not_allowed": _say(
        gettext_lazy(
            "Seat %(seat)s: extra calls go with an over-call or a challenge, not a false laydown."
        )
    ),
    "extra_calls_invalid": _say(
        gettext_lazy("Seat %(seat)s: extra calls count the calls beyond three, so at least 1.")
    ),
    "extra_calls_too_many": _say(
        gettext_lazy(
            "Seat %(seat)s: %(extra)s extra calls is more than the deck can feed a player "
            "(at most %(most)s)."
        )
    ),
    "challenge_and_overcall": _say(
        gettext_lazy(
            "Seat %(seat)s has both a challenge and an over-call: in Trinidad the challenge "
            "is the remedy, so charge the challenge only (with its extra calls)."
        )
    ),
    "overcall_not_charged": _say(
        gettext_lazy(
            "Seat %(seat)s: this event charges nothing for an over-call, so it has no amount."
        )
    ),
    "penalty_points_fixed": _say(
        gettext_lazy(
            "Seat %(seat)s: this event's penalty is %(agreed)s points, not %(value)s; it "
            "allows no other amount."
        )
    ),
    "score_twice": _as_engine_says,
    "points_and_cards": _as_engine_says,
    "no_value": _as_engine_says,
    "points_not_whole": _say(gettext_lazy("Seat %(seat)s: points are a whole number.")),
    "points_negative": _say(gettext_lazy("Seat %(seat)s: points cannot be negative.")),
    "went_out_points": _say(
        gettext_lazy("Seat %(seat)s went out, so it scores 0, not %(points)s.")
    ),
    "cards_not_text": _as_engine_says,
    "card_notation": _as_engine_says,
    "went_out_cards": _say(
        gettext_lazy("Seat %(seat)s went out, so it holds no cards (you typed %(count)s).")
    ),
    "too_many_cards": _as_engine_says,
    "points_over_bound": _say(
        gettext_lazy(
            "Seat %(seat)s shows %(points)s points, but %(most)s cards are worth at most "
            "%(bound)s (%(why)s). Check the number."
        )
    ),
    "challenge_extra_calls": _say(
        gettext_lazy(
            "Seat %(seat)s holds %(holds)s, more than %(most)s cards allow, so its challenge "
            "was right: enter its extra calls (%(least)s) on the challenge's line."
        )
    ),
    "table_over_bound": _say(
        gettext_lazy(
            "The seats' points add up to %(points)s, more than the %(cards)s cards they can "
            "hold are worth (%(bound)s). Check the numbers."
        )
    ),
    "several_empty": _say(
        gettext_lazy("Seats %(seats)s show nothing left in hand, but only one player can go out.")
    ),
    "score_missing": _say(
        gettext_lazy("Seat %(seat)s: enter the points or the cards left in hand.")
    ),
    "no_cards": _no_cards,
    "zero_points": _zero_points,
    "card_copies": _as_engine_says,
}


def sheet_problem(problem: rules.Problem, went_out: int | None = None) -> RowProblem:
    """One of the engine's findings as the sheet shows it."""
    text = WORDING[problem.code](problem, went_out)
    seats = problem.seats if problem.field in ("scores", "penalties") else ()
    return RowProblem(text=text, field=problem.field, seats=tuple(seats))


def service_problems(errors: Mapping[str, Sequence[str]]) -> list[RowProblem]:
    """A service's refusal other than the rules engine's ({field: [messages]})."""
    return [
        RowProblem(text=_sentence(message), field=field_name)
        for field_name, messages in errors.items()
        for message in messages
    ]


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
