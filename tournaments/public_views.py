"""Public pages about events and players: the events list (the front page) and a
player's results across events. No login; private events do not exist for the public."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from scoring.leaderboard import PUBLIC_ROUND_STATUSES, player_history
from tournaments.models import Entry, Event, Round
from tournaments.selectors import visible_events

# Which events the list shows, and under which heading (a draft is still being set up).
GROUPS = (
    (Event.Status.RUNNING, "Playing now"),
    (Event.Status.REGISTRATION, "Coming up"),
    (Event.Status.FINISHED, "Finished"),
)


def count_of(queryset, field: str) -> Coalesce:
    """A correlated COUNT, so the visibility join cannot multiply it."""
    counted = queryset.order_by().values(field).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


@require_safe
@gzip_page
def events(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events: one query."""
    listed = (
        Event.objects.filter(
            pk__in=visible_events(request.user).values("pk"),
            status__in=[status for status, _ in GROUPS],
        )
        .annotate(
            players=count_of(Entry.objects.filter(event=OuterRef("pk")), "event_id"),
            rounds_played=count_of(
                Round.objects.filter(event=OuterRef("pk"), status__in=PUBLIC_ROUND_STATUSES),
                "event_id",
            ),
        )
        .order_by("-starts_on", "name", "pk")
    )
    by_status: dict[str, list[Event]] = {status: [] for status, _ in GROUPS}
    for event in listed:
        by_status[event.status].append(event)
    groups = [
        {"status": status, "title": title, "events": by_status[status]} for status, title in GROUPS
    ]
    return render(request, "public/events.html", {"groups": groups, "any": any(by_status.values())})


@require_safe
@gzip_page
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's results in every event the viewer may see: 4 queries."""
    history = player_history(request.user, player_id)
    return render(request, "public/player.html", history)


def healthz(request: HttpRequest) -> HttpResponse:
    """The trivial view the benchmark compares the leaderboard with."""
    return HttpResponse("ok", content_type="text/plain")
