"""The round lifecycle: start -> seated by a background job -> draft (the director may
swap or move players, see `core.seating.services`) -> published (in play) -> closed,
perhaps with hands missing (forced) -> reopened (in play again) if the director needs
to; and the event's end, which only the director decides (`finish_event`).

A round's closes and reopenings are in its history (who, when, forced or not).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import background, derived
from core import stored_texts as st
from core.adjusted.services import adjust_round, drop_adjusted
from core.common import with_history_user
from core.errors import InvalidInput, StateConflict
from core.hands import set_totals
from core.locks import for_request
from core.ratings.services import queue_ratings_refresh
from core.rounds.selectors import STATUS_WORDS, round_progress
from core.screens.services import screens_changed
from core.seating.selectors import contenders_for
from core.seating.services import check_seed, discard_draft
from core.series.services import check_qualification_open
from core.standings.services import queue_standings_refresh
from core.stored_texts.words import worded
from core.table_entry.services import issue_codes
from core.words import listing, translated
from game.rulesets import deal_problem
from tournaments.models import (
    MAX_SEATS,
    MIN_SEATS,
    PLAYED_ROUND_STATUSES,
    Event,
    Round,
    Seat,
    Table,
)

AT_FAULT_REASON_MAX = Seat._meta.get_field("at_fault").max_length
REOPEN_REASON_MAX = Event._meta.get_field("results_changed_reason").max_length - 20


def choose_policy(event: Event, number: int, requested: str | None) -> str:
    if event.format == Event.Format.KNOCKOUT and number > 1:
        if requested not in (None, "knockout"):
            raise InvalidInput(
                _("A knockout event seats the players who advanced; no other policy applies."),
                field="policy",
            )
        return "knockout"
    if requested is not None:
        if requested not in Event.Seating.values:
            valid = ", ".join(Event.Seating.values)
            raise InvalidInput(
                _("%(policy)s is not a seating policy (%(valid)s).")
                % {"policy": repr(requested), "valid": valid},
                field="policy",
            )
        return requested
    if number == 1:
        return "spread" if event.seating == Event.Seating.SPREAD else "random"
    return event.seating


def check_can_start(event: Event) -> int:
    """Whether the next round may start; its number. Raises the reason it may not."""
    if event.status == Event.Status.FINISHED:
        raise StateConflict(_("The event is finished."), field="event")
    last = event.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise StateConflict(
            _("Round %(round)s is %(status)s; close it before starting the next.")
            % {"round": last.number, "status": status_words(last)},
            field="round",
        )
    number = 1 if last is None else last.number + 1
    if number > event.rounds_planned:
        raise StateConflict(
            _(
                "The event planned %(planned)s rounds; add a round beyond them first "
                "(the dashboard's Add round, or raise rounds_planned)."
            )
            % {"planned": event.rounds_planned},
            field="round",
        )
    return number


@for_request("event")
def start_round(
    *,
    event: Event,
    policy: str | None = None,
    seed: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Round:
    """Start the next round; a background job seats it (the round is 'seating' until then)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    number = check_can_start(event)
    chosen = choose_policy(event, number, policy)
    active = contenders_for(event, chosen)
    if len(active) < MIN_SEATS:
        raise InvalidInput(
            too_few_to_seat(len(active), knockout=chosen == "knockout", check_in=event.check_in),
            field="players",
        )
    round_ = Round(
        event=event,
        number=number,
        status=Round.Status.SEATING,
        policy=chosen,
        seed=check_seed(seed),
    )
    with_history_user(round_, by).save()
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        event.status = Event.Status.RUNNING
        with_history_user(event, by).save(update_fields=["status", "updated_at"])
    derived.changed(background.SEATING, round_.pk)
    return round_


def too_few_to_seat(count: int, *, knockout: bool, check_in: bool) -> str:
    """Why a round cannot be seated with only `count` players."""
    values = {"least": MIN_SEATS, "count": count}
    # The English says "players" whatever the count; other languages decline it.
    if knockout and check_in:
        return (
            ngettext(
                "At least %(least)s players are needed to seat a round; %(count)s players "
                "advanced and checked in.",
                "At least %(least)s players are needed to seat a round; %(count)s players "
                "advanced and checked in.",
                count,
            )
            % values
        )
    if knockout:
        return (
            ngettext(
                "At least %(least)s players are needed to seat a round; %(count)s players "
                "advanced.",
                "At least %(least)s players are needed to seat a round; %(count)s players "
                "advanced.",
                count,
            )
            % values
        )
    if check_in:
        return (
            ngettext(
                "At least %(least)s players are needed to seat a round; %(count)s players are "
                "active and checked in.",
                "At least %(least)s players are needed to seat a round; %(count)s players are "
                "active and checked in.",
                count,
            )
            % values
        )
    return (
        ngettext(
            "At least %(least)s players are needed to seat a round; %(count)s players are active.",
            "At least %(least)s players are needed to seat a round; %(count)s players are active.",
            count,
        )
        % values
    )


def status_words(round_: Round) -> str:
    """The round's status as its messages say it: "closed", "draft seating"."""
    return str(round_.get_status_display()).lower()


def check_table_sizes(round_: Round) -> None:
    sizes = dict(round_.tables.annotate(n=Count("seats")).values_list("number", "n"))
    if not sizes:
        # Why the seating job failed (stored with the round), in the reader's words.
        reason = worded(round_.quality.get("error")) or _("it has no tables")
        raise StateConflict(
            _("Round %(round)s cannot be published: %(reason)s")
            % {"round": round_.number, "reason": reason},
            field="round",
        )
    wrong = [
        _("table %(table)s has %(count)s") % {"table": t, "count": n}
        for t, n in sorted(sizes.items())
        if not MIN_SEATS <= n <= MAX_SEATS
    ]
    if wrong:
        raise StateConflict(
            _("Every table needs %(least)s to %(most)s players: %(tables)s.")
            % {"least": MIN_SEATS, "most": MAX_SEATS, "tables": listing(wrong)},
            field="round",
        )
    event = round_.event
    largest = max(sizes.values())
    problem = deal_problem(event.rules, event.deck, largest)
    if problem is not None:
        problem = translated(problem)
        big = [str(t) for t, n in sorted(sizes.items()) if n == largest]
        raise StateConflict(
            _(
                "The deck cannot deal table %(tables)s of %(size)s: %(problem)s. "
                "Move a player to a smaller table."
            )
            % {"tables": listing(big), "size": largest, "problem": problem},
            field="round",
        )


@for_request("round")
def publish_round(*, round: Round, by: AbstractBaseUser | None = None) -> Round:
    """The draft seating becomes the official one; the round is in play."""
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status != Round.Status.DRAFT:
        already = {
            "published": _("Round %(round)s is already published."),
            "closed": _("Round %(round)s is closed."),
            "seating": _("Round %(round)s is still being seated."),
        }
        raise StateConflict(already[round_.status] % {"round": round_.number}, field="round")
    check_table_sizes(round_)
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    with_history_user(round_, by).save(update_fields=["status", "published_at"])
    issue_codes(round=round_)  # each seated player's code for entry at the table
    queue_standings_refresh(round_.event)  # the new round's live standings and progress
    return round_


@for_request("event")
def close_round(*, round: Round, force: bool = False, by: AbstractBaseUser | None = None) -> Round:
    """Close a round when every table has all its hands (a table that ended when too few
    players were left needs the hands up to its end); `force` closes it anyway and is
    recorded. The hands a table could not play are then scored from the field for the
    players still at it (`adjust_round`), so their sets rank as complete; a player who
    withdrew keeps an incomplete set. The round's standings are then final unless it is
    reopened. The event stays running until the director finishes it."""
    # The event first, then the round: the order a standings rebuild takes them in.
    Event.objects.select_for_update().get(pk=round.event_id)
    round_ = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise StateConflict(
            # The status as stored ("draft", "seating", "closed"), in the reader's words.
            _("Round %(round)s is %(status)s; only a round in play can be closed.")
            % {"round": round_.number, "status": STATUS_WORDS[round_.status]},
            field="round",
        )
    # Its tables too (after the round, as every writer orders them): a hand being saved
    # commits before the adjusted scores are made, and none is saved after.
    list(Table.objects.select_for_update().filter(round=round_).values_list("pk", flat=True))
    missing = round_progress(round_.event, round_.number, closed=False).missing()
    if missing and not force:
        raise StateConflict(
            _("Hands are missing: %(missing)s. Enter them, or close with force.")
            % {"missing": listing(missing, "; ")},
            field="force",
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.forced_close = bool(missing)
    if missing:
        round_._change_reason = st.stored(st.FORCED, count=len(missing))
    with_history_user(round_, by).save(update_fields=["status", "closed_at", "forced_close"])
    adjust_round(round_)  # the hands its tables could not play, scored from the field
    screens_changed(round_.event)  # its tables' entry pages: closed, adjusted hands shown
    queue_standings_refresh(round_.event)
    queue_ratings_refresh()  # the round's sets are rated, in their place
    return round_


def check_can_reopen(round_: Round, rounds: list[Round]) -> Round | None:
    """Whether a director may reopen `round_` (`rounds`: the event's rounds); raises the
    reason they may not. Only the latest round in play or played can be reopened; a
    later round still a draft is returned: reopening discards it, since it was seated
    from the standings the reopened round may change."""
    if round_.status != Round.Status.CLOSED:
        raise StateConflict(
            _("Round %(round)s is %(status)s; only a closed round can be reopened.")
            % {"round": round_.number, "status": status_words(round_)},
            field="round",
        )
    later = sorted((r for r in rounds if r.number > round_.number), key=lambda r: r.number)
    played = [r for r in later if r.status in PLAYED_ROUND_STATUSES]
    if played:
        raise StateConflict(
            _("Round %(round)s is %(status)s; only the latest round can be reopened.")
            % {"round": played[0].number, "status": status_words(played[0])},
            field="round",
        )
    return later[0] if later else None


@for_request("event")
def reopen_round(*, round: Round, reason: str = "", by: AbstractBaseUser | None = None) -> Round:
    """Put a closed round back in play, so that missing hands can be entered or a hand
    corrected; recorded in the round's history with the director's `reason`. Only the
    event's latest round can be reopened; a next round seated as a draft is discarded
    (start it again once this one closes). Its adjusted scores are dropped until it
    closes again. A finished event is running again (the director finishes it again):
    its results are changing, so a reason is required, and its page says when and why."""
    # The event first, then the round: the order a standings rebuild takes them in.
    event = Event.objects.select_for_update().get(pk=round.event_id)
    rounds = list(Round.objects.select_for_update().filter(event=event).order_by("number"))
    round_ = next(r for r in rounds if r.pk == round.pk)
    draft = check_can_reopen(round_, rounds)
    if event.series_id is not None:  # a leg: its series' qualification may be frozen
        check_qualification_open(event.series, field="round")
    reason = " ".join((reason or "").split())
    if len(reason) > REOPEN_REASON_MAX:
        raise InvalidInput(
            _("The reason is at most %(most)s characters.") % {"most": REOPEN_REASON_MAX},
            field="reason",
        )
    if event.status == Event.Status.FINISHED and not reason:
        raise InvalidInput(
            _(
                "The event is finished: say why round %(round)s is reopened. Its results "
                "will change, and its page says when and why."
            )
            % {"round": round_.number},
            field="reason",
        )
    if draft is not None:
        discard_draft(draft, by, why=st.stored(st.DISCARDED_REOPENED, round=round_.number))
    round_.status = Round.Status.PUBLISHED
    round_.closed_at = None
    round_.forced_close = False
    round_._change_reason = st.stored(st.REOPENED, reason=reason or None)
    with_history_user(round_, by).save(update_fields=["status", "closed_at", "forced_close"])
    drop_adjusted(round_)
    screens_changed(event)  # its tables' entry pages take hands again
    if event.status == Event.Status.FINISHED:
        event.status = Event.Status.RUNNING
        event.results_changed_at = timezone.now()
        event.results_changed_round, event.results_changed_reason = round_.number, reason
        why = st.stored(st.RESULTS_CHANGED, round=round_.number, reason=reason)
        with_history_user(event, by, why).save(
            update_fields=[
                "status",
                "results_changed_at",
                "results_changed_round",
                "results_changed_reason",
                "updated_at",
            ]
        )
    set_totals.forget(event.pk)  # its standings are rebuilt in full from the hand scores
    queue_standings_refresh(event)
    queue_ratings_refresh()  # its sets are taken out of the ratings until it closes again
    return round_


def check_can_finish(event: Event) -> None:
    """Whether the director may finish the event now; raises the reason they may not."""
    rounds = list(event.rounds.order_by("number"))
    if not rounds:
        raise StateConflict(
            _("No round has been played; there is nothing to finish."), field="event"
        )
    open_rounds = [r for r in rounds if r.status != Round.Status.CLOSED]
    if open_rounds:
        r = open_rounds[0]
        raise StateConflict(
            _("Round %(round)s is %(status)s; close it before finishing the event.")
            % {"round": r.number, "status": status_words(r)},
            field="round",
        )


@for_request("event")
def finish_event(*, event: Event, by: AbstractBaseUser | None = None) -> Event:
    """The director declares the event over: its standings after the last round become
    the final results. Every round must be closed; a round can still be reopened
    afterwards (the event is then running again)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        return event
    check_can_finish(event)
    event.status = Event.Status.FINISHED
    with_history_user(event, by).save(update_fields=["status", "updated_at"])
    queue_standings_refresh(event)  # rebuilt, so every cached page shows them as final
    return event


@for_request("event")
def mark_at_fault(
    *,
    table: Table,
    positions: Sequence[int],
    reason: str = "",
    by: AbstractBaseUser | None = None,
) -> list[Seat]:
    """Mark exactly the players at `positions` of the table at fault for the hands it
    did not play (slow play), with the director's `reason`; the others there are not
    (an empty list clears every mark). Recorded in each seat's history. Their adjusted
    scores are the documented worse ones (`game.adjusted.AT_FAULT`); on a closed round
    they are made again at once, and the standings follow."""
    Event.objects.select_for_update().get(pk=table.round.event_id)
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=table.round_id)
    )
    if round_.status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        raise StateConflict(
            _("Round %(round)s is %(status)s; players are marked at fault once it is in play.")
            % {"round": round_.number, "status": status_words(round_)},
            field="round",
        )
    if round_.status == Round.Status.CLOSED:
        # Its results change: only while nothing was seated from them and they are not
        # final (else reopen the round, with a reason, first).
        event = round_.event
        later = Round.objects.filter(event=event, number__gt=round_.number).first()
        if later is not None or event.status == Event.Status.FINISHED:
            if later is not None:
                message = _(
                    "Round %(round)s is closed and round %(later)s is seated from its "
                    "standings: reopen it (with a reason) to mark players at fault."
                ) % {"round": round_.number, "later": later.number}
            else:
                message = _(
                    "Round %(round)s is closed and the event is finished: reopen it (with a "
                    "reason) to mark players at fault."
                ) % {"round": round_.number}
            raise StateConflict(message, field="round")
        if event.series_id is not None:
            check_qualification_open(event.series, field="round")
    reason = (reason or "").strip()
    seats = list(Seat.objects.filter(table=table).select_related("entry__player"))
    known = {s.position for s in seats}
    wanted = set()
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise InvalidInput(
                _("A seat is a number, not %(value)s.") % {"value": repr(position)},
                field="seats",
            )
        if position not in known:
            raise InvalidInput(
                _("Table %(table)s has no seat %(seat)s; its seats are %(seats)s.")
                % {
                    "table": table.number,
                    "seat": position,
                    "seats": listing(sorted(known)),
                },
                field="seats",
            )
        wanted.add(position)
    if wanted and not reason:
        raise InvalidInput(
            _(
                "Say why the players are at fault (for example: slow play); it is kept in "
                "the table's history and shown with their adjusted scores."
            ),
            field="reason",
        )
    if len(reason) > AT_FAULT_REASON_MAX:
        raise InvalidInput(
            _("The reason is at most %(most)s characters.") % {"most": AT_FAULT_REASON_MAX},
            field="reason",
        )
    changed = False
    for seat in seats:
        value = reason if seat.position in wanted else ""
        if seat.at_fault == value:
            continue
        seat.at_fault = value
        why = st.stored(st.AT_FAULT, reason=value) if value else st.stored(st.NOT_AT_FAULT)
        with_history_user(seat, by, why).save(update_fields=["at_fault"])
        changed = True
    if changed and round_.status == Round.Status.CLOSED:
        adjust_round(round_)
        queue_standings_refresh(round_.event)
        queue_ratings_refresh()
    return seats
