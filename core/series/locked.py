"""What the organiser may no longer change in a series, and why, in the words the
organiser's page shows; and which events its legs' and final's menus may offer. The
services refuse the same changes (`core.series.services.check_qualification_open`,
`check_step_unchanged`, `add_leg`; `core.series.final.create_final`): this says so
before the organiser tries, as `core.events.locked` does for an event's settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.series.selectors import final_started, qualification_frozen
from core.series.services import FROZEN_FIELDS, check_carry_over, check_public_event
from tournaments.models import Event, Series


@dataclass(frozen=True)
class SeriesLocks:
    """`started`: the series' final has begun (its first hand is recorded); `frozen`: the
    series' qualification is frozen (the final has begun and the series has not been
    reopened since); `settings`: each setting that cannot change now, with the
    reason; `legs`: why no leg may be added or removed ("" while they may)."""

    started: bool = False
    frozen: bool = False
    settings: dict[str, str] = field(default_factory=dict)
    legs: str = ""


def series_locks(series: Series) -> SeriesLocks:
    """What cannot change in the series now, and why. 2 queries at most (none without
    a final)."""
    if not final_started(series):
        return SeriesLocks()
    # Seeding again is refused once the final's first hand is recorded, so its entrants
    # keep the carries they were seeded with, reopened or not.
    settings = {
        "carry_over_step": _(
            "The final has begun (its first hand is recorded): its players keep the "
            "carries they were seeded with."
        )
    }
    frozen = qualification_frozen(series)
    if not frozen:
        return SeriesLocks(started=True, settings=settings)
    reason = _(
        "The final has begun (its first hand is recorded), so the series' qualification "
        "is frozen: reopen the series, with a reason, to change it."
    )
    for name in FROZEN_FIELDS:
        settings.setdefault(name, reason)
    legs = _(
        "The final has begun (its first hand is recorded), so the series' legs stay as "
        "they are: reopen the series, with a reason, to add or remove one."
    )
    return SeriesLocks(started=True, frozen=True, settings=settings, legs=legs)


def accepted(check: Callable[[], None]) -> bool:
    try:
        check()
    except ServiceError:
        return False
    return True


def leg_choices(series: Series, events: QuerySet[Event]) -> list[Event]:
    """Of `events` (those the organiser directs), the ones `add_leg` would take: not a
    leg of any series nor this series' final, and a public series' a public event. A
    copy stays listed (the page shows it disabled, saying why). 1 query."""
    found = events.filter(series__isnull=True).exclude(final_of=series)
    return [e for e in found if accepted(lambda e=e: check_public_event(series.public, e, as_=""))]


def final_choices(series: Series, events: QuerySet[Event]) -> list[Event]:
    """Of `events` (those the organiser directs), the ones `create_final` would take:
    once the series has its final, that event alone, until it finishes; before, an event
    with no round yet that is no leg of a series and not another series' final. A
    public series' final is a public event, and a final carrying a score ranks by total
    points. A copy stays listed (the page shows it disabled, saying why). 1 query."""
    if series.final_id is not None:
        found = events.filter(pk=series.final_id)
    else:
        found = events.filter(series__isnull=True, final_of__isnull=True, rounds__isnull=True)
    found = found.exclude(status=Event.Status.FINISHED)

    def takes(event: Event) -> bool:
        return accepted(lambda: check_public_event(series.public, event, as_="")) and accepted(
            lambda: check_carry_over(series.carry_over_step, event, field="event")
        )

    return [event for event in found if takes(event)]
