"""Reads of an event's identity: the events of one identity (what an archive's import
finds held here), and which event a copy copies, as lists and documents mark it (only
an event the reader may see is named)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import OuterRef, Q, QuerySet, Subquery

from core.events.access import User, visible_events
from tournaments.models import Event, Series


def events_of(uid: uuid.UUID) -> list[Event]:
    """The events of this identity here: the one that counts first, then the newest
    first. 1 query."""
    return list(Event.objects.filter(uid=uid).order_by("-counted", "-created_at", "-pk"))


def counted_of(uid: uuid.UUID, *, besides: Event | None = None) -> Event | None:
    """The event of this identity that counts here (other than `besides`), if any."""
    found = Event.objects.filter(uid=uid, counted=True)
    if besides is not None:
        found = found.exclude(pk=besides.pk)
    return found.first()


def copied_slug(reader: User, uid: str = "uid", pk: str = "pk") -> Subquery:
    """The slug of the event a copy copies (the event of its identity that counts), if
    the reader may see it, as an expression over a query's events (`uid`, `pk`: the
    outer query's names of the event's identity and id); null for an event that counts
    and for a copy whose original is gone or hidden from the reader."""
    return Subquery(
        Event.objects.filter(
            uid=OuterRef(uid),
            counted=True,
            pk__in=visible_events(reader).values("pk"),
        )
        .exclude(pk=OuterRef(pk))
        .values("slug")[:1]
    )


def with_copy_of(events: QuerySet[Event], reader: User) -> QuerySet[Event]:
    """`events`, each with `copy_of`: the slug of the event it copies (`copied_slug`).
    A list marks every event with `counted` false as a copy, naming `copy_of` when set.
    No query of its own."""
    return events.annotate(copy_of=copied_slug(reader))


def copies_shown(reader: User, events: Iterable[Event]) -> dict[int, str | None]:
    """Each copy among `events` (by id) and the slug of the event it copies, as
    `copied_slug` gives it: 1 query, none when no event is a copy."""
    copies = {event.pk: event.uid for event in events if not event.counted}
    if not copies:
        return {}
    counted = dict(
        Event.objects.filter(
            uid__in=set(copies.values()),
            counted=True,
            pk__in=visible_events(reader).values("pk"),
        ).values_list("uid", "slug")
    )
    return {pk: counted.get(uid) for pk, uid in copies.items()}


@dataclass(frozen=True)
class CopyOf:
    """What a copy's page says: the event it copies (the one of its identity that
    counts) if the reader may see it, and whether one counts at all."""

    original: Event | None
    counted_elsewhere: bool  # an event of its identity counts (perhaps hidden)
    leg_of: str = ""  # the series `original` is a leg of, as its name reads
    final_of: str = ""  # the series `original` is the final of


def copy_of(reader: User, event: Event) -> CopyOf | None:
    """None for an event that counts; for a copy, what it copies. 3 queries at most."""
    if event.counted:
        return None
    other = counted_of(event.uid, besides=event)
    if other is None:
        return CopyOf(original=None, counted_elsewhere=False)
    if not visible_events(reader).filter(pk=other.pk).exists():
        return CopyOf(original=None, counted_elsewhere=True)
    series = list(Series.objects.filter(Q(legs=other) | Q(final=other)).distinct())
    return CopyOf(
        original=other,
        counted_elsewhere=True,
        leg_of=next((str(s) for s in series if s.pk == other.series_id), ""),
        final_of=next((str(s) for s in series if s.final_id == other.pk), ""),
    )
