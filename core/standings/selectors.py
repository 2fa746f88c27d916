"""Reads of the standings as pages, the API and the exports show them: the round to
show, each row with its incomplete sets and tie notes, cached per standings version.
What a rebuild reads is in `core.standings.rebuild`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.caching import versioned, versioned_key
from core.entries.names import shown_names
from core.entries.selectors import replacements
from core.errors import Missing
from core.standings.ties import with_tie_notes
from core.words import listing, translated
from game import adjusted, ranking
from scoring.models import STANDING_FIGURES, Standing
from tournaments.models import Event, Round

# --- The standings as shown -------------------------------------------------------------


def standings_round(event: Event, number: int | None = None) -> Round | None:
    """The round whose standings to show: the one asked for, else the latest that has any."""
    # Exists, not a join: one row of the round's standings found by its index, not
    # every standing of the event gathered and made distinct (0.1 ms against 60 ms at
    # 4,096 players).
    rounds = Round.objects.filter(event=event).filter(
        Exists(Standing.objects.filter(round=OuterRef("pk")))
    )
    if number is not None:
        found = rounds.filter(number=number).first()
        if found is None:
            raise Missing(_("No standings for this round."))
        return found
    return rounds.order_by("-number").first()


@dataclass(frozen=True)
class PlayerRef:
    id: int
    name: str
    # The name as the event's lists show it: with the club (and a number) where another
    # player of the event has the same name (`core.entries.names`).
    shown: str = ""

    @property
    def label(self) -> str:
        return self.shown or self.name


# How an incomplete set is explained wherever it matters (pages, CSV, PDF, API), in
# the reader's language: the standings are cached, so the words are found when shown.
WHY_WORDS = {
    ranking.WITHDREW: gettext_lazy("withdrew"),
    ranking.SHORT: gettext_lazy("table closed: fewer than three players were left"),
    ranking.FORCED: gettext_lazy("forced close: the round was closed with hands missing"),
}


@dataclass(frozen=True)
class IncompleteSet:
    """A set that ended without all its hands, and why: it ranks after the round's
    complete sets (`game.ranking`)."""

    round: int
    table: int
    played: int
    hands: int
    why: str  # one of ranking.WHY_INCOMPLETE

    @property
    def reason(self) -> str:
        return str(WHY_WORDS.get(self.why, self.why))

    @property
    def text(self) -> str:
        """'round 2, table 1: 1 of 9 hands (withdrew)'."""
        return ngettext(
            "round %(round)s, table %(table)s: %(played)s of %(hands)s hands (%(reason)s)",
            "round %(round)s, table %(table)s: %(played)s of %(hands)s hands (%(reason)s)",
            self.hands,
        ) % {
            "round": self.round,
            "table": self.table,
            "played": self.played,
            "hands": self.hands,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class AdjustedHand:
    """A hand the player's table could not play, scored from the field once its round
    closed (`game.adjusted`)."""

    round: int
    table: int
    hand: int
    score: int
    at_fault: bool
    rule: str

    @property
    def text(self) -> str:
        """'round 2, table 4: hand 9 adjusted: 61, the field's mean'."""
        # The adjustment itself is worded by the rules (`game.adjusted`).
        return _("round %(round)s, table %(table)s: %(adjusted)s") % {
            "round": self.round,
            "table": self.table,
            "adjusted": translated(adjusted.words(self.hand, self.score, self.rule)),
        }


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: PlayerRef
    club: str
    country: str
    points: int
    table_points: float
    sets_played: int
    sets_incomplete: int  # of the sets played, those over without all their hands
    hands_won: int
    penalty_points: int
    best_set: int | None
    movement: int | None  # places gained since the previous round (None: new)
    status: str
    adjusted_hands: int = 0  # hands scored by adjustment, in `points`
    at_fault_hands: int = 0  # of them, adjusted at fault
    incomplete: tuple[IncompleteSet, ...] = ()  # its incomplete sets, round by round
    adjusted: tuple[AdjustedHand, ...] = ()  # its adjusted hands, round by round
    # Which tiebreak put it above or below a neighbour with the same score, as the
    # game's words (`game.tie_notes`): `tie_note` says them in the reader's language.
    tie: str = ""
    # A no-show a substitute replaced (withdrawn, `core.entries.event_day`): who.
    replaced_by: PlayerRef | None = None

    @property
    def tie_note(self) -> str:
        return translated(self.tie)

    @property
    def did_not_play(self) -> bool:
        """Replaced before playing a set: no place, points or sets of their own."""
        return self.replaced_by is not None and not self.sets_played

    @property
    def replaced_text(self) -> str:
        """'did not play: replaced by Jane Doe', 'replaced by Jane Doe' or ''."""
        if self.replaced_by is None:
            return ""
        values = {"name": self.replaced_by.label}
        if self.did_not_play:
            return _("did not play: replaced by %(name)s") % values
        return _("replaced by %(name)s") % values

    @property
    def status_text(self) -> str:
        """The status in words: 'did not play' or 'replaced' for a no-show a substitute
        replaced, else the status."""
        if self.replaced_by is None:
            return self.status
        return "did not play" if self.did_not_play else "replaced"

    @property
    def incomplete_text(self) -> str:
        """Every incomplete set in words, '; '-separated ("" when there is none)."""
        return listing((note.text for note in self.incomplete), "; ")

    @property
    def adjusted_text(self) -> str:
        """Every adjusted hand in words, '; '-separated ("" when there is none)."""
        return listing((note.text for note in self.adjusted), "; ")

    @property
    def name(self) -> str:
        """The name as the event's lists show it (namesakes told apart)."""
        return self.player.label

    @property
    def move(self) -> str:
        if self.movement is None:
            return "new"
        return "up" if self.movement > 0 else "down" if self.movement else "same"

    @property
    def move_by(self) -> int:
        return abs(self.movement) if self.movement else 0


@dataclass(frozen=True)
class Standings:
    """The standings after a round (API.md, "Standings")."""

    version: int
    round: int | None
    round_closed: bool
    # The event's final standings: it is finished (the director said so) and these
    # are after its last round.
    final: bool
    rows: tuple[StandingRow, ...]

    @property
    def count(self) -> int:
        return len(self.rows)

    def adjusted_tables(self) -> dict[int, list[int]]:
        """Round -> the tables where hands were adjusted, from the rows' notes."""
        found: dict[int, set[int]] = {}
        for row in self.rows:
            for note in row.adjusted:
                found.setdefault(note.round, set()).add(note.table)
        return {number: sorted(tables) for number, tables in sorted(found.items())}

    def tables_where(self, why: str) -> dict[int, list[int]]:
        """Round -> the tables whose sets ended incomplete for this reason (FORCED: the
        round was force-closed with hands missing there; SHORT: too few players were
        left), read from the rows' notes."""
        found: dict[int, set[int]] = {}
        for row in self.rows:
            for note in row.incomplete:
                if note.why == why:
                    found.setdefault(note.round, set()).add(note.table)
        return {number: sorted(tables) for number, tables in sorted(found.items())}

    @property
    def notices(self) -> list[str]:
        """Why some sets of these standings are incomplete, table by table, in words."""
        lines = []
        for number, tables in self.adjusted_tables().items():
            lines.append(
                _(
                    "In round %(round)s, hands not played at %(tables)s were scored from the "
                    "field: %(how)s"
                )
                % {
                    "round": number,
                    "tables": tables_text(tables),
                    "how": translated(adjusted.explained()),
                }
            )
        for number, tables in self.tables_where(ranking.FORCED).items():
            lines.append(
                _(
                    "Round %(round)s was closed with hands missing at %(tables)s (forced), "
                    "before hands were adjusted: the sets there are incomplete and rank after "
                    "the round's complete sets."
                )
                % {"round": number, "tables": tables_text(tables)}
            )
        for number, tables in self.tables_where(ranking.SHORT).items():
            lines.append(
                ngettext(
                    "In round %(round)s, %(tables)s closed early: fewer than three players "
                    "were left, so the sets there are incomplete until the round closes.",
                    "In round %(round)s, %(tables)s closed early: fewer than three players "
                    "were left, so the sets there are incomplete until the round closes.",
                    len(tables),
                )
                % {"round": number, "tables": tables_text(tables)}
            )
        return lines


def tables_text(numbers: list[int]) -> str:
    """'table 3' or 'tables 1, 2'."""
    if len(numbers) == 1:
        return _("table %(table)s") % {"table": numbers[0]}
    return _("tables %(tables)s") % {"tables": listing(numbers)}


ROW_FIELDS = (
    "rank",
    "entry__player_id",
    "entry__player__name",
    "entry__player__club",
    "entry__player__country",
    *STANDING_FIGURES,
    "movement",
    "status",
    "incomplete",
    "adjusted",
)


def standings_after(event: Event, number: int | None = None) -> Standings:
    """The standings after round `number` (default: the latest round that has any).

    Cached per standings version (and event status, which makes them final): a
    rebuild bumps the version, so a cached copy is never stale; while nothing changes,
    a read costs one cache hit (and the event's own row, which the caller has already
    loaded to check who may see it).
    """
    return versioned(standings_key(event, number), lambda: build_standings(event, number))


def standings_key(event: Event, number: int | None = None) -> str:
    """Where the standings after round `number` are cached, at the event's version."""
    return versioned_key("standings", event.pk, event.standings_version, event.status, number)


def standing_row(values: tuple) -> StandingRow:
    """A row of `ROW_FIELDS` values as a StandingRow."""
    rank, player_id, name, club, country, *figures, movement, status, incomplete, made = values
    figure = dict(zip(STANDING_FIGURES, figures, strict=True))
    figure["table_points"] = float(figure["table_points"])
    return StandingRow(
        rank=rank,
        player=PlayerRef(player_id, name),
        club=club,
        country=str(country or ""),
        movement=movement,
        status=status,
        incomplete=tuple(IncompleteSet(**note) for note in incomplete or ()),
        adjusted=tuple(AdjustedHand(**note) for note in made or ()),
        **figure,
    )


def build_standings(event: Event, number: int | None) -> Standings:
    """2 queries: the round, then its rows as plain values (3 for a round asked for by
    number in a finished event: whether it is the last; 1 more where a player has
    withdrawn: whether a substitute replaced them)."""
    round_ = standings_round(event, number)
    rows = (
        list(
            Standing.objects.filter(round=round_)
            .order_by("rank")
            .values_list(*ROW_FIELDS, "tiebreaks")  # the tiebreaks: for the tie notes
        )
        if round_
        else []
    )
    closed = round_ is not None and round_.status == Round.Status.CLOSED
    final = closed and event.status == Event.Status.FINISHED
    if final and number is not None:
        final = not event.rounds.filter(number__gt=round_.number).exists()
    return Standings(
        version=event.standings_version,
        round=round_.number if round_ else None,
        round_closed=closed,
        final=final,
        rows=with_tie_notes(
            event,
            labelled(event, [standing_row(values[:-1]) for values in rows]),
            [values[-1] for values in rows],
        ),
    )


def labelled(event: Event, rows: list[StandingRow]) -> list[StandingRow]:
    """The rows with each player's name as the event's lists show it (every entry has
    a row, so the namesakes are among them) and, for a no-show a substitute replaced,
    who replaced them: no query, 1 where a row is withdrawn. Rows with neither are
    kept as they are."""
    refs = player_refs((row.player.id, row.player.name, row.club) for row in rows)
    subs = replacements(event) if any(withdrawn(row.status) for row in rows) else {}
    return [labelled_row(row, refs, subs) for row in rows]


def player_refs(people: Iterable[tuple[int, str, str]]) -> dict[int, PlayerRef]:
    """Player id -> how the event's lists name them, from (id, name, club) of every
    entry's player: the name alone, or told apart from a namesake."""
    people = list(people)
    shown = shown_names(people)
    return {
        pid: PlayerRef(pid, name, shown[pid] if shown[pid] != name else "")
        for pid, name, _club in people
    }


def withdrawn(status: str) -> bool:
    return status == Standing.Status.WITHDRAWN


def labelled_row(row: StandingRow, refs: dict[int, PlayerRef], subs: dict[int, int]) -> StandingRow:
    """`row` named as `refs` name its player, with who replaced them (`subs`: no-show's
    player -> substitute's) if it is withdrawn; the row itself if neither changes it."""
    by = refs.get(subs.get(row.player.id, 0)) if withdrawn(row.status) else None
    ref = refs[row.player.id]
    if by is not None or ref != row.player:
        row = replace(row, player=ref, replaced_by=by)
    return row
