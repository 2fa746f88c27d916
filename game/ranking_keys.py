"""How the ranking puts tallied entries in order, once their sets are added up: each
entry's tally, the placement points shared out at each table, the knockout's
advancement round by round (who goes through at each table of a decided round, and
where each entry stands), and the keys that order the tallies (the format's first,
then the tiebreak chain's) into the Ranked rows `game.ranking.rank` returns. Plain
data, no Django; the rules themselves are in `game.ranking`'s docstring.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from game.rules import set_result
from game.table_points import PlacedSet, places_of, tied_share

STATUSES: tuple[str, ...] = ("active", "eliminated", "withdrawn")


class TalliedSet(PlacedSet, Protocol):
    """One entry's set at a table, as `game.ranking.SetRecord` gives it: what the
    placement points and the knockout read."""

    hands_won: int
    penalty_points: int
    hands_missing: int


@dataclass(frozen=True)
class Ranked:
    entry: int
    rank: int  # 1..n, never shared
    points: int  # total of set totals
    table_points: float  # placement points summed over sets; 0 when not computed (see rank)
    sets_played: int
    sets_incomplete: int  # of sets_played, those over without all their hands
    hands_missing: int  # the hands those incomplete sets did not play
    hands_won: int
    penalty_points: int
    best_set: int | None  # lowest complete set total; None without a complete set
    adjusted_hands: int  # hands scored by adjustment (game.adjusted), in `points`
    at_fault_hands: int  # of those, hands adjusted at fault
    status: str  # one of STATUSES
    eliminated_in: int | None  # knockout: the round the entry went out in
    # knockout: the rounds in which the entry went through on a place another table
    # could not fill (fewer complete sets there than places), as the best of the rest
    filled_in: tuple[int, ...]
    # The sort key as (name, value) pairs, in the order applied: JSON-friendly, for
    # display and for a director asking "why is she above me?".
    tiebreaks: tuple[tuple[str, int | float | str | bool | None], ...]


@dataclass
class Tally:
    """One entry's results over the event, added up while the sets are read."""

    entry: int
    withdrawn: bool
    draw: str
    points: int = 0
    table_points: Fraction = Fraction(0)
    table_points_over: int = 0  # the same over this ranking's common denominator: sorts fast
    sets_played: int = 0
    sets_incomplete: int = 0
    hands_missing: int = 0
    hands_won: int = 0
    penalty_points: int = 0
    best_set: int | None = None
    adjusted_hands: int = 0
    at_fault_hands: int = 0


@dataclass(frozen=True)
class _Fate:
    """Where an entry stands in a knockout: still in, or out in a round."""

    eliminated_in: int | None
    round: int | None  # the elimination round, or (still in) the latest round played
    place: int | None  # still in: its place at its table in that round
    total: int | None  # its set total in that round (None: it did not play it)
    missing: int = 0  # the hands its set in that round did not play (incomplete sets)
    filled_in: tuple[int, ...] = ()  # rounds it went through on a place left over


Key = list[tuple[str, object, object]]  # (name, sort value, value shown)


def ordered(
    format: str, tallies: Mapping[int, Tally], fates: Mapping[int, _Fate], chain: tuple[str, ...]
) -> list[Ranked]:
    """The tallies in order, best first, each with its rank and the keys that placed it."""
    keyed = []
    for tally in tallies.values():
        fate = fates.get(tally.entry)
        key = _format_key(format, tally, fate)
        applied = {name for name, _, _ in key}
        key += [_chain_item(tally, name) for name in chain if name not in applied]
        keyed.append((tuple(sort for _, sort, _ in key), tally.entry, tally, fate, key))
    keyed.sort(key=lambda item: (item[0], item[1]))

    ranked = []
    for position, (_, _, tally, fate, key) in enumerate(keyed, 1):
        eliminated_in = fate.eliminated_in if fate else None
        if tally.withdrawn:
            status = "withdrawn"
        else:
            status = "active" if eliminated_in is None else "eliminated"
        ranked.append(
            Ranked(
                entry=tally.entry,
                rank=position,
                points=tally.points,
                table_points=float(tally.table_points),
                sets_played=tally.sets_played,
                sets_incomplete=tally.sets_incomplete,
                hands_missing=tally.hands_missing,
                hands_won=tally.hands_won,
                penalty_points=tally.penalty_points,
                best_set=tally.best_set,
                adjusted_hands=tally.adjusted_hands,
                at_fault_hands=tally.at_fault_hands,
                status=status,
                eliminated_in=eliminated_in,
                filled_in=fate.filled_in if fate else (),
                tiebreaks=tuple((name, shown) for name, _, shown in key),
            )
        )
    return ranked


def add_table_points(
    tables: Mapping[tuple[int, int], list[TalliedSet]],
    tallies: Mapping[int, Tally],
    scale: tuple[Fraction, ...],
) -> None:
    # Each share is named by (table size, place, entries tied): a few distinct ones,
    # turned into integers over one common denominator and added as such. Exact, and
    # far quicker than adding (or hashing) thousands of Fractions.
    # An incomplete set earns the scale's lowest value, named (0, 0, 0).
    earned: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    named: set[tuple[int, int, int]] = set()
    for sets in tables.values():
        size = len(sets)
        played = {s.entry: s.total for s in sets if not s.incomplete}
        for place, tied in set_result(played).places:
            share = (size, place, len(tied))
            named.add(share)
            for entry in tied:
                earned[entry].append(share)
        for s in sets:
            if s.incomplete:
                earned[s.entry].append(_LOWEST)
    shares = {share: tied_share(*share, scale) for share in named}
    shares[_LOWEST] = scale[-1]
    denominator = math.lcm(*{value.denominator for value in shares.values()})
    whole = {share: int(value * denominator) for share, value in shares.items()}
    for entry, entry_shares in earned.items():
        tally = tallies[entry]
        tally.table_points_over = sum(whole[share] for share in entry_shares)
        tally.table_points = Fraction(tally.table_points_over, denominator)


def places_by_table(
    sizes: Mapping[int, int], advance: int, draw: Callable[[int], str]
) -> dict[int, int]:
    """table -> the places it sends through when places follow the seats: a table of k
    stands for k/4 of a table of four's `advance` places; the round's places (the sum,
    rounded half up) go first to each table's whole share, then the ones left to the
    tables with the largest remainders, ties by the draw (`draw(table)`). So a seat is
    worth the same on average at any table: at a three with one place a table in four
    sends nobody, at a five one in four sends two."""
    quotas = {table: Fraction(advance * size, 4) for table, size in sizes.items()}
    total = math.floor(sum(quotas.values(), Fraction(0)) + Fraction(1, 2))
    places = {table: math.floor(quota) for table, quota in quotas.items()}
    left = total - sum(places.values())
    order = sorted(quotas, key=lambda t: (-(quotas[t] - places[t]), draw(t), t))
    for table in order[: max(left, 0)]:
        places[table] += 1
    return places


def knockout(
    tables: Mapping[tuple[int, int], list[TalliedSet]],
    tallies: Mapping[int, Tally],
    chain: tuple[str, ...],
    advance: int,
    rounds_closed: int | None,
    table_draw: Callable[[int, int], str] | None = None,
) -> dict[int, _Fate]:
    """Each entry's fate (`game.ranking.rank` says the rules). With `table_draw` (round,
    table -> a ticket), places follow the seats (`places_by_table`); without, every
    table sends `advance` through."""
    by_round: dict[int, list[list[TalliedSet]]] = defaultdict(list)
    for (round_number, _), sets in tables.items():
        by_round[round_number].append(sets)
    # entry -> (round it went out in, its set total, hands its set missed)
    out: dict[int, tuple[int, int | None, int]] = {}
    latest: dict[int, tuple[int, int, int, int]] = {}  # still in -> round, place, total, missing
    filled: dict[int, list[int]] = defaultdict(list)  # entry -> rounds it filled a place in
    withdrawn = [t.entry for t in tallies.values() if t.withdrawn]
    last_set: dict[int, int] = {}  # entry -> the latest round it has a set in
    for (round_number, _), sets in tables.items():
        for s in sets:
            last_set[s.entry] = max(last_set.get(s.entry, 0), round_number)

    def cut_key(s: TalliedSet) -> tuple:
        # At one table the points, the best set and the table points all follow the set
        # total, so only the chain's other keys can split a tie at the cut.
        key: list[object] = [s.total]
        for name in chain:
            if name == "hands_won":
                key.append(-s.hands_won)
            elif name == "penalty_points":
                key.append(s.penalty_points)
            elif name == "draw":
                key.append(tallies[s.entry].draw)
        return (*key, s.entry)

    for round_number in sorted(by_round):
        decided = rounds_closed is None or round_number <= rounds_closed
        played: set[int] = set()
        through: set[int] = set()
        left_over: list[tuple[tuple, TalliedSet]] = []  # eligible, not through at their table
        places_left = 0
        round_sets: list[TalliedSet] = []
        share = {sets[0].table: advance for sets in by_round[round_number]}
        if table_draw is not None:
            share = places_by_table(
                {sets[0].table: len(sets) for sets in by_round[round_number]},
                advance,
                lambda table, r=round_number: table_draw(r, table),
            )
        for sets in by_round[round_number]:
            played.update(s.entry for s in sets)
            places_here = share[sets[0].table]
            contenders = [s for s in sets if s.entry not in out]
            round_sets.extend(contenders)
            places = places_of(contenders)
            for s in contenders:
                latest[s.entry] = (round_number, places[s.entry], s.total, s.hands_missing)
            if decided:
                # Only a complete set can go through, and never a withdrawn player's,
                # unless they did play on: a withdrawal between rounds hands the place
                # to the next best, a later one leaves the earlier rounds as they were.
                eligible = sorted(
                    (
                        s
                        for s in contenders
                        if not s.incomplete
                        and (not tallies[s.entry].withdrawn or last_set[s.entry] > round_number)
                    ),
                    key=cut_key,
                )
                through.update(s.entry for s in eligible[:places_here])
                places_left += min(places_here, len(contenders)) - len(eligible[:places_here])
                left_over.extend(
                    ((places[s.entry], *cut_key(s)), s) for s in eligible[places_here:]
                )
        if decided:
            # A table that sends fewer than its places through (sets cut short,
            # withdrawals) leaves them to the best of the round who did not go through:
            # by their place at their table, then as at the cut. So a knockout never
            # stalls for want of players while enough remain.
            for _, s in sorted(left_over, key=lambda pair: pair[0])[:places_left]:
                through.add(s.entry)
                filled[s.entry].append(round_number)
            for s in round_sets:
                if s.entry not in through:
                    out[s.entry] = (round_number, s.total, s.hands_missing)
        if decided:
            for entry in withdrawn:
                if entry not in out and entry not in played:
                    out[entry] = (round_number, None, 0)

    fates = {}
    for entry in tallies:
        rounds_filled = tuple(filled.get(entry, ()))
        if entry in out:
            round_number, total, missing = out[entry]
            fates[entry] = _Fate(round_number, round_number, None, total, missing, rounds_filled)
        elif entry in latest:
            fates[entry] = _Fate(None, *latest[entry], filled_in=rounds_filled)
        else:
            fates[entry] = _Fate(None, None, None, None, filled_in=rounds_filled)
    return fates


def _format_key(format: str, tally: Tally, fate: _Fate | None) -> Key:
    played = ("sets_played", -tally.sets_played, tally.sets_played)
    missing = ("hands_missing", tally.hands_missing, tally.hands_missing)
    if format == "total":
        return [played, missing, _chain_item(tally, "points")]
    if format == "table-points":
        return [_chain_item(tally, "table_points"), played, missing, _chain_item(tally, "points")]
    assert fate is not None
    last = math.inf  # no place or total: after everyone who has one
    still_in = fate.eliminated_in is None
    return [
        ("still_in", not still_in, still_in),
        ("round", -(fate.round or 0), fate.round),
        # In the round that placed it: a complete (or live) set first, then an
        # incomplete one (fewer hands missing first), then no set at all.
        ("set_complete", 2 if fate.total is None else int(fate.missing > 0), fate.missing == 0),
        ("set_hands_missing", fate.missing, fate.missing),
        ("place", (fate.place or last) if still_in else 0, fate.place),
        ("set_total", last if fate.total is None else fate.total, fate.total),
        # Then, before the chain adds up every set: no hand missing anywhere first, so a
        # set cut short (even one played after going out) never lifts its entry.
        ("hands_missing", tally.hands_missing, tally.hands_missing),
    ]


_LOWEST = (0, 0, 0)  # the share an incomplete set earns: the scale's lowest value


def _chain_item(tally: Tally, name: str) -> tuple[str, object, object]:
    if name == "points":
        return name, tally.points, tally.points
    if name == "table_points":
        return name, -tally.table_points_over, float(tally.table_points)
    if name == "hands_won":
        return name, -tally.hands_won, tally.hands_won
    if name == "penalty_points":
        return name, tally.penalty_points, tally.penalty_points
    if name == "best_set":
        best = tally.best_set
        return name, (best is None, best or 0), best
    if name == "draw":
        return name, tally.draw, tally.draw
    raise ValueError(f"unknown tiebreak {name!r}")
