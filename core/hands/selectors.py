"""Reads of hands and tables for pages and the API: plain data, a fixed number of
queries whatever the event's size.

A hand number at a table may have been dealt several times (redeals); what stands is
the scored attempt, else the last redeal. `table_sheet` is the one reading of a table's
score sheet: every hand of the set, recorded or not, with running totals. The
director's sheet, the public table page and the API each show it their own way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch
from django.utils.translation import gettext as _

from core.adjusted.selectors import table_adjusted
from core.entries.selectors import namesakes_of
from core.errors import Missing
from core.rounds.selectors import TableProgress
from game import rules
from game.rulesets import HandSpec
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Round, Seat, Table


@dataclass(frozen=True)
class ResultView:
    """One seat's result in a scored hand."""

    seat: int
    player: int
    card_points: int
    penalty_points: int
    score: int
    cards: str | None
    sat_out: bool


@dataclass(frozen=True)
class PenaltyView:
    seat: int
    kind: str
    points: int
    extra_calls: int


@dataclass(frozen=True)
class HandView:
    """A hand number at a table as it stands (API.md, "Hands")."""

    number: int
    contract: str
    cards_dealt: int
    outcome: str
    went_out: int | None
    down_and_out: bool
    version: int  # the number's version, over all its deals: what If-Match names
    deals: int  # how many times it was dealt
    results: tuple[ResultView, ...]
    penalties: tuple[PenaltyView, ...]
    # Each seat's running total after this hand, on a table's sheet (None for a redeal).
    totals: dict[int, int] | None = None

    @property
    def scored(self) -> bool:
        return self.outcome == Hand.Outcome.SCORED

    def result_for(self, seat: int) -> ResultView | None:
        return next((r for r in self.results if r.seat == seat), None)


@dataclass(frozen=True)
class SeatView:
    seat: int
    player: int
    name: str
    dealer: bool
    left_after_hand: int | None
    at_fault: str = ""  # the director's reason when the player is marked at fault
    # The name as the event's pages show it: namesakes told apart (`core.entries.names`).
    shown: str = ""

    def __post_init__(self) -> None:
        if not self.shown:
            object.__setattr__(self, "shown", self.name)

    def plays(self, number: int) -> bool:
        """Whether this seat plays hand `number`: a player who withdrew mid-round plays
        no hand after the one they left after."""
        return self.left_after_hand is None or number <= self.left_after_hand


@dataclass(frozen=True)
class Cell:
    """A seat's box in a scored hand's row."""

    seat: int
    result: ResultView | None  # None: the seat did not play this hand (it had left)
    out: bool  # this seat went out
    total: int  # the seat's running total after this hand
    # A hand the table could not play, scored once the round closed (`game.adjusted`):
    # {"hand", "seat", "score", "at_fault", "rule", "words"}.
    adjusted: dict | None = None

    @property
    def score(self) -> int | None:
        if self.adjusted is not None:
            return self.adjusted["score"]
        return self.result.score if self.result else None

    @property
    def penalty(self) -> int:
        return self.result.penalty_points if self.result else 0


@dataclass(frozen=True)
class SheetRow:
    """One hand of the set at a table, recorded or not."""

    spec: HandSpec
    hand: HandView | None
    # "scored"; "playing" (the first not scored while the round is in play), "redeal"
    # (dealt again, not yet scored) or "waiting"; "missing" (the round was closed
    # without it) or "void" (after the table closed short: never to be played).
    state: str
    cells: tuple[Cell, ...] = ()  # by seat, for a scored hand or one with adjusted scores

    @property
    def number(self) -> int:
        return self.spec.number

    @property
    def contract(self) -> str:
        # The ruleset's words for the reader, not the English a recorded hand keeps
        # (the same contract: `core.hands.stored` checks they agree).
        return self.spec.contract

    @property
    def cards_dealt(self) -> int:
        return self.hand.cards_dealt if self.hand else self.spec.cards_dealt

    @property
    def deals(self) -> int:
        return self.hand.deals if self.hand else 0

    @property
    def down_and_out(self) -> bool:
        return bool(self.hand and self.hand.scored and self.hand.down_and_out)


@dataclass(frozen=True)
class SeatTotal:
    seat: SeatView
    total: int


@dataclass(frozen=True)
class TableSheet:
    table: Table
    seats: tuple[SeatView, ...]
    rows: tuple[SheetRow, ...]  # every hand of the set, in order
    totals: dict[int, int]  # each seat's set total so far, adjusted scores included
    progress: TableProgress  # what is scored and missing, and the table's state
    # Once the round is closed: the hands the table could not play, scored from the
    # field (`core.adjusted.selectors.table_adjusted`), by hand then seat.
    adjusted: tuple[dict, ...] = ()

    @property
    def state(self) -> str:
        """playing, complete, closed or forced (`core.rounds.selectors`)."""
        return self.progress.state

    @property
    def why(self) -> str:
        return self.progress.why

    @property
    def closed_after(self) -> int | None:
        return self.progress.closed_after

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def round(self) -> int:
        return self.table.round.number

    @property
    def locked(self) -> bool:
        return self.table.locked

    @property
    def hands_needed(self) -> int:
        return len(self.rows)

    @property
    def hands(self) -> list[HandView]:
        """The hands recorded (scored or redealt), in order."""
        return [row.hand for row in self.rows if row.hand is not None]

    @property
    def hands_scored(self) -> int:
        return sum(1 for row in self.rows if row.state == "scored")

    @property
    def playing(self) -> int | None:
        """The hand being played: the first not yet scored (None: the set is complete)."""
        return next((row.number for row in self.rows if row.state == "playing"), None)

    @property
    def complete(self) -> bool:
        """Every hand of the set scored."""
        return self.progress.complete

    @property
    def playing_contract(self) -> str | None:
        playing = self.playing
        return self.row(playing).contract if playing else None

    def places(self) -> dict[int, int]:
        """Place at the table by lowest total; equal totals share the better place."""
        result = rules.set_result(self.totals)
        return {seat: result.place_of(seat) for seat in self.totals}

    @property
    def seat_totals(self) -> list[SeatTotal]:
        return [SeatTotal(seat, self.totals[seat.seat]) for seat in self.seats]

    @property
    def totals_row(self) -> list[tuple[SeatView, int, int]]:
        """Each seat with its set total and its place at the table."""
        places = self.places() if self.totals else {}
        return [(seat, self.totals[seat.seat], places.get(seat.seat)) for seat in self.seats]

    def row(self, number: int) -> SheetRow:
        for row in self.rows:
            if row.number == number:
                return row
        raise Missing(_("No such hand."))


def recorder() -> F:
    """A hand's `recorder`, annotated: the username of the director who recorded it
    (None: the players did), read with the hand rather than the whole user (a copy of
    the hands kept in the cache holds no account)."""
    return F(f"recorded_by__{get_user_model().USERNAME_FIELD}")


def hands_of(tables: Iterable[Table], number: int | None = None) -> list[Hand]:
    """Every attempt of the tables' hands with scores, penalties and the name of the
    director who recorded it (`recorder`): 3 queries."""
    hands = Hand.objects.filter(table__in=list(tables))
    if number is not None:
        hands = hands.filter(number=number)
    return list(
        hands.select_related("went_out")
        .annotate(recorder=recorder())
        .prefetch_related(
            Prefetch(
                "scores", HandScore.objects.select_related("seat__entry").order_by("seat__position")
            ),
            Prefetch(
                "penalties",
                Penalty.objects.select_related("seat").order_by("seat__position", "kind"),
            ),
        )
        .order_by("table_id", "number", "attempt")
    )


def current_hands(attempts: Iterable[Hand]) -> dict[int, HandView]:
    """By hand number: what stands (the scored attempt, else the last redeal), with the
    number's version and how many deals it took."""
    by_number: dict[int, list[Hand]] = {}
    for hand in attempts:
        by_number.setdefault(hand.number, []).append(hand)
    result = {}
    for number, hands in by_number.items():
        scored = [h for h in hands if h.outcome == Hand.Outcome.SCORED]
        standing = scored[0] if scored else hands[-1]
        result[number] = hand_view(standing, max(h.version for h in hands), len(hands))
    return result


# Set on a hand a save has read or written (`core.hands.held`): its score and penalty
# rows, so that they are not read again.
ROWS_HELD = "rows_held"


def rows_of(hand: Hand) -> tuple[list[HandScore], list[Penalty]]:
    """The hand's score and penalty rows: those a save holds for it, else as prefetched
    (or read)."""
    held = getattr(hand, ROWS_HELD, None)
    if held is not None:
        return held
    return list(hand.scores.all()), list(hand.penalties.all())


def hand_view(hand: Hand, version: int, deals: int) -> HandView:
    return view_of(hand, *rows_of(hand), version, deals)


def view_of(
    hand: Hand, scores: Iterable[HandScore], penalties: Iterable[Penalty], version: int, deals: int
) -> HandView:
    """`hand` with these score and penalty rows (each with its seat and the seat's
    entry), in seat order: what a save just wrote, shown with no query."""
    scores = sorted(scores, key=lambda s: s.seat.position)
    penalties = sorted(penalties, key=lambda p: (p.seat.position, p.kind))
    return HandView(
        number=hand.number,
        contract=hand.contract,
        cards_dealt=hand.cards_dealt,
        outcome=hand.outcome,
        went_out=hand.went_out.position if hand.went_out else None,
        down_and_out=hand.down_and_out,
        version=version,
        deals=deals,
        results=tuple(
            ResultView(
                seat=s.seat.position,
                player=s.seat.entry.player_id,
                card_points=s.card_points,
                penalty_points=s.penalty_points,
                score=s.score,
                cards=s.cards or None,
                sat_out=s.sat_out,
            )
            for s in scores
        ),
        penalties=tuple(
            PenaltyView(
                seat=p.seat.position, kind=p.kind, points=p.points, extra_calls=p.extra_calls
            )
            for p in penalties
        ),
    )


def hand_at(table: Table, number: int) -> HandView:
    """Hand `number` at `table` as it stands: 3 queries; 404 when not recorded."""
    found = current_hands(hands_of([table], number))
    if number not in found:
        raise Missing(_("This hand has not been recorded."))
    return found[number]


def hand_version(table: Table, number: int) -> int:
    """The version a client must send in If-Match (0: not recorded yet)."""
    versions = Hand.objects.filter(table=table, number=number).order_by()  # no joins to sort
    return max(versions.values_list("version", flat=True), default=0)


def seat_views(
    table: Table, seats: Iterable[Seat] | None = None, names: dict[int, str] | None = None
) -> tuple[SeatView, ...]:
    """The table's seats (`seats`: already read, each with its entry and player), each
    player's name as the event shows it (`names`: the event's namesakes, read if not
    given): 1 query (2 without `seats`, none given both)."""
    if seats is None:
        seats = Seat.objects.filter(table=table).select_related("entry__player")
    seats = sorted(seats, key=lambda seat: seat.position)
    if names is None:
        names = namesakes_of(table.round.event_id)
    return tuple(
        SeatView(
            seat=seat.position,
            player=seat.entry.player_id,
            name=seat.entry.player.name,
            dealer=seat.first_dealer,
            left_after_hand=seat.left_after_hand,
            at_fault=seat.at_fault,
            shown=names.get(seat.entry.player_id, ""),
        )
        for seat in seats
    )


def table_sheet(
    table: Table,
    seats: Iterable[Seat] | None = None,
    names: dict[int, str] | None = None,
    hands: Iterable[Hand] | None = None,
) -> TableSheet:
    """A table's sheet: its seats, every hand of the set as it stands, running totals:
    5 queries (4 given the seats, read with their players; 1 fewer given the event's
    namesakes, `names`; 3 fewer given `hands`, every attempt at the table holding its
    rows, as a save leaves them), and 1 more once the round is closed (its adjusted
    scores). `table` comes with its round and event (`table_of`)."""
    spec = table.round.event.rules
    seats = seat_views(table, seats, names)
    recorded = current_hands(hands_of([table]) if hands is None else hands)
    progress = TableProgress(
        table.number,
        table.locked,
        spec.hand_count,
        scored=sorted(n for n, hand in recorded.items() if hand.scored),
        redeals=sum(hand.deals - hand.scored for hand in recorded.values()),
        closed_after=table.closed_after_hand,
        round_closed=table.round.status == Round.Status.CLOSED,
    )
    adjusted = tuple(table_adjusted(table)) if progress.round_closed else ()
    by_hand: dict[int, dict[int, dict]] = {}
    for note in adjusted:
        by_hand.setdefault(note["hand"], {})[note["seat"]] = note
    totals = {seat.seat: 0 for seat in seats}
    rows, playing = [], None
    for hand_spec in spec.hands:
        hand = recorded.get(hand_spec.number)
        cells: tuple[Cell, ...] = ()
        made_up = by_hand.get(hand_spec.number)
        if made_up and not (hand is not None and hand.scored):
            for seat, note in made_up.items():
                totals[seat] += note["score"]
            cells = tuple(
                Cell(
                    seat=seat.seat,
                    result=None,
                    out=False,
                    total=totals[seat.seat],
                    adjusted=made_up.get(seat.seat),
                )
                for seat in seats
            )
        if hand is not None and hand.scored:
            for result in hand.results:
                totals[result.seat] += result.score
            hand = dataclasses.replace(hand, totals=dict(totals))
            state = "scored"
            cells = tuple(
                Cell(
                    seat=seat.seat,
                    result=hand.result_for(seat.seat),
                    out=hand.went_out == seat.seat,
                    total=totals[seat.seat],
                )
                for seat in seats
            )
        elif hand_spec.number > progress.expected:
            state = "void"
        elif progress.round_closed:
            state = "missing"
        elif playing is None:
            playing, state = hand_spec.number, "playing"
        else:
            state = "redeal" if hand is not None else "waiting"
        rows.append(SheetRow(spec=hand_spec, hand=hand, state=state, cells=cells))
    return TableSheet(
        table=table,
        seats=seats,
        rows=tuple(rows),
        totals=totals,
        progress=progress,
        adjusted=adjusted,
    )


def playing_seats(table: Table, number: int) -> list[int]:
    """The seats that play hand `number` (a player who withdrew mid-round plays no hand
    after the one they left after; the service reads the seats the same way)."""
    return [
        seat.position
        for seat in Seat.objects.filter(table=table).order_by("position")
        if seat.plays_hand(number)
    ]


def event_has_hands(event) -> bool:
    return Hand.objects.filter(table__round__event=event).exists()


def tables_have_hands(tables: Iterable[Table]) -> bool:
    return Hand.objects.filter(table__in=list(tables)).exists()
