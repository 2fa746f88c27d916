"""Director actions on an event's settings: create it, change it. Checks come first and
raise a `ServiceError` naming the field and the reason; only then is anything written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from core.errors import InvalidInput, StateConflict
from core.selectors.hands import event_has_hands
from core.services.common import full_clean_or_raise
from core.services.screens import screens_changed
from core.services.standings import queue_standings_refresh
from game.ranking import check_tiebreaks as check_chain
from tournaments.models import Event

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
    "table_entry",
    "round_minutes",
    "time_rule",
)
# Changing these after a hand is recorded would change what the recorded hands mean.
SCORING_FIELDS = ("ruleset", "packs", "jokers", "director_penalty")
# Changing these changes how the recorded sets rank.
RANKING_FIELDS = ("format", "table_points", "advance_per_table", "tiebreaks", "rounds_planned")


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
    if "slug" in data and data["slug"] != event.slug and event.rounds.exists():
        raise StateConflict(
            {
                "slug": [
                    "The slug is in the address of this event's pages and of the QR codes "
                    "printed on its score sheets; it cannot change once a round has started."
                ]
            }
        )
    changed_scoring = [f for f in SCORING_FIELDS if f in data and data[f] != getattr(event, f)]
    if changed_scoring and event_has_hands(event):
        raise StateConflict(
            {
                f: ["Hands have been recorded with this setting; it can no longer change."]
                for f in changed_scoring
            }
        )
    reranked = any(f in data and data[f] != getattr(event, f) for f in RANKING_FIELDS)
    for field, value in data.items():
        setattr(event, field, value)
    full_clean_or_raise(event)
    event.save()
    screens_changed(event)  # the name, the time rule... on pages already cached
    event.refresh_from_db(fields=["screen_version"])
    if reranked:
        queue_standings_refresh(event)
    return event
