"""How far a round has got, table by table: the director's dashboard and the public
pages read it from here (one query)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.models import Hand
from tournaments.models import Event, Table


@dataclass
class TableProgress:
    number: int
    locked: bool
    needed: int  # hands in a set
    scored: list[int] = field(default_factory=list)  # the hand numbers scored
    redeals: int = 0

    @property
    def entered(self) -> int:
        return len(self.scored)

    @property
    def missing(self) -> list[int]:
        return [n for n in range(1, self.needed + 1) if n not in self.scored]

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def playing(self) -> int | None:
        """The hand being played: the first not scored."""
        return next(iter(self.missing), None)

    @property
    def missing_text(self) -> str:
        """'4-9' or '2, 5': the hands still to enter, as ranges."""
        runs: list[list[int]] = []
        for n in self.missing:
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass
class RoundProgress:
    round: int
    closed: bool
    tables: list[TableProgress]

    @property
    def finished(self) -> int:
        return sum(1 for t in self.tables if t.complete)

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
            f"table {t.number} has {t.entered} of {t.needed} hands"
            for t in self.tables
            if not t.complete
        ]


def tables_progress(event: Event, number: int) -> list[TableProgress]:
    """Each table of round `number` with the hands scored and the redeals: one query."""
    needed = event.rules.hand_count
    tables: dict[int, TableProgress] = {}
    scored: dict[int, set[int]] = {}
    rows = (
        Table.objects.filter(round__event=event, round__number=number)
        .values_list("number", "locked", "hands__number", "hands__outcome")
        .order_by("number")
    )
    for table_number, locked, hand, outcome in rows:
        progress = tables.get(table_number)
        if progress is None:
            progress = tables[table_number] = TableProgress(table_number, locked, needed)
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
