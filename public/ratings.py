"""Public pages of the ratings: the ranking across events, and what a player's page
shows of them (rating, its chart, best results, head-to-head). No login; everything
comes from public events (ratings) or events the viewer may see (results)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from core.entries.names import shown_names
from core.entries.selectors import label_players
from core.ratings import profiles
from core.ratings import selectors as read
from game.ratings import MIN_SETS


@require_safe
@gzip_page
def ratings(request: HttpRequest) -> HttpResponse:
    """The ranking by rating; players with fewer than MIN_SETS rated sets only on
    asking (`?all=1`). 2 queries."""
    everyone = request.GET.get("all") == "1"
    rows = read.ratings_table(min_sets=1 if everyone else MIN_SETS)
    return render(
        request,
        "public/ratings.html",
        {
            "rows": rows,
            "everyone": everyone,
            "min_sets": MIN_SETS,
            "explanation": read.EXPLANATION,
            "version": read.version(),
        },
    )


def profile(request: HttpRequest, history: dict[str, Any]) -> dict[str, Any]:
    """What a player's page adds to their events: their rating and its chart, their
    best results and, against an opponent chosen with `?vs=ID`, every set the two
    played at one table."""
    player = history["player"]
    results = read.event_results(history)
    points = read.rating_history(player.pk)
    met = profiles.opponents(request.user, player.pk)
    # The player and their opponents told apart where two share a name.
    label_players([player, *met], shown_names((p.pk, p.name, p.club) for p in [player, *met]))
    chosen = None
    raw = request.GET.get("vs", "")
    if raw.isascii() and raw.isdigit() and len(raw) < 12:
        chosen = next((p for p in met if p.pk == int(raw)), None)
    meetings = profiles.head_to_head(request.user, player.pk, chosen.pk) if chosen else []
    return {
        "skill": read.rating_of(player.pk),
        "explanation": read.EXPLANATION,
        "min_sets": MIN_SETS,
        "chart": profiles.chart(points),
        "rated_rounds": len(points),
        "best": read.best_results(results),
        "opponents": met,
        "opponent": chosen,
        "meetings": meetings,
        "record": profiles.record(meetings),
    }
