"""Director actions on who plays: add a player to the registry, enter them in an event,
withdraw them. One transaction each; checks before writes; history records who."""

from __future__ import annotations

from copy import copy

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.common import full_clean_or_raise, with_history_user
from core.entries.leaving import leave_table, rejoin_table, set_leave_point
from core.errors import InvalidInput, StateConflict
from core.locks import for_request
from core.screens.services import screens_changed
from core.seating.services import reseat_draft_after_entry_change
from core.series.selectors import final_carry
from core.standings.services import queue_standings_refresh
from tournaments.models import Entry, Event, Player


@transaction.atomic
def create_player(
    *,
    name: str,
    club: str = "",
    country: str = "",
    rating: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Player:
    """Add a player to the registry shared by every event, checked as the model says."""
    player = Player(name=name, club=club, country=country, rating=rating)
    full_clean_or_raise(player)
    player.save()
    return player


# What a player's change may set; a change to these shows on the pages.
PLAYER_FIELDS = ("name", "club", "country", "rating")
SHOWN_ON_PAGES = frozenset({"name", "club"})


@transaction.atomic
def update_player(*, player: Player, by: AbstractBaseUser | None = None, **changes) -> Player:
    """Change a player of the registry (a corrected name, a new club), checked as the
    model says. A changed name or club reaches the pages of every event they are
    entered in at once: each event's screen version grows (what its live pages follow,
    and what its namesakes are kept under), in this transaction."""
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise InvalidInput(_("A player has no such field."), field=sorted(unknown)[0])
    changed = {name for name, value in changes.items() if getattr(player, name) != value}
    candidate = copy(player)  # checked before the caller's player changes
    for name, value in changes.items():
        setattr(candidate, name, value)
    full_clean_or_raise(candidate)
    for name, value in changes.items():
        setattr(player, name, value)
    if not changed:
        return player
    player.save(update_fields=sorted(changed))  # a player keeps no history of changes
    if changed & SHOWN_ON_PAGES:
        for event in Event.objects.filter(entries__player=player).distinct().order_by("pk"):
            screens_changed(event)
    return player


@for_request("event")
def register_entry(
    *,
    event: Event,
    player: Player,
    seed_number: int | None = None,
    checked_in: bool = False,
    by: AbstractBaseUser | None = None,
) -> Entry:
    """Enter a player in an event; a withdrawn player who registers again is active again.
    `checked_in`: they are here (a late arrival at an event that uses check-in), so a
    draft round seated again takes them."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise StateConflict(_("The event is finished; no more players can enter."), field="player")
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is not None and entry.status == Entry.Status.ACTIVE:
        raise InvalidInput(
            _("%(name)s is already entered in this event.") % {"name": player.name},
            field="player",
        )
    was_withdrawn = entry is not None  # an active one was refused above
    if entry is None:
        entry = Entry(event=event, player=player)
        carry = final_carry(event, player.pk)  # a wildcard entering a seeded final
        if carry is not None:
            entry.carried_points = carry
    entry.status = Entry.Status.ACTIVE
    entry.withdrawn_at = None
    if seed_number is not None:
        entry.seed_number = seed_number
    if checked_in:
        entry.checked_in = True
    full_clean_or_raise(entry, exclude=["event", "player"])
    if (
        entry.seed_number is not None
        and Entry.objects.filter(event=event, seed_number=entry.seed_number)
        .exclude(pk=entry.pk)
        .exists()
    ):
        raise InvalidInput(
            _("Seed %(seed)s is already taken.") % {"seed": entry.seed_number},
            field="seed_number",
        )
    with_history_user(entry, by).save()
    if was_withdrawn:
        rejoin_table(entry, by)
    reseat_draft_after_entry_change(event, by)
    screens_changed(event)  # the field the public pages list before the first round
    queue_standings_refresh(event)  # their status, and perhaps their set
    return entry


@for_request("event")
def withdraw_entry(
    *, entry: Entry, left_after_hand: int | None = None, by: AbstractBaseUser | None = None
) -> Entry:
    """Withdraw a player: they keep the results they have and are seated no more.

    In a round in play they leave their table after hand `left_after_hand` (by default
    the last hand entered there): hands up to it take their score, later hands are
    played without them, and their set is incomplete. A table left with fewer than
    three players closes after that hand (`core.entries.leaving`). Withdrawing again
    with a leave point changes it.
    """
    # The event first, then the entry: the order a standings rebuild takes them in.
    Event.objects.select_for_update().get(pk=entry.event_id)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("event", "player")
        .get(pk=entry.pk)
    )
    if entry.event.status == Event.Status.FINISHED:
        raise StateConflict(
            _(
                "The event is finished: its results stand as played. To change them, "
                "reopen its last round (with a reason) first."
            ),
            field="status",
        )
    if entry.status == Entry.Status.WITHDRAWN:
        if left_after_hand is not None:
            set_leave_point(entry=entry, left_after_hand=left_after_hand, by=by)
        return entry
    leave_table(entry, left_after_hand, by)  # checked (and refused) before anything else
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    with_history_user(entry, by).save()
    reseat_draft_after_entry_change(entry.event, by)
    screens_changed(entry.event)
    queue_standings_refresh(entry.event)
    return entry
