"""Director actions on events, entries and tables: one function each, one transaction.

Checks come first and raise a `ServiceError` naming the field and the reason; only
then is anything written. History rows record who made each change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournaments.errors import InvalidInput, StateConflict
from tournaments.models import Entry, Event, Player, Round, Seat, Table

EVENT_FIELDS = (
    "slug",
    "name",
    "starts_on",
    "venue",
    "ruleset",
    "packs",
    "jokers",
    "format",
    "rounds_planned",
    "director_penalty",
    "table_points",
    "advance_per_table",
    "seating",
    "odd_tables",
    "public",
    "status",
    "tiebreaks",
)
# Changing these after a hand is recorded would change what the recorded hands mean.
SCORING_FIELDS = ("ruleset", "packs", "jokers", "director_penalty")


def with_history_user(obj: Any, user: AbstractBaseUser | None) -> Any:
    """Tell django-simple-history who makes the next change to `obj`."""
    obj._history_user = user if user is not None and user.is_authenticated else None
    return obj


def full_clean_or_raise(obj: Any, *, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as error:
        raise InvalidInput.from_validation_error(error) from error


def check_table_points(value: Any) -> None:
    ok = (
        isinstance(value, list)
        and 1 <= len(value) <= 6
        and all(isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in value)
    )
    if not ok:
        raise InvalidInput(
            "Give 1 to 6 placement points, best place first, none negative (e.g. [4, 2, 1, 0]).",
            field="table_points",
        )
    if any(a < b for a, b in zip(value, value[1:], strict=False)):
        raise InvalidInput(
            "Placement points must not grow from one place to the next.", field="table_points"
        )


def check_tiebreaks(value: Any) -> None:
    from scoring.ranking import check_tiebreaks as check_chain

    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput("Give a list of tiebreak names.", field="tiebreaks")
    try:
        check_chain(value)
    except ValueError as error:
        raise InvalidInput(str(error), field="tiebreaks") from error


def check_settings(data: Mapping[str, Any]) -> None:
    check_unknown_fields(data)
    if "table_points" in data:
        check_table_points(data["table_points"])
    if "tiebreaks" in data:
        check_tiebreaks(data["tiebreaks"])


def check_unknown_fields(data: Mapping[str, Any]) -> None:
    unknown = sorted(set(data) - set(EVENT_FIELDS))
    if unknown:
        raise InvalidInput({name: ["This is not an event setting."] for name in unknown})


@transaction.atomic
def create_event(*, data: Mapping[str, Any], by: AbstractBaseUser | None = None) -> Event:
    """Create an event; the user who creates it becomes one of its directors."""
    check_settings(data)
    event = Event(**data)
    full_clean_or_raise(event)
    event.save()
    if by is not None and by.is_authenticated:
        event.directors.add(by)
    return event


@transaction.atomic
def update_event(
    *, event: Event, data: Mapping[str, Any], by: AbstractBaseUser | None = None
) -> Event:
    check_settings(data)
    event = Event.objects.select_for_update().get(pk=event.pk)
    changed_scoring = [f for f in SCORING_FIELDS if f in data and data[f] != getattr(event, f)]
    if changed_scoring and event_has_hands(event):
        raise StateConflict(
            {
                f: ["Hands have been recorded with this setting; it can no longer change."]
                for f in changed_scoring
            }
        )
    for field, value in data.items():
        setattr(event, field, value)
    full_clean_or_raise(event)
    event.save()
    return event


def event_has_hands(event: Event) -> bool:
    from scoring.models import Hand

    return Hand.objects.filter(table__round__event=event).exists()


@transaction.atomic
def register_entry(
    *,
    event: Event,
    player: Player,
    seed_number: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Entry:
    """Enter a player in an event; a withdrawn player who registers again is active again."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise StateConflict("The event is finished; no more players can enter.", field="player")
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is not None and entry.status == Entry.Status.ACTIVE:
        raise InvalidInput(f"{player.name} is already entered in this event.", field="player")
    if entry is None:
        entry = Entry(event=event, player=player)
    entry.status = Entry.Status.ACTIVE
    entry.withdrawn_at = None
    if seed_number is not None:
        entry.seed_number = seed_number
    full_clean_or_raise(entry, exclude=["event", "player"])
    if (
        entry.seed_number is not None
        and Entry.objects.filter(event=event, seed_number=entry.seed_number)
        .exclude(pk=entry.pk)
        .exists()
    ):
        raise InvalidInput(f"Seed {entry.seed_number} is already taken.", field="seed_number")
    with_history_user(entry, by).save()
    after_entry_change(event, by)
    return entry


def after_entry_change(event: Event, by: AbstractBaseUser | None) -> None:
    from tournaments.services.rounds import reseat_draft_after_entry_change

    reseat_draft_after_entry_change(event, by)


@transaction.atomic
def withdraw_entry(*, entry: Entry, by: AbstractBaseUser | None = None) -> Entry:
    """Withdraw a player: they keep the results they have and are seated no more.

    In a round in play, their table plays on without them: they play no hand after
    the hands already recorded at their table, and score nothing more in that set.
    """
    entry = Entry.objects.select_for_update().select_related("event").get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    with_history_user(entry, by).save()
    seat = Seat.objects.filter(
        entry=entry, round__status=Round.Status.PUBLISHED, left_after_hand__isnull=True
    ).first()
    if seat is not None:
        from scoring.models import Hand

        played = Hand.objects.filter(table_id=seat.table_id, outcome=Hand.Outcome.SCORED)
        seat.left_after_hand = played.aggregate(n=Max("number"))["n"] or 0
        with_history_user(seat, by).save()
    after_entry_change(entry.event, by)
    return entry


def check_table_open(table: Table) -> None:
    """A table takes writes only while its round is in play and it is not locked."""
    if table.round.status == Round.Status.CLOSED:
        raise StateConflict(
            f"Round {table.round.number} is closed; its hands can no longer change.",
            field="round",
        )
    if table.round.status != Round.Status.PUBLISHED:
        raise StateConflict(
            f"Round {table.round.number} is not published yet; publish the seating first.",
            field="round",
        )
    if table.locked:
        raise StateConflict(
            f"Table {table.number} is locked; unlock it to change its hands.", field="table"
        )


@transaction.atomic
def lock_table(*, table: Table, by: AbstractBaseUser | None = None) -> Table:
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    if table.round.status == Round.Status.CLOSED:
        raise StateConflict(f"Round {table.round.number} is closed.", field="round")
    table.locked = True
    with_history_user(table, by).save(update_fields=["locked"])
    return table


@transaction.atomic
def unlock_table(*, table: Table, by: AbstractBaseUser | None = None) -> Table:
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    if table.round.status == Round.Status.CLOSED:
        raise StateConflict(
            f"Round {table.round.number} is closed; its tables stay as they are.", field="round"
        )
    table.locked = False
    with_history_user(table, by).save(update_fields=["locked"])
    return table
