"""How far a round has got, table by table, and the state of each table: the
director's dashboard, the public pages and the exports read it from here (one query).

A table is in one of four states:
- "playing": the round is in play and the table has hands still to play;
- "complete": every hand of the set is scored;
- "closed": players left mid-round and fewer than three were left for the next hand,
  so the table ended after a hand (`Table.closed_after_hand`) with every hand up to it
  scored;
- "forced": the director closed the round while this table still had hands missing;
  once the round is closed, the hands a table did not play are adjusted
  (`game.adjusted`): its sets rank as complete, but for a player who withdrew.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from core.words import listing
from scoring.models import Hand
from tournaments.models import Event, Round, Table

PLAYING, COMPLETE, CLOSED, FORCED = "playing", "complete", "closed", "forced"
# A round's status as stored, in the words of the messages that name it.
STATUS_WORDS = {
    Round.Status.SEATING: pgettext_lazy("round status", "seating"),
    Round.Status.DRAFT: pgettext_lazy("round status", "draft"),
    Round.Status.PUBLISHED: pgettext_lazy("round status", "published"),
    Round.Status.CLOSED: pgettext_lazy("round status", "closed"),
}
TABLE_STATES = (PLAYING, COMPLETE, CLOSED, FORCED)


def as_ranges(numbers: list[int]) -> str:
    """'4-9' or '2, 5': hand numbers as ranges."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return listing(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass
class TableProgress:
    number: int
    locked: bool
    needed: int  # hands in a set
    scored: list[int] = field(default_factory=list)  # the hand numbers scored
    redeals: int = 0
    closed_after: int | None = None  # the table ended after this hand (too few left)
    round_closed: bool = False

    @property
    def entered(self) -> int:
        return len(self.scored)

    @property
    def expected(self) -> int:
        """How many hands this table plays: the set, or up to the hand it ended after."""
        return self.needed if self.closed_after is None else self.closed_after

    @property
    def missing(self) -> list[int]:
        """The hands this table should have played that are not scored."""
        return [n for n in range(1, self.expected + 1) if n not in self.scored]

    @property
    def done(self) -> bool:
        """Nothing left to enter: the set is complete, or the table ended short."""
        return not self.missing

    @property
    def complete(self) -> bool:
        """Every hand of the set scored."""
        return self.done and self.closed_after is None

    @property
    def state(self) -> str:
        """One of TABLE_STATES (see the module's docstring)."""
        if self.complete:
            return COMPLETE
        if self.round_closed and self.missing:
            return FORCED
        if self.done:
            return CLOSED
        return PLAYING

    @property
    def why(self) -> str:
        """Why a table stopped short of a complete set, in words ("" otherwise)."""
        state = self.state
        adjusted = (
            _(
                "the hands not played here are scored from the field (adjusted), so the "
                "sets of the players still here rank as complete"
            )
            if self.round_closed
            else _(
                "once the round is closed, the hands not played here are scored from the "
                "field (adjusted), so the sets of the players still here rank as complete"
            )
        )
        if state == CLOSED:
            return _(
                "Closed after hand %(hand)s: fewer than three players were left; %(adjusted)s."
            ) % {"hand": self.closed_after, "adjusted": adjusted}
        if state == FORCED:
            return _(
                "Closed with hands %(hands)s missing (the director forced the round closed); "
                "%(adjusted)s."
            ) % {"hands": self.missing_text, "adjusted": adjusted}
        return ""

    @property
    def playing(self) -> int | None:
        """The hand being played: the first not scored (None once nothing is left to
        play, or the round is closed)."""
        if self.round_closed:
            return None
        return next(iter(self.missing), None)

    @property
    def missing_text(self) -> str:
        """'4-9' or '2, 5': the hands still to enter, as ranges."""
        return as_ranges(self.missing)


def table_why(progress: TableProgress) -> str:
    return progress.why


# A table's `why` for a document kept in the shared cache: worded when it is shown, in
# the reader's language, not in the language of whoever built the document.
why_when_shown = lazy(table_why, str)


@dataclass
class RoundProgress:
    round: int
    closed: bool
    tables: list[TableProgress]

    @property
    def finished(self) -> int:
        """Tables with nothing left to play: complete, or ended short."""
        return sum(1 for t in self.tables if t.done)

    @property
    def forced(self) -> list[TableProgress]:
        """The tables the director's forced close left with hands missing."""
        return [t for t in self.tables if t.state == FORCED]

    @property
    def closed_short(self) -> list[TableProgress]:
        return [t for t in self.tables if t.state == CLOSED]

    @property
    def hands_needed(self) -> int:
        return self.tables[0].needed if self.tables else 0

    @property
    def hands_scored(self) -> int:
        return sum(min(t.entered, t.needed) for t in self.tables)

    @property
    def hands_total(self) -> int:
        return sum(t.needed for t in self.tables)

    @property
    def locked(self) -> int:
        return sum(1 for t in self.tables if t.locked)

    @property
    def started(self) -> bool:
        """Whether any hand (or redeal) is recorded at any table."""
        return any(t.entered or t.redeals for t in self.tables)

    def missing(self) -> list[str]:
        """Each table that lacks scored hands, in words: 'table 3 has 7 of 9 hands'."""
        return [
            ngettext(
                "table %(table)s has %(count)s of %(hands)s hands",
                "table %(table)s has %(count)s of %(hands)s hands",
                t.expected,
            )
            % {"table": t.number, "count": t.entered, "hands": t.expected}
            for t in self.tables
            if t.missing
        ]


def tables_progress(event: Event, number: int) -> list[TableProgress]:
    """Each table of round `number` with the hands scored and the redeals: one query."""
    needed = event.rules.hand_count
    tables: dict[int, TableProgress] = {}
    scored: dict[int, set[int]] = {}
    rows = (
        Table.objects.filter(round__event=event, round__number=number)
        .values_list(
            "number",
            "locked",
            "closed_after_hand",
            "round__status",
            "hands__number",
            "hands__outcome",
        )
        .order_by("number")
    )
    for table_number, locked, closed_after, status, hand, outcome in rows:
        progress = tables.get(table_number)
        if progress is None:
            progress = tables[table_number] = TableProgress(
                table_number,
                locked,
                needed,
                closed_after=closed_after,
                round_closed=status == Round.Status.CLOSED,
            )
        if outcome == Hand.Outcome.SCORED:
            scored.setdefault(table_number, set()).add(hand)
        elif outcome == Hand.Outcome.REDEAL:
            progress.redeals += 1
    for table_number, numbers in scored.items():
        tables[table_number].scored = sorted(numbers)
    return list(tables.values())


def round_progress(event: Event, number: int, *, closed: bool) -> RoundProgress:
    """Round `number`'s tables finished of total, its hands scored: one query."""
    return RoundProgress(round=number, closed=closed, tables=tables_progress(event, number))
