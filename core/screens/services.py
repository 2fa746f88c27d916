"""What the venue screens show besides the standings: the round clock and the
director's announcements. Each change grows the event's screen version and announces
it once committed, so every live page follows it within seconds (`core.caching`).

The clock's arithmetic is `game.clock`'s; this module loads the round's clock under the
round's row lock, applies the director's action and stores the result with its history.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.caching import announce_screen
from core.common import with_history_user
from core.errors import InvalidInput, StateConflict
from core.locks import for_request
from core.words import translated
from game.clock import Clock, ClockConflict, ClockError
from tournaments.models import ANNOUNCEMENT_MAX, Announcement, Event, Round, RoundClock

# More than this many lines at once is a wall of text on a projector.
MAX_SHOWN = 10


def screens_changed(event: Event) -> int:
    """Grow the event's screen version (its row stays locked until the transaction
    ends) and have live pages told once it commits; the new version."""
    Event.objects.filter(pk=event.pk).update(screen_version=F("screen_version") + 1)
    version = Event.objects.filter(pk=event.pk).values_list("screen_version", flat=True).get()
    announce_screen(event, version)
    return version


def user_or_none(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


# --- The round clock ----------------------------------------------------------------


@for_request("event")
def clock_action(
    *,
    round: Round,
    action: str,
    minutes: int | None = None,
    table: int | None = None,
    by: AbstractBaseUser | None = None,
) -> RoundClock:
    """Start, pause, resume or extend the clock of a round in play (`game.clock.ACTIONS`);
    an extension goes to every table, or to table number `table` only."""
    # The event's row first, as every writer that locks both takes them (a standings
    # rebuild holds the event's row while it reads the round and its tables).
    Event.objects.select_for_update().filter(pk=round.event_id).values_list("pk").get()
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        if round_.status == Round.Status.CLOSED:
            message = _("Round %(round)s is closed: only a round in play has a clock.")
        else:
            message = _("Round %(round)s is not published yet: only a round in play has a clock.")
        raise StateConflict(message % {"round": round_.number}, field="round")
    stored = RoundClock.objects.filter(round=round_).first()
    clock = stored.as_clock() if stored else Clock(minutes=round_.event.round_minutes)
    if action == "extend" and table is not None and not round_.tables.filter(number=table).exists():
        raise InvalidInput(
            _("Round %(round)s has no table %(table)s.") % {"round": round_.number, "table": table},
            field="table",
        )
    try:
        changed = clock.act(timezone.now(), action, minutes, table)
    except ClockError as refused:
        error = StateConflict if isinstance(refused, ClockConflict) else InvalidInput
        raise error(translated(refused), field=refused.field) from refused
    if stored is None:
        stored = RoundClock(round=round_)
    stored.store(changed)
    with_history_user(stored, by).save()
    screens_changed(round_.event)
    return stored


# --- Announcements ------------------------------------------------------------------


@for_request("event")
def post_announcement(
    *, event: Event, text: str, by: AbstractBaseUser | None = None
) -> Announcement:
    """Put a line on the venue screens until a director removes it."""
    line = " ".join(str(text).split())  # one line, however it was typed
    if not line:
        raise InvalidInput(_("Write the announcement."), field="text")
    if len(line) > ANNOUNCEMENT_MAX:
        raise InvalidInput(
            _("An announcement is at most %(most)s characters; this one has %(length)s.")
            % {"most": ANNOUNCEMENT_MAX, "length": len(line)},
            field="text",
        )
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.announcements.filter(removed_at__isnull=True).count() >= MAX_SHOWN:
        raise StateConflict(
            ngettext(
                "%(count)s announcements are showing already; remove one first.",
                "%(count)s announcements are showing already; remove one first.",
                MAX_SHOWN,
            )
            % {"count": MAX_SHOWN},
            field="text",
        )
    announcement = Announcement.objects.create(
        event=event, text=line, posted_at=timezone.now(), posted_by=user_or_none(by)
    )
    screens_changed(event)
    return announcement


@for_request("event")
def remove_announcement(
    *, announcement: Announcement, by: AbstractBaseUser | None = None
) -> Announcement:
    """Take a line off the screens; it stays in the event's history. Removing one
    already removed changes nothing (a request sent twice)."""
    found = Announcement.objects.select_for_update().select_related("event").get(pk=announcement.pk)
    if found.removed_at is not None:
        return found
    found.removed_at = timezone.now()
    found.removed_by = user_or_none(by)
    found.save(update_fields=["removed_at", "removed_by"])
    screens_changed(found.event)
    return found
