"""The standings document a rebuild keeps for the pages and the API, made from the rows
it has just ranked and written rather than read back from the database, and from the
document it made last wherever a row has not changed (after one hand: the players at
its table, those they passed, and their neighbours' tie notes).

The document is what `core.standings.selectors.build_standings` would read at the new
version, row for row (`tests/core/test_standings_document.py` holds them side by side);
it is built once the rebuild commits and before its version is announced, so a 4,096-
player field's new version reaches the pages without 0.3-0.4 s of reading and tie
notes (docs/benchmarks.md, "A national championship, fifth pass").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from django.conf import settings
from django.utils.module_loading import import_string

from core.caching import (
    ProcessCopies,
    claim_all,
    holding_claims,
    keep_claimed,
    let_go,
    versioned,
)
from core.entries.selectors import replacements
from core.standings.selectors import (
    PlayerRef,
    StandingRow,
    Standings,
    build_standings,
    labelled_row,
    player_refs,
    standing_row,
    standings_key,
    standings_round,
    withdrawn,
)
from core.standings.stored import StoredRow, only_moved
from core.standings.ties import moved, with_tie_notes
from scoring.models import STANDING_FIGURES
from tournaments.models import Event, Round

log = logging.getLogger(__name__)


class Source(NamedTuple):
    """What a document's row was made from, the row (without its tie note) and its
    index in the document."""

    made_from: tuple  # (its stored row, its player, their name as listed, who replaced them)
    row: StandingRow
    index: int


@dataclass(frozen=True)
class Made:
    """A document as its rebuild made it, and what each row was made from."""

    round: int  # the round's id
    format: str  # the event's: which score ties are told on
    players: dict[int, tuple]  # entry -> (player id, name, club, country)
    refs: dict[int, PlayerRef]  # player id -> as the lists name them
    sources: dict[int, Source]  # entry -> its row's
    rows: tuple[StandingRow, ...]  # in rank order, with their tie notes: the document's


# The document the latest rebuild in this process made, by event: at 4,096 players about
# 0.3 s of a rebuild's 0.6 s is saved by making only its changed rows again
# (docs/benchmarks.md, "A national championship, fifth pass"). It shares its rows with
# the rows the rebuild keeps (`core.standings.rebuild.WRITTEN_ROWS`).
MADE = ProcessCopies(
    "the standings document the last rebuild made",
    size=4,
    why="docs/benchmarks.md: a new version's document made from the rebuild",
    max_bytes=64 * 2**20,
)


def keep_rebuilt(
    event: Event,
    round_: Round,
    wanted: dict[int, StoredRow],
    players: dict[int, tuple],
    announce: Callable[[], None],
) -> None:
    """Once a rebuild commits: the document of its version built from what it wrote
    (`wanted`: entry -> its row; `players`: entry -> its player), unless another process
    built it first; then what is made from it at every version (settings.
    STANDINGS_PRODUCTS: the standings API's whole list, the leaderboard's first page),
    from the document in hand; then `announce` (the version to live pages), whatever
    happened before it; then the document kept in the cache every web process reads
    (`made_standings`), then the rest of the products' work.

    A product is called with the event and the document before the announcement; what
    it returns, if anything, is called after it (the rest of its work, which readers
    wait for: the API's list, whose claim it took). A product that fails is logged and
    left to the page that needs it (it is made there as before)."""
    rest = []
    with holding_claims():  # readers wait for the claims taken here: this waits for none
        try:
            made, rest = made_standings(event, round_, wanted, players)
            rest += made_before(event, made)  # the document kept first: most readers need it
        finally:
            try:
                announce()
            finally:  # what was claimed is made, or let go, whatever the announcement did
                made_after(event, rest)


def made_standings(
    event: Event, round_: Round, wanted: dict[int, StoredRow], players: dict[int, tuple]
) -> tuple[Standings, list[Callable[[], None]]]:
    """The document of the rebuild's version, and what is left to do to keep it. Claimed
    in the shared cache before the version is announced, so that a reader at the new
    version waits for it rather than make it too, and kept after the announcement, so
    that the pages are not held for pickling it (a 4,096-player
    document: 1.6 MB, about 30 ms; docs/benchmarks.md, "The document kept after the
    announcement"). Kept already, or claimed by a process that read the new version
    first: that one's, as every reader takes it."""
    key = standings_key(event)
    if not claim_all([key]):
        return versioned(key, lambda: rebuilt_standings(event, round_, wanted, players)), []
    try:
        made = rebuilt_standings(event, round_, wanted, players)
    except BaseException:
        let_go(key)  # its readers make it
        raise
    return made, [partial(keep_claimed, key, made)]


def made_before(event: Event, standings: Standings) -> list[Callable[[], None]]:
    """Each product made from `standings` (a failing one logged), and what they left to
    do once the version is announced."""
    rest = []
    for product in standings_products():
        try:
            later = product(event, standings)
        except Exception:
            log.exception("made at standings version %s of %s: not kept", standings.version, event)
        else:
            rest += [later] if later is not None else []
    return rest


def made_after(event: Event, rest: list[Callable[[], None]]) -> None:
    """What the products left to do after the announcement, each whatever the others did."""
    for later in rest:
        try:
            later()
        except Exception:
            log.exception(
                "made after standings version %s of %s: not kept", event.standings_version, event
            )


def standings_products() -> list:
    return [import_string(path) for path in settings.STANDINGS_PRODUCTS]


def rebuilt_standings(
    event: Event, round_: Round, wanted: dict[int, StoredRow], players: dict[int, tuple]
) -> Standings:
    """The standings after `round_` (the latest round with standings: the rebuild has
    just written them) at the event's version, as `build_standings` reads them: 1 query
    (that no later round has standings), 2 where a row is withdrawn (who replaced them)."""
    if not wanted or standings_round(event) != round_:  # another round's are shown
        return build_standings(event, None)
    before = MADE.get(event.pk)
    if before is not None and (before.round, before.format) != (round_.pk, event.format):
        before = None
    if before is not None and before.players == players:
        refs = before.refs
    else:
        refs = player_refs((pid, name, club) for pid, name, club, _ in players.values())
    subs = {}
    if any(withdrawn(row.status) for row in wanted.values()):
        subs = replacements(event)
    sources, plain, keys, origins = {}, [], [], []
    for entry, stored in sorted(wanted.items(), key=lambda item: item[1].rank):
        pid = players[entry][0]
        source = (stored, players[entry], refs[pid], refs.get(subs.get(pid, 0)))
        was = before.sources.get(entry) if before is not None else None
        if was is not None and was.made_from == source:
            row, origin = was.row, was.index
        elif (
            was is not None
            and was.made_from[1:] == source[1:]
            and only_moved(was.made_from[0], stored)
        ):
            row, origin = moved(was.row, stored.rank, stored.movement), was.index
        else:
            made = standing_row(stored_values(stored, players[entry]))
            row, origin = labelled_row(made, refs, subs), None
        sources[entry] = Source(source, row, len(plain))
        plain.append(row)
        keys.append(stored.tiebreaks)
        origins.append(origin)
    last = (before.rows, origins) if before is not None else None
    rows = with_tie_notes(event, plain, keys, last)
    MADE.put(event.pk, Made(round_.pk, event.format, players, refs, sources, rows))
    closed = round_.status == Round.Status.CLOSED
    return Standings(
        version=event.standings_version,
        round=round_.number,
        round_closed=closed,
        final=closed and event.status == Event.Status.FINISHED,
        rows=rows,
    )


def stored_values(stored: StoredRow, player: tuple) -> tuple:
    """A written row and its player as `standing_row` takes them (`ROW_FIELDS`)."""
    return (
        stored.rank,
        *player,
        *(getattr(stored, name) for name in STANDING_FIGURES),
        stored.movement,
        stored.status,
        stored.incomplete,
        stored.adjusted,
    )
