"""The director's event-day jobs on who plays and how many rounds: a late player,
checking players in, a substitute for a no-show, a round beyond the planned number,
and the event's day options (check-in, club avoidance). One transaction each; checks
before writes; history records who (and, for a substitute, whom they replaced)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.common import with_history_user
from core.entries.services import create_player, register_entry
from core.errors import InvalidInput, StateConflict
from core.events.services import create_event, update_event
from core.locks import for_request
from core.screens.services import screens_changed
from core.seating.services import refresh_quality, reseat_draft_after_entry_change
from core.series.selectors import final_carry
from core.standings.services import queue_standings_refresh
from core.words import listing
from scoring.models import Hand
from tournaments.models import Entry, Event, PlayerCode, Round, Seat


@for_request("event")
def add_late_player(
    *,
    event: Event,
    name: str,
    club: str = "",
    country: str = "",
    seed_number: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Entry:
    """A player who arrives late: added to the registry and entered in the event at
    once. A round in play goes on without them; they are seated from the next round (a
    draft is seated again with them). With check-in, they are checked in: they are here."""
    name = (name or "").strip()
    if not name:
        raise InvalidInput(_("Give the player's name."), field="name")
    player = create_player(name=name, club=(club or "").strip(), country=country or "", by=by)
    return register_entry(
        event=event, player=player, seed_number=seed_number, checked_in=event.check_in, by=by
    )


@for_request("event")
def record_check_in(
    *, event: Event, present: list[Entry], by: AbstractBaseUser | None = None
) -> int:
    """The check-in list before a round: exactly the active players in `present` are
    checked in, every other active player is not. Returns how many changed. A player
    of another event, or one who withdrew, is refused by name and nothing changes. A
    round already seated as a draft is seated again with the players checked in now."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    wanted = {e.pk for e in present}
    rows = list(
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(event=event)
        .order_by("pk")
    )
    by_pk = {e.pk: e for e in rows}
    strangers = wanted - set(by_pk)
    if strangers:
        raise InvalidInput(_("Choose players of this event."), field="players")
    withdrawn = [by_pk[pk].player.name for pk in sorted(wanted) if by_pk[pk].status != "active"]
    if withdrawn:
        raise InvalidInput(
            _("%(names)s withdrew; only active players are checked in.")
            % {"names": listing(withdrawn)},
            field="players",
        )
    changed = 0
    for entry in rows:
        should = entry.pk in wanted
        if entry.status == Entry.Status.ACTIVE and entry.checked_in != should:
            entry.checked_in = should
            with_history_user(entry, by).save(update_fields=["checked_in"])
            changed += 1
    if changed and event.check_in:
        reseat_draft_after_entry_change(event, by)  # a draft seats the checked-in only
    return changed


def set_day_options(
    *,
    event: Event,
    check_in: bool | None = None,
    club_avoidance: bool | None = None,
    by: AbstractBaseUser | None = None,
) -> Event:
    """Turn check-in or club avoidance on or off (they take effect from the next
    round seated): event settings, changed through `update_event`."""
    asked = {"check_in": check_in, "club_avoidance": club_avoidance}
    data = {k: v for k, v in asked.items() if v is not None and v != getattr(event, k)}
    if not data:
        return event
    return update_event(event=event, data=data, by=by)


@for_request("event")
def add_extra_round(*, event: Event, by: AbstractBaseUser | None = None) -> Event:
    """One round more than planned (the planned number grows by one; the standings are
    ranked again, since a finished event's results depend on it). A finished event is
    reopened by reopening its last round, not by this."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise StateConflict(
            _("The event is finished; reopen its last round to play on."),
            field="rounds_planned",
        )
    return update_event(event=event, data={"rounds_planned": event.rounds_planned + 1}, by=by)


def round_of_substitution(event: Event) -> Round | None:
    """The round a substitute would sit down in: the latest, unless it is closed."""
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.status == Round.Status.CLOSED:
        return None
    if latest.status == Round.Status.SEATING:
        raise StateConflict(
            _("Round %(round)s is being seated; substitute once its draft is ready.")
            % {"round": latest.number},
            field="round",
        )
    return latest


@for_request("event")
def substitute_entry(
    *,
    entry: Entry,
    name: str = "",
    club: str = "",
    player_entry: Entry | None = None,
    by: AbstractBaseUser | None = None,
) -> Entry:
    """Replace a no-show by a substitute between rounds: the no-show is withdrawn (they
    keep any results they have), and the substitute, a new player named `name` or a
    withdrawn entry of the event given as `player_entry`, is entered with the no-show's
    seed and, when the latest round is a draft or in play with no hand at that table
    yet, takes the no-show's seat there. Recorded in both entries' and the seat's history."""
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise InvalidInput(
            _("%(name)s has withdrawn already.") % {"name": entry.player.name}, field="player"
        )
    if event.status == Event.Status.FINISHED:
        raise StateConflict(_("The event is finished."), field="event")
    round_ = round_of_substitution(event)
    seat = None
    if round_ is not None:
        seat = Seat.objects.select_related("table").filter(round=round_, entry=entry).first()
    started = seat is not None and Hand.objects.filter(table_id=seat.table_id).exists()
    if started and round_.status == Round.Status.PUBLISHED:
        raise StateConflict(
            _(
                "Table %(table)s has started round %(round)s; a substitute replaces a player "
                "only before their table's first hand. Withdraw %(name)s instead (their set "
                "ends where they left)."
            )
            % {"table": seat.table.number, "round": round_.number, "name": entry.player.name},
            field="player",
        )
    if player_entry is not None:
        sub = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("player")
            .get(pk=player_entry.pk)
        )
        if sub.event_id != event.pk:
            raise InvalidInput(_("Choose a player of this event."), field="substitute")
        if sub.status == Entry.Status.ACTIVE:
            raise InvalidInput(
                _("%(name)s is playing already; a substitute is a new player or one who withdrew.")
                % {"name": sub.player.name},
                field="substitute",
            )
        if Seat.objects.filter(round=round_, entry=sub).exists():
            raise StateConflict(
                _("%(name)s sat in round %(round)s already.")
                % {"name": sub.player.name, "round": round_.number},
                field="substitute",
            )
    else:
        name = (name or "").strip()
        if not name:
            raise InvalidInput(_("Give the substitute's name."), field="name")
        player = create_player(name=name, club=(club or "").strip(), by=by)
        sub = Entry(event=event, player=player)

    seed = entry.seed_number
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.seed_number = None
    entry.checked_in = False
    with_history_user(entry, by, st.stored(st.NO_SHOW, name=sub.player.name)).save()

    sub.status = Entry.Status.ACTIVE
    sub.withdrawn_at = None
    sub.seed_number = seed
    carry = final_carry(event, sub.player_id)  # a reserve replacing a finalist
    if carry is not None:
        sub.carried_points = carry
    sub.checked_in = True
    with_history_user(sub, by, st.stored(st.SUBSTITUTE, name=entry.player.name)).save()

    if seat is not None:
        seat.entry = sub
        replaces = st.stored(st.REPLACES, name=sub.player.name, replaced=entry.player.name)
        with_history_user(seat, by, replaces).save(update_fields=["entry"])
        if round_.status == Round.Status.PUBLISHED:
            PlayerCode.objects.filter(round=round_, entry=entry).delete()
        refresh_quality(round_)  # the report names the substitute; codes in play
    screens_changed(event)
    queue_standings_refresh(event)
    return sub


@for_request("event")
def set_up_event(
    *,
    data: dict,
    check_in: bool = False,
    club_avoidance: bool = False,
    by: AbstractBaseUser | None = None,
) -> Event:
    """A new event from the director's pages: its settings (checked as the API's are),
    with the day options; its creator directs it. Taking entries from the start."""
    data = {"status": Event.Status.REGISTRATION, **data}
    event = create_event(data=data, by=by)
    return set_day_options(event=event, check_in=check_in, club_avoidance=club_avoidance, by=by)
