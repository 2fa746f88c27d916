"""Public pages about events and players: the events list (the front page) and a
player's results across events. No login; private events do not exist for the public."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from scoring.leaderboard import player_history
from tournaments.models import Event
from tournaments.selectors import public_event_list

# Which events the list shows, and under which heading (a draft is still being set up).
GROUPS = (
    (Event.Status.RUNNING, "Playing now"),
    (Event.Status.REGISTRATION, "Coming up"),
    (Event.Status.FINISHED, "Finished"),
)


@require_safe
@gzip_page
def events(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events: one query."""
    listed = public_event_list(request.user, [status for status, _ in GROUPS])
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
