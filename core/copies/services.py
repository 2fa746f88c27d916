"""Putting a copy in: of the events sharing an identity (an event and the copies an
archive's import kept beside it), one at most counts in the ratings and series. An
organiser who wants a copy counted instead puts it in, and the event that counted until
then is taken out in the same transaction (it becomes the copy, and gives the copy its
place as a leg, or the final, of its series): one played set never counts twice. The
database holds it too (`Event` constraint "event_counted_once").

One service for the director's page, the API and the admin."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.common import with_history_user
from core.copies.selectors import counted_of
from core.errors import Forbidden, StateConflict
from core.events.access import can_direct
from core.locks import for_request
from core.ratings.services import queue_ratings_refresh
from core.screens.services import screens_changed
from core.series.services import check_carry_over, check_public_event, check_qualification_open
from core.series.standings import queue_series_refresh
from tournaments.models import Event, Series


def check_may_count(by: AbstractBaseUser | None, event: Event, other: Event | None) -> None:
    """Only whoever directs the copy, and the event it would take out, puts it in (a
    superuser directs them all; `by` None: the shell or a command, which may)."""
    if by is None:
        return
    if not can_direct(by, event):
        raise Forbidden(
            _("Only a director of %(name)s may count it.") % {"name": event.name}, field="event"
        )
    if other is not None and not can_direct(by, other):
        raise Forbidden(
            _(
                "Counting %(slug)s takes %(other)s out of the ratings and series, and you do "
                "not direct %(other)s: one of its directors may."
            )
            % {"slug": event.slug, "other": other.slug},
            field="event",
        )


def locked(event: Event) -> tuple[Event, Event | None, Series | None, Series | None]:
    """The copy, the event of its identity that counts (if any), and the series that
    event is a leg of and the final of, each locked: the series first, then the events
    in id order (the series services' order), then read again under the locks."""
    other = counted_of(event.uid, besides=event)
    series_ids: set[int] = set()
    if other is not None:
        series_ids = {other.series_id} - {None}
        series_ids |= set(Series.objects.filter(final=other).values_list("pk", flat=True))
    list(Series.objects.select_for_update().filter(pk__in=series_ids).order_by("pk"))
    pks = {event.pk} | ({other.pk} if other is not None else set())
    events = {e.pk: e for e in Event.objects.select_for_update().filter(pk__in=pks).order_by("pk")}
    event = events[event.pk]
    now = counted_of(event.uid, besides=event)
    leg_of = final_of = None
    if now is not None:
        leg_of = Series.objects.filter(pk=now.series_id).first() if now.series_id else None
        final_of = Series.objects.filter(final=now).first()
    changed = (now and now.pk) != (other and other.pk) or any(
        s is not None and s.pk not in series_ids for s in (leg_of, final_of)
    )
    if changed:
        raise StateConflict(_("The event changed meanwhile; nothing was saved. Try again."))
    return event, now, leg_of, final_of


@for_request("event")
def count_copy(*, event: Event, by: AbstractBaseUser | None = None) -> Event:
    """Count the copy `event` in the ratings and series, instead of the event of its
    identity that counted until now, which is taken out (a copy in its turn), giving
    `event` its place as a leg or as the final of a series. Refused, with nothing
    written, for an event that counts already, a user who does not direct both, or a
    series that cannot take the change (its qualification frozen, a private copy of a
    public series' leg, a final that must rank by total points)."""
    event, other, leg_of, final_of = locked(event)
    if event.counted:
        raise StateConflict(
            _("%(name)s (%(slug)s) counts already: it is not a copy left out.")
            % {"name": event.name, "slug": event.slug},
            field="event",
        )
    check_may_count(by, event, other)
    if leg_of is not None:
        check_qualification_open(leg_of, field="event")
        check_public_event(leg_of.public, event, as_="a leg")
    if final_of is not None:
        check_public_event(final_of.public, event, as_="the final")
        check_carry_over(final_of.carry_over_step, event, field="event", error=StateConflict)
    if other is not None:
        other.counted = False
        other.series = None
        other.series_places = None  # what its series counted from it is the copy's now
        left_out = st.stored(st.LEFT_OUT, slug=event.slug)
        with_history_user(other, by, left_out).save(
            update_fields=["counted", "series", "series_places", "updated_at"]
        )
        screens_changed(other)  # its pages say it is a copy now
    event.counted = True
    event.series = leg_of
    event.series_places = None
    reason = st.stored(st.COUNTED, slug=other.slug if other is not None else None)
    with_history_user(event, by, reason).save(
        update_fields=["counted", "series", "series_places", "updated_at"]
    )
    if final_of is not None:
        final_of.final = event
        with_history_user(final_of, by, st.stored(st.FINAL_COUNTED, slug=event.slug)).save(
            update_fields=["final", "updated_at"]
        )
        queue_series_refresh(final_of.pk)
    if leg_of is not None:
        queue_series_refresh(leg_of.pk)
    screens_changed(event)
    queue_ratings_refresh()
    return event
