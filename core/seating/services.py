"""Seating a round: the background job that seats it (the pure `game.seating` decides,
this module stores its plan as tables and seats with history), and the director's
changes to a draft: seat it again, swap two players, move one.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from core import background, derived
from core import stored_texts as st
from core.common import with_history_user
from core.errors import InvalidInput, StateConflict
from core.hands.selectors import tables_have_hands
from core.locks import for_request
from core.rounds.selectors import STATUS_WORDS
from core.screens.services import screens_changed
from core.seating.selectors import seating_quality, seating_request
from core.standings.services import queue_standings_refresh
from core.table_entry.services import issue_codes
from game import seating
from tournaments.models import MAX_SEATS, MIN_SEATS, Entry, Event, Round, Seat, Table

MAX_SEED = 2**62


QUALITY_KEYS = {"repeat_meetings", "repeat_pairs", "lower_bound", "rank_spread", "error"}
# With club avoidance: how many pairs of clubmates share a table, and which.
QUALITY_KEYS |= {"club_meetings", "club_pairs"}


def check_quality(quality: object, entries: set[int]) -> None:
    """A seating quality report as `seat_round` stores it: what `game.seating.Quality`
    gives (its pairs naming the round's `entries`), or a draw's error."""

    def whole(value: object, *, nullable: bool) -> bool:
        if value is None:
            return nullable
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31

    def pairs_of_entries(value: object) -> bool:
        return isinstance(value, list) and all(
            isinstance(pair, list) and len(pair) == 2 and all(p in entries for p in pair)
            for pair in value
        )

    pairs = quality.get("repeat_pairs", []) if isinstance(quality, dict) else None
    ok = (
        isinstance(quality, dict)
        and set(quality) <= QUALITY_KEYS
        and whole(quality.get("repeat_meetings"), nullable=True)
        and whole(quality.get("lower_bound"), nullable=True)
        and isinstance(quality.get("error", ""), str)
        and isinstance(pairs, list)
        and all(
            isinstance(pair, list) and len(pair) == 2 and all(p in entries for p in pair)
            for pair in pairs
        )
        and (
            quality.get("rank_spread") is None
            or (
                isinstance(quality["rank_spread"], list)
                and all(whole(v, nullable=False) for v in quality["rank_spread"])
            )
        )
        and whole(quality.get("club_meetings"), nullable=True)
        and pairs_of_entries(quality.get("club_pairs", []))
    )
    if not ok:
        raise InvalidInput(
            _(
                "The seating quality report is not one the seating gives "
                "(%(keys)s, pairs of the round's players)."
            )
            % {"keys": ", ".join(sorted(QUALITY_KEYS))},
            field="quality",
        )


def check_seed(seed: object) -> int:
    if seed is None:
        return secrets.randbelow(MAX_SEED)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise InvalidInput(
            _("The seed must be a whole number from 0 to %(most)s.") % {"most": MAX_SEED - 1},
            field="seed",
        )
    return seed


@for_request("round")
def reseat_round(
    *, round: Round, seed: int | None = None, by: AbstractBaseUser | None = None
) -> Round:
    """Draw a draft round's seating again (after entries changed, or for another draw)."""
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status not in (Round.Status.DRAFT, Round.Status.SEATING):
        raise StateConflict(
            _("Round %(round)s is %(status)s; only a draft can be seated again.")
            % {"round": round_.number, "status": STATUS_WORDS[round_.status]},
            field="round",
        )
    unseat(round_, by)
    round_.tables.all().delete()
    round_.status = Round.Status.SEATING
    if seed is not None:
        round_.seed = check_seed(seed)
    round_.quality = {}
    round_.save()
    derived.changed(background.SEATING, round_.pk)
    return round_


def unseat(round_: Round, by: AbstractBaseUser | None, why: str | None = None) -> None:
    """Delete a draft's seats one by one, so each is kept in its history (with `why`)."""
    for seat in Seat.objects.filter(round=round_):
        with_history_user(seat, by, why).delete()


def discard_draft(draft: Round, by: AbstractBaseUser | None, *, why: str) -> None:
    """Delete a round seated as a draft (nothing is played in a draft), its seats kept in
    their history with the reason."""
    unseat(draft, by, why)
    derived.forget(background.SEATING, draft.pk)
    with_history_user(draft, by, why).delete()
    screens_changed(draft.event)


@background.runs(background.SEATING)
def seat_round_job(round_id: int) -> str | None:
    """The background job: seat the round, unless it was deleted meanwhile."""
    if not Round.objects.filter(pk=round_id).exists():
        derived.forget(background.SEATING, round_id)
        return None
    return seat_round(round_id=round_id).status


@transaction.atomic
def seat_round(*, round_id: int) -> Round:
    """Compute and store the seating of a round that is waiting for it.

    Idempotent: a round that is already seated (or gone further) is left as it is.
    Takes the round's row lock, so two workers given the same round seat it once.
    """
    round_ = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round_id)
    derived.built(background.SEATING, round_id, derived.seen(background.SEATING, round_id))
    if round_.status != Round.Status.SEATING:
        return round_
    request = seating_request(round_)
    try:
        plan = seating.seat(request)
    except seating.SeatingError as error:
        # Someone withdrew meanwhile: leave an empty draft that says why (too few
        # players as a code, worded for whoever reads it).
        round_.status = Round.Status.DRAFT
        round_.quality = {"error": seating_failure(error, len(request.contenders))}
        round_.save(update_fields=["status", "quality"])
        return round_
    store_plan(round_, plan.tables, reason=st.stored(st.SEATED))
    round_.status = Round.Status.DRAFT
    round_.quality = plan.quality.as_dict()
    round_.save(update_fields=["status", "quality"])
    return round_


def seating_failure(error: seating.SeatingError, count: int) -> str:
    """Why a round could not be seated, as it is stored with the round."""
    if count < seating.MIN_PLAYERS:
        return st.stored(st.TOO_FEW_PLAYERS, count=count, least=seating.MIN_PLAYERS)
    return str(error)


def store_plan(
    round_: Round, plan: tuple[seating.TablePlan, ...], *, reason: str
) -> tuple[list[Table], list[Seat]]:
    """Write a seating plan as the round's tables and seats (with history)."""
    tables = Table.objects.bulk_create([Table(round=round_, number=t.number) for t in plan])
    seats = planned_seats(round_, tables, plan)
    seats = bulk_create_with_history(seats, Seat, default_change_reason=reason)
    return tables, seats


def planned_seats(
    round_: Round, tables: list[Table], plan: tuple[seating.TablePlan, ...]
) -> list[Seat]:
    """The seats of a seating plan, for its tables as written (not saved yet)."""
    return [
        Seat(
            table=table,
            round=round_,
            entry_id=entry_id,
            position=position,
            first_dealer=position == planned.dealer,
        )
        for table, planned in zip(tables, plan, strict=True)
        for position, entry_id in enumerate(planned.seats, start=1)
    ]


def refresh_quality(round_: Round) -> None:
    """Recompute the quality report after the director changed the seating by hand. In
    a round in play, a player seated anew gets their code, and the public pages (the
    seating board, the tables) follow the new places through the standings rebuild,
    which their caches key on."""
    round_.quality = seating_quality(round_).as_dict()
    round_.save(update_fields=["quality"])
    if round_.status == Round.Status.PUBLISHED:
        issue_codes(round=round_)
        queue_standings_refresh(round_.event)


def seating_adjustable(round_: Round, *, hands_recorded: bool) -> bool:
    """The director may change a draft's seating, or a published round's before any hand
    (or redeal) is recorded at the tables concerned."""
    if round_.status == Round.Status.DRAFT:
        return True
    return round_.status == Round.Status.PUBLISHED and not hands_recorded


def check_adjustable(round_: Round, tables: list[Table]) -> None:
    if seating_adjustable(round_, hands_recorded=tables_have_hands(tables)):
        return
    if round_.status == Round.Status.PUBLISHED:
        message = _(
            "Round %(round)s is %(status)s and hands are recorded at these tables; its "
            "seating can no longer change."
        )
    else:
        message = _("Round %(round)s is %(status)s; its seating can no longer change.")
    raise StateConflict(
        message % {"round": round_.number, "status": STATUS_WORDS[round_.status]},
        field="round",
    )


def seat_of(round_: Round, entry: Entry, field: str) -> Seat:
    seat = Seat.objects.filter(round=round_, entry=entry).select_related("table").first()
    if seat is None:
        raise InvalidInput(
            _("%(name)s is not seated in round %(round)s.")
            % {"name": entry.player.name, "round": round_.number},
            field=field,
        )
    return seat


@for_request("round")
def swap_players(
    *, round: Round, first: Entry, second: Entry, by: AbstractBaseUser | None = None
) -> Round:
    """Swap two players' places (table and seat)."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    a, b = seat_of(round_, first, "first"), seat_of(round_, second, "second")
    if a.pk == b.pk:
        raise InvalidInput(_("Choose two different players to swap."), field="second")
    check_adjustable(round_, [a.table, b.table])
    # Seats are unique per (round, entry) and (table, position): replace both rows.
    places = [
        (a.table, a.position, a.first_dealer, second),
        (b.table, b.position, b.first_dealer, first),
    ]
    for seat in (a, b):
        with_history_user(seat, by).delete()
    for table, position, dealer, entry in places:
        seat = Seat(table=table, round=round_, entry=entry, position=position, first_dealer=dealer)
        with_history_user(seat, by).save()
    refresh_quality(round_)
    return round_


@for_request("round")
def move_player(
    *, round: Round, entry: Entry, table_number: int, by: AbstractBaseUser | None = None
) -> Round:
    """Move a player to the last seat of another table (or of a new table, numbered
    one past the last). Both tables must keep 3 to 6 players."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    seat = seat_of(round_, entry, "player")
    source = seat.table
    last_number = round_.tables.count()
    if not isinstance(table_number, int) or not 1 <= table_number <= last_number + 1:
        raise InvalidInput(
            _("Choose a table from 1 to %(last)s, or %(new)s for a new table.")
            % {"last": last_number, "new": last_number + 1},
            field="table",
        )
    if table_number == source.number:
        raise InvalidInput(
            _("%(name)s already sits at table %(table)s.")
            % {"name": entry.player.name, "table": table_number},
            field="table",
        )
    target = round_.tables.filter(number=table_number).first()
    check_adjustable(round_, [source] + ([target] if target else []))
    source_size = source.seats.count()
    if source_size - 1 < MIN_SEATS:
        raise InvalidInput(
            ngettext(
                "Table %(table)s would keep only %(count)s players; a table needs at least "
                "%(least)s.",
                "Table %(table)s would keep only %(count)s players; a table needs at least "
                "%(least)s.",
                source_size - 1,
            )
            % {"table": source.number, "count": source_size - 1, "least": MIN_SEATS},
            field="table",
        )
    if target is None:
        target = Table.objects.create(round=round_, number=table_number)
    target_size = target.seats.count()
    if target_size + 1 > MAX_SEATS:
        raise InvalidInput(
            _("Table %(table)s already has %(most)s players.")
            % {"table": table_number, "most": MAX_SEATS},
            field="table",
        )
    was_dealer = seat.first_dealer
    with_history_user(seat, by).delete()
    # Close the gap at the old table, keeping positions 1..n.
    for other in source.seats.filter(position__gt=seat.position).order_by("position"):
        other.position -= 1
        with_history_user(other, by).save()
    if was_dealer:
        first = source.seats.get(position=1)
        first.first_dealer = True
        with_history_user(first, by).save()
    moved = Seat(
        table=target,
        round=round_,
        entry=entry,
        position=target_size + 1,
        first_dealer=target_size == 0,
    )
    with_history_user(moved, by).save()
    refresh_quality(round_)
    return round_


def reseat_draft_after_entry_change(event: Event, by: AbstractBaseUser | None) -> None:
    """An entry added or withdrawn while the next round is a draft: seat it again."""
    draft = event.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        reseat_round(round=draft, by=by)
