"""The public pages' reads: an event with its latest public round, the leaderboard, a
round's tables and a player's results across events. Each runs a fixed number of
queries whatever the event's size; the public pages cache what they return."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext as _

from core.common import the_row
from core.copies.selectors import copied_slug
from core.entries.selectors import namesakes_of
from core.errors import Missing
from core.events.access import User, visible_events
from core.events.selectors import round_with_seating, table_of
from core.publishing.selectors import last_published_change
from core.rounds.selectors import (
    FORCED,
    RoundProgress,
    round_progress,
    tables_progress,
    why_when_shown,
)
from core.screens.selectors import FieldRow, SeatingRow, field_of, seating_board
from core.series.final import carry_words
from core.standings.selectors import Standings, standings_after
from game import ranking, rules
from scoring.models import AdjustedScore, Hand, HandScore, Standing
from tournaments.models import (
    PLAYED_ROUND_STATUSES,
    Entry,
    Event,
    Player,
    Round,
    Seat,
    Series,
    Table,
)


def public_event(user: User, slug: str) -> Event:
    """The event if this user may see it, with its latest public round's number and
    status (`latest_round`, `latest_status`, None before any), and the public series
    whose grand final it is (`final_of_slug`, `_name`, `_season`; None if none), and
    its last change from the venue when it is published from one
    (`published_change_at`, for `core.publishing.selectors.public_note`): one query."""
    latest = Round.objects.filter(event=OuterRef("pk"), status__in=PLAYED_ROUND_STATUSES).order_by(
        "-number"
    )
    # The public series whose grand final it is: in the same query.
    final_of = Series.objects.filter(final=OuterRef("pk"), public=True)
    event = the_row(
        visible_events(user)
        .filter(slug=slug)
        .annotate(
            latest_round=Subquery(latest.values("number")[:1]),
            latest_status=Subquery(latest.values("status")[:1]),
            final_of_slug=Subquery(final_of.values("slug")[:1]),
            final_of_name=Subquery(final_of.values("name")[:1]),
            final_of_season=Subquery(final_of.values("season")[:1]),
            published_change_at=last_published_change(),
        )
    )
    if event is None:
        raise Missing(_("No such event."))
    return event


def check_round(event: Event, number: int) -> None:
    """A round the public may not see (not there, or only a draft seating) is a 404.
    `event` comes from `public_event`."""
    if event.latest_round is None or not 1 <= number <= event.latest_round:
        raise Missing(_("No such round."))


# --- The leaderboard ------------------------------------------------------------------


FIELD, SEATING, STANDINGS = "field", "seating", "standings"


@dataclass(frozen=True)
class Board:
    """What an event's page and projector show: before the first round the field (no
    ranks yet); from publishing a round until its first hand, where everyone sits;
    then the standings."""

    standings: Standings | None  # None in a frame (`board_frame`) only, never shown
    progress: RoundProgress | None  # the latest public round's
    show_table_points: bool
    phase: str = STANDINGS
    seating: tuple[SeatingRow, ...] = ()  # A to Z, while the phase is SEATING
    field: tuple[FieldRow, ...] = ()  # A to Z, while the phase is FIELD

    @property
    def rows(self) -> tuple:
        return self.standings.rows

    @property
    def entered(self) -> int:
        """The players in the field still active."""
        return sum(1 for row in self.field if not row.withdrawn)

    @property
    def carries(self) -> bool:
        """A series final's field: its entrants carry scores into it."""
        return any(row.carried for row in self.field)

    @property
    def round(self) -> int | None:
        return self.standings.round

    @property
    def round_closed(self) -> bool:
        return self.standings.round_closed

    @property
    def final(self) -> bool:
        return self.standings.final


def board(event: Event) -> Board:
    """The leaderboard: the standings in rank order and the latest round's progress,
    or the seating board, or the field: at most 5 queries (the standings or the field
    1 more once a player has withdrawn: whether a substitute replaced them; the seating
    1 more: the event's namesakes). `event` comes from `public_event`."""
    return replace(board_frame(event), standings=standings_after(event))


def board_frame(event: Event) -> Board:
    """The leaderboard without its standings (`standings` None): what the board adds to
    the standings document, small enough to keep apart from it (a 4,096-player
    document is 1.4 MB; `public.live.board` puts the two together). At most 4 queries."""
    progress, phase, seating, field = None, STANDINGS, (), ()
    if event.latest_round is None:
        phase, field = FIELD, field_of(event)
        if any(row.carried for row in field):  # a series' final: say where each carry is from
            words = carry_words(event, field)
            field = tuple(replace(row, carry_source=words.get(row.player, "")) for row in field)
    else:
        closed = event.latest_status == Round.Status.CLOSED
        progress = round_progress(event, event.latest_round, closed=closed)
        if not closed and not progress.started:
            phase, seating = SEATING, seating_board(event, event.latest_round)
    return Board(
        standings=None,
        progress=progress,
        show_table_points=event.format != Event.Format.TOTAL,
        phase=phase,
        seating=seating,
        field=field,
    )


# --- A round's tables -----------------------------------------------------------------


def round_board(event: Event, number: int) -> dict[str, Any]:
    """Every table of a public round with each seat's set total, place and hands won,
    adjusted scores included once the round is closed, namesakes told apart: 6 queries
    (7 once closed, 8 for a closed knockout round: who went through on a place another
    table left)."""
    check_round(event, number)
    round_ = round_with_seating(event, number)  # 3 queries
    names = namesakes_of(event)
    per_seat = {
        row["seat_id"]: row
        for row in HandScore.objects.filter(
            hand__table__round=round_, hand__outcome=Hand.Outcome.SCORED
        )
        .values("seat_id")
        .annotate(
            total=Sum("score"),
            won=Count("pk", filter=Q(hand__went_out_id=F("seat_id"))),
            played=Count("pk"),
        )
        .order_by()
    }
    progress = {t.number: t for t in tables_progress(event, number)}
    needed = event.rules.hand_count
    closed = round_.status == Round.Status.CLOSED
    made_up: dict[int, dict] = {}
    if closed:  # the hands its tables could not play, scored from the field
        made_up = {
            row["seat_id"]: row
            for row in AdjustedScore.objects.filter(seat__round=round_)
            .values("seat_id")
            .annotate(total=Sum("score"), count=Count("pk"))
            .order_by()
        }
    tables = []
    for table in round_.tables.all():
        seats = list(table.seats.all())
        totals = {
            s.position: ((per_seat.get(s.pk) or {}).get("total") or 0)
            + ((made_up.get(s.pk) or {}).get("total") or 0)
            for s in seats
        }
        result = rules.set_result(totals)
        place = {seat: result.place_of(seat) for seat in totals}
        state = progress[table.number]

        def incomplete(seat: Seat, table: Table = table) -> bool:
            set_state, _ = ranking.set_state(
                played=((per_seat.get(seat.pk) or {}).get("played") or 0)
                + ((made_up.get(seat.pk) or {}).get("count") or 0),
                hands=needed,
                left_after=seat.left_after_hand,
                ended_after=table.closed_after_hand,
                over=closed,
            )
            return set_state == ranking.INCOMPLETE

        tables.append(
            {
                "number": table.number,
                "hands_scored": state.entered,
                "finished": state.done,
                "playing": state.playing,
                "state": state.state,
                "why": why_when_shown(state),
                "seats": [
                    {
                        "seat": s.position,
                        "player": s.entry.player_id,
                        "name": names.get(s.entry.player_id, s.entry.player.name),
                        "total": totals[s.position],
                        "won": (per_seat.get(s.pk) or {}).get("won") or 0,
                        "place": place[s.position],
                        "left_after_hand": s.left_after_hand,
                        "incomplete": incomplete(s),
                        "adjusted": (made_up.get(s.pk) or {}).get("count") or 0,
                    }
                    for s in sorted(seats, key=lambda s: (place[s.position], s.position))
                ],
            }
        )
    filled = []
    if closed and event.format == Event.Format.KNOCKOUT:  # who took a place left over
        filled = [
            {"player": player, "name": names.get(player, name)}
            for player, name, rounds in Standing.objects.filter(round=round_)
            .order_by("rank")
            .values_list("entry__player_id", "entry__player__name", "filled_in")
            if round_.number in (rounds or ())
        ]
    return {
        "round": round_.number,
        "status": round_.status,
        "closed": closed,
        "filled": filled,
        "forced": any(t["state"] == FORCED for t in tables),
        "hands_needed": needed,
        "tables": tables,
        "finished": sum(1 for t in tables if t["finished"]),
    }


def public_table(event: Event, round_number: int, table_number: int) -> Table:
    """A table of a public round of this event (the caller's, with its latest round, as
    the table's): one query."""
    check_round(event, round_number)
    return table_of(event, round_number, table_number)


# --- A player across events -----------------------------------------------------------


def player_history(user: User, player_id: int) -> dict[str, Any]:
    """A player's results in the events this user may see: 4 queries."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Missing(_("No such player."))
    public_rounds = Round.objects.filter(status__in=PLAYED_ROUND_STATUSES)
    entries = list(
        Entry.objects.filter(player=player, event__in=visible_events(user).values("pk"))
        .select_related("event")
        .annotate(copy_of=copied_slug(user, "event__uid", "event_id"))
        .order_by("-event__starts_on", "-event__pk")
    )
    if not entries:  # nobody learns of a player who played only in private events
        raise Missing(_("No such player."))
    latest: dict[int, Standing] = {}
    for standing in (
        Standing.objects.filter(entry__in=entries, round__in=public_rounds)
        .select_related("round")
        .order_by("entry_id", "-round__number")
    ):
        latest.setdefault(standing.entry_id, standing)
    sets: dict[int, list[dict[str, Any]]] = {}
    seats = (
        Seat.objects.filter(entry__in=entries, round__in=public_rounds)
        .select_related("round", "table")
        .annotate(
            total=Subquery(
                HandScore.objects.filter(seat=OuterRef("pk"), hand__outcome=Hand.Outcome.SCORED)
                .values("seat")
                .annotate(s=Sum("score"))
                .values("s")
            ),
            played=Subquery(
                Hand.objects.filter(
                    table=OuterRef("table"),
                    outcome=Hand.Outcome.SCORED,
                    scores__seat=OuterRef("pk"),
                )
                .values("table")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            won=Subquery(
                Hand.objects.filter(went_out=OuterRef("pk"), outcome=Hand.Outcome.SCORED)
                .values("went_out")
                .annotate(n=Count("pk"))
                .values("n")
            ),
        )
        .order_by("round__number")
    )
    for seat in seats:
        sets.setdefault(seat.entry_id, []).append(
            {
                "round": seat.round.number,
                "table": seat.table.number,
                "total": seat.total or 0,
                "played": seat.played or 0,
                "won": seat.won or 0,
            }
        )
    events = []
    for entry in entries:
        events.append(
            {
                "event": entry.event,
                "copy_of": entry.copy_of,  # a copy: the event it copies (`core.copies`)
                "withdrawn": entry.status == Entry.Status.WITHDRAWN,
                "standing": latest.get(entry.pk),
                "hands_needed": entry.event.rules.hand_count,
                "sets": sets.get(entry.pk, []),
            }
        )
    return {"player": player, "events": events}
