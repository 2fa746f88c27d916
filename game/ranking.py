"""Standings: an event's entries ranked from their set results, in the event's format.

Plain data in, plain data out, no Django: the standings service loads one SetRecord
per entry per round it was seated in, and stores what `rank` returns. How the
tallies are put in order (the keys, the placement points, the knockout's advancement)
is in `ranking_keys.py`. The rules decided here:

- Everyone is ranked 1..n, never sharing a rank: the format's own criterion comes
  first, then the event's tiebreak chain, and the chain always ends in a seeded draw
  (then the entry id, should two draws ever collide).
- A set is in one of three states. COMPLETE: every hand of the set played. UNDER_WAY:
  the round is in play and the set is still being played (live standings count it as
  it stands, so they move hand by hand). INCOMPLETE: the set is over without all its
  hands: the player withdrew mid-round (their leave point), their table closed when
  fewer than three players were left, or the director force-closed the round with
  hands missing. Missing hands are never free: an incomplete set is not charged
  points for them, it is ranked after the complete sets of its round instead.
  Once its round is closed, a set whose table could not play all its hands through
  no fault of its player (time, a forced close, a table left short) is completed by
  adjusted scores from the field (`game.adjusted`): it is COMPLETE, with the adjusted
  scores in its total and listed in `adjusted`; only a player who withdrew keeps an
  incomplete set then.
- total: more sets played first, then fewer hands missing from incomplete sets,
  then the lowest total. So in a round an incomplete set ranks below every complete
  one, and among incomplete sets the one that played more hands ranks higher.
  Missing a round (a late arrival, a withdrawal) can never help either: fewer penalty
  points from fewer sets would otherwise beat everyone who played; an entry with no
  set yet comes last.
- table-points: most placement points, then more sets played, fewer hands missing,
  the lowest total. At each table the complete (and live) sets share out the places
  of a table of its full size; an incomplete set earns the scale's lowest value (0
  with [4, 2, 1, 0]), which no complete set can earn less than.
- knockout: only a complete set can go through at a table, and never a withdrawn
  player's; see `rank`.
- Withdrawn entries keep their results and are ranked by the same rules as everyone
  else; only their status says "withdrawn".

Across rounds "never above a complete set" cannot hold literally (A incomplete in
round 1 and complete in round 2, B the other way round: one of them ranks first), so
the guarantee is per round: ranked on its own a round never puts an incomplete set
above a complete one, and making a set incomplete never lifts its entry in the
standings (tests/game/test_ranking_incomplete.py checks both).
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction

from game.adjusted import Adjustment
from game.ranking_keys import Ranked, Tally, add_table_points, knockout, ordered
from game.table_points import DEFAULT_TABLE_POINTS, check_scale
from game.words import say

FORMATS: tuple[str, ...] = ("total", "table-points", "knockout")
TIEBREAKS: tuple[str, ...] = (
    "points",
    "table_points",
    "hands_won",
    "penalty_points",
    "best_set",
    "draw",
)
# Fewer total points, more hands won (went out), fewer director-penalty points, lower
# best set, then the seeded draw.
DEFAULT_TIEBREAKS: tuple[str, ...] = ("points", "hands_won", "penalty_points", "best_set", "draw")

# The states of a set (see the module's docstring).
COMPLETE, UNDER_WAY, INCOMPLETE = "complete", "under_way", "incomplete"
SET_STATES: tuple[str, ...] = (COMPLETE, UNDER_WAY, INCOMPLETE)
# Why a set is incomplete: its player withdrew (and left after a hand), its table
# closed with fewer than three players left, or the director force-closed the round.
WITHDREW, SHORT, FORCED = "withdrew", "short", "forced"
WHY_INCOMPLETE: tuple[str, ...] = (WITHDREW, SHORT, FORCED)


def set_state(
    *, played: int, hands: int, left_after: int | None, ended_after: int | None, over: bool
) -> tuple[str, str]:
    """A seat's set as (state, why): `played` of the set's `hands` scored for it so far,
    its leave point if the player withdrew mid-round, the hand its table closed after
    if too few were left, and whether the round is over (closed).

    Leaving comes first in the why: a player who withdrew from a table that then
    closed, in a round later forced, is incomplete because they withdrew.
    """
    if played >= hands:
        return COMPLETE, ""
    if left_after is not None and left_after < hands:
        return INCOMPLETE, WITHDREW
    if ended_after is not None:
        return INCOMPLETE, SHORT
    if over:
        return INCOMPLETE, FORCED
    return UNDER_WAY, ""


@dataclass(frozen=True)
class SetRecord:
    """One entry's result at one table in one round (a "set")."""

    entry: int
    round: int
    table: int  # table number within the round
    total: int  # set total so far: hand scores, director penalties included
    hands_won: int  # hands this entry went out in
    penalty_points: int  # director penalties in this set (over-call, false laydown, challenge)
    state: str = COMPLETE  # one of SET_STATES
    hands_missing: int = 0  # an incomplete set: the hands of the set it did not play
    why: str = ""  # an incomplete set: one of WHY_INCOMPLETE (shown; ranking ignores it)
    # A set its table could not finish, completed once its round closed by adjusted
    # scores for the hands unplayed (`game.adjusted`): in `total`, and complete.
    adjusted: tuple[Adjustment, ...] = ()

    def __post_init__(self) -> None:
        if self.state not in SET_STATES:
            raise ValueError(f"a set is {', '.join(SET_STATES)}, not {self.state!r}")
        if self.state == INCOMPLETE and self.hands_missing < 1:
            raise ValueError("an incomplete set misses at least one hand")
        if self.state != INCOMPLETE and self.hands_missing:
            raise ValueError(f"a set {self.state} has no hands missing")
        if self.adjusted and self.state != COMPLETE:
            raise ValueError("only a set its adjusted scores complete has adjusted scores")

    @property
    def adjusted_hands(self) -> int:
        return len(self.adjusted)

    @property
    def at_fault_hands(self) -> int:
        return sum(1 for a in self.adjusted if a.at_fault)

    @property
    def complete(self) -> bool:
        return self.state == COMPLETE

    @property
    def incomplete(self) -> bool:
        return self.state == INCOMPLETE


@dataclass(frozen=True)
class EntryRecord:
    entry: int
    withdrawn: bool = False
    # Points the entry starts with (a series final's carried-over score): added to its
    # total before any set is played.
    carried: int = 0
    # The number the entry draws by where it is not `entry`: an event published from a
    # venue draws by the venue's ids, so the site breaks a tie as the venue does.
    drawn_as: int | None = None


# --- Tiebreaks and the draw ------------------------------------------------------------


def check_tiebreaks(tiebreaks: Sequence[str]) -> tuple[str, ...]:
    """The tiebreak chain as applied: every name known and used once, "draw" last.

    "draw" is appended when missing; a name after "draw" or a repeated name could
    never decide anything, so it is reported as the mistake it surely is.
    """
    if isinstance(tiebreaks, str) or not isinstance(tiebreaks, Iterable):
        raise ValueError(
            say("tiebreaks must be a list of names, not %(value)s", value=repr(tiebreaks))
        )
    names = tuple(tiebreaks)
    unknown = [name for name in names if name not in TIEBREAKS]
    if unknown:
        shown = ", ".join(repr(name) for name in unknown)
        raise ValueError(
            say(
                "unknown tiebreaks %(unknown)s; known: %(known)s",
                unknown=shown,
                known=", ".join(TIEBREAKS),
            )
        )
    repeated = sorted({name for name in names if names.count(name) > 1}, key=names.index)
    if repeated:
        raise ValueError(
            say("tiebreaks named more than once: %(names)s", names=", ".join(repeated))
        )
    if "draw" in names and names[-1] != "draw":
        raise ValueError(say("'draw' settles every tie left, so it must be the last tiebreak"))
    return names if names[-1:] == ("draw",) else (*names, "draw")


def draw_key(entry: int, draw_seed: int | str = 0) -> str:
    """The entry's ticket in the seeded draw: lower draws first.

    A hash of (seed, entry id), so the same seed always gives the same order, on any
    machine and whatever order the rows came in (never Python's salted hash()). With
    the event's seed revealed, anyone can recompute it: the first 16 hex digits of
    SHA-256 of "SEED:ENTRY_ID".
    """
    return hashlib.sha256(f"{draw_seed}:{entry}".encode()).hexdigest()[:16]


def table_draw_key(round_number: int, table: int, draw_seed: int | str = 0) -> str:
    """A table's ticket in the draw for a knockout place left over when places follow
    the seats (lower first): SHA-256 of "SEED:round R:table T", as checkable as an
    entry's."""
    return hashlib.sha256(f"{draw_seed}:round {round_number}:table {table}".encode()).hexdigest()[
        :16
    ]


def new_draw_seed() -> str:
    """A secret draw seed: 256 random bits as 64 hex digits, so nobody can foresee (or
    search for) the draw before the seed is revealed."""
    return secrets.token_hex(32)


def draw_commitment(draw_seed: int | str) -> str:
    """What is shown before play: the lowercase hex SHA-256 of the seed's UTF-8 bytes.
    Once the seed is revealed, anyone can check it against this."""
    return hashlib.sha256(str(draw_seed).encode()).hexdigest()


# --- Ranking ---------------------------------------------------------------------------


def rank(
    *,
    format: str,
    sets: Iterable[SetRecord],
    entries: Iterable[EntryRecord],
    table_points: Sequence[float] = DEFAULT_TABLE_POINTS,
    advance_per_table: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    draw_seed: int = 0,
    rounds_closed: int | None = None,
    even_places: bool = False,
) -> list[Ranked]:
    """Every entry ranked 1..n, best first, whatever order the records come in.

    The format's criterion comes first, then the tiebreak chain (a name the format
    already applied is skipped), then the seeded draw:
    - total: more sets played, fewer hands missing from incomplete sets, fewer
      points, chain.
    - table-points: more placement points (`placement_points` at each table among
      its complete and live sets, live places for a set in play; an incomplete set
      earns the scale's lowest value), more sets played, fewer hands missing, fewer
      points, chain.
    - knockout: in each decided round, the best `advance_per_table` complete sets at
      each table go through (a withdrawn player's only if they played a later round:
      one who withdrew after the round hands the place to the next best); a tie at
      the cut goes to the lower set total, then the chain's set-level keys in the
      chain's order (more hands won, fewer penalty points in that set), then the
      draw. The others go out in that round, incomplete sets always; places a
      table cannot fill (fewer complete sets than places) go to the best of the round
      who did not go through, by their place at their table, then as at the cut.
      Ranked: those still in first, by the latest round they played (later first),
      a live set before an incomplete one, their place at their table in it, their
      set total in it, then the chain; then those out, by the round they went out in
      (later first), a complete set before an incomplete one (fewer hands missing
      first) before no set, their set total in it; then fewer hands missing over the
      event, then the chain.
      A round is decided when its number is at most `rounds_closed`; a round in play
      eliminates nobody yet, its places only order those still in. With
      `rounds_closed=None` every round with sets counts as decided.
      An entry still in that has no set in a decided round others played: if it is
      withdrawn, it goes out in that round (after all who played it); otherwise it
      stays in (a bye), ranked by the latest round it did play. Sets of an entry
      already out do not count at later tables' cuts (they still add to its totals).

    With `even_places` the knockout's places follow the seats: a table of k sends
    through k/4 of `advance_per_table` on average (`ranking_keys.places_by_table`; the
    places left over drawn by table with the event's seed), so a table of three or five
    gives nobody a better or worse chance than a table of four.
    `table_points` (the scale for tables of its length, see `scale_for`) are computed
    for table-points, or when the chain names "table_points"; otherwise reported as 0.
    `rounds_closed` matters to knockout only. Withdrawn entries are ranked by the
    same rules as everyone; their status is "withdrawn".
    """
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; known: {', '.join(FORMATS)}")
    if isinstance(advance_per_table, bool) or not isinstance(advance_per_table, int):
        raise ValueError(f"advance_per_table must be a whole number, not {advance_per_table!r}")
    if advance_per_table < 1:
        raise ValueError(f"advance_per_table must be at least 1, not {advance_per_table}")
    if rounds_closed is not None and (not isinstance(rounds_closed, int) or rounds_closed < 0):
        raise ValueError(f"rounds_closed must be a round number or None, not {rounds_closed!r}")
    chain = check_tiebreaks(tiebreaks)
    scale = check_scale(table_points)

    tallies = _tallies(entries, draw_seed)
    tables = _tables(sets, tallies)
    if format == "table-points" or "table_points" in chain:
        add_table_points(tables, tallies, scale)

    if format == "knockout":
        table_draw = (lambda r, t: table_draw_key(r, t, draw_seed)) if even_places else None
        fates = knockout(tables, tallies, chain, advance_per_table, rounds_closed, table_draw)
    else:
        fates = {}
    return ordered(format, tallies, fates, chain)


def _tallies(entries: Iterable[EntryRecord], draw_seed: int) -> dict[int, Tally]:
    tallies: dict[int, Tally] = {}
    for record in entries:
        if not isinstance(record, EntryRecord):
            raise TypeError(f"entries must be EntryRecords, not {type(record).__name__}")
        if record.entry in tallies:
            raise ValueError(f"entry {record.entry} is listed more than once")
        draw = draw_key(record.entry if record.drawn_as is None else record.drawn_as, draw_seed)
        tallies[record.entry] = Tally(record.entry, record.withdrawn, draw, points=record.carried)
    return tallies


def _tables(
    sets: Iterable[SetRecord], tallies: Mapping[int, Tally]
) -> dict[tuple[int, int], list[SetRecord]]:
    """The sets by (round, table), each entry's totals added up on the way."""
    tables: dict[tuple[int, int], list[SetRecord]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for record in sets:
        if not isinstance(record, SetRecord):
            raise TypeError(f"sets must be SetRecords, not {type(record).__name__}")
        tally = tallies.get(record.entry)
        if tally is None:
            where = f"round {record.round}, table {record.table}"
            raise ValueError(f"a set ({where}) is for entry {record.entry}, not in the entries")
        if (record.entry, record.round) in seen:
            # One seat per round: a second set is a double count, not a result.
            raise ValueError(f"entry {record.entry} has more than one set in round {record.round}")
        seen.add((record.entry, record.round))
        tables[record.round, record.table].append(record)
        tally.points += record.total
        tally.sets_played += 1
        tally.sets_incomplete += record.incomplete
        tally.hands_missing += record.hands_missing
        tally.hands_won += record.hands_won
        tally.penalty_points += record.penalty_points
        tally.adjusted_hands += record.adjusted_hands
        tally.at_fault_hands += record.at_fault_hands
        if record.complete and (tally.best_set is None or record.total < tally.best_set):
            tally.best_set = record.total
    return tables


# --- Ranking on top of the closed rounds' tallies ----------------------------------------


@dataclass(frozen=True)
class ClosedTally:
    """One entry's results over a set of closed rounds, added up once (`closed_tallies`):
    what `rank_on_closed` starts from instead of walking those rounds' sets again."""

    points: int = 0
    table_points: Fraction = Fraction(0)
    sets_played: int = 0
    sets_incomplete: int = 0
    hands_missing: int = 0
    hands_won: int = 0
    penalty_points: int = 0
    adjusted_hands: int = 0
    at_fault_hands: int = 0
    best_set: int | None = None


# The figures a closed tally keeps; all but the best set and the placement points
# (added once the live tables' shares are known) are added to the live tally as they are.
CLOSED_FIGURES = tuple(f.name for f in fields(ClosedTally))
ADDED_UP = tuple(name for name in CLOSED_FIGURES if name not in ("table_points", "best_set"))


def closed_tallies(
    *,
    sets: Iterable[SetRecord],
    table_points: Sequence[float] = DEFAULT_TABLE_POINTS,
    with_table_points: bool = True,
) -> dict[int, ClosedTally]:
    """entry -> its tally over `sets` (the sets of rounds that can no longer change),
    with its placement points at those tables (`with_table_points`). Carried points
    are not in it: `rank_on_closed` adds them from the entries."""
    records = list(sets)
    tallies = {r.entry: Tally(r.entry, False, "") for r in records}
    tables = _tables(records, tallies)
    if with_table_points:
        add_table_points(tables, tallies, check_scale(table_points))
    return {
        entry: ClosedTally(**{name: getattr(t, name) for name in CLOSED_FIGURES})
        for entry, t in tallies.items()
    }


def rank_on_closed(
    *,
    format: str,
    closed: Mapping[int, ClosedTally],
    sets: Iterable[SetRecord],
    entries: Iterable[EntryRecord],
    table_points: Sequence[float] = DEFAULT_TABLE_POINTS,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    draw_seed: int = 0,
) -> list[Ranked]:
    """The same ranking as `rank` over the closed rounds' sets and `sets` together, from
    the closed rounds' tallies (`closed_tallies`, made with the same scale) and the sets
    of the rounds still in play only: the work grows with the round in play, not with
    the event. Total and table-points only: a knockout needs every round's tables."""
    if format == "knockout":
        raise ValueError("a knockout ranks from every round's sets: use rank")
    chain = check_tiebreaks(tiebreaks)
    scale = check_scale(table_points)
    tallies = _tallies(entries, draw_seed)
    for entry, base in closed.items():
        tally = tallies.get(entry)
        if tally is None:
            raise ValueError(f"a closed round's tally is for entry {entry}, not in the entries")
        for name in ADDED_UP:
            setattr(tally, name, getattr(tally, name) + getattr(base, name))
        tally.best_set = base.best_set
    tables = _tables(sets, tallies)  # the best set: the lower of the closed and live ones
    if format == "table-points" or "table_points" in chain:
        add_table_points(tables, tallies, scale)  # the live tables' shares
        for entry, base in closed.items():
            tallies[entry].table_points += base.table_points
        denominator = math.lcm(1, *{t.table_points.denominator for t in tallies.values()})
        for tally in tallies.values():
            value = tally.table_points
            tally.table_points_over = value.numerator * (denominator // value.denominator)
    return ordered(format, tallies, {}, chain)


def rank_standings(
    *,
    format: str,
    sets: Iterable[SetRecord],
    entries: Iterable[EntryRecord],
    closed: Mapping[int, ClosedTally] | None = None,
    table_points: Sequence[float] = DEFAULT_TABLE_POINTS,
    advance_per_table: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    draw_seed: int = 0,
    rounds_closed: int | None = None,
    even_places: bool = False,
) -> list[Ranked]:
    """The one entry point a standings rebuild calls: on the closed rounds' tallies when
    it has them (`closed`, total and table points: `rank_on_closed`, whose result is the
    same as `rank`'s over every set), else from every set (`rank`)."""
    shared = {
        "format": format,
        "sets": sets,
        "entries": entries,
        "table_points": table_points,
        "tiebreaks": tiebreaks,
        "draw_seed": draw_seed,
    }
    if closed is not None:
        return rank_on_closed(closed=closed, **shared)
    return rank(
        advance_per_table=advance_per_table,
        rounds_closed=rounds_closed,
        even_places=even_places,
        **shared,
    )
