"""The players' entries as the director follows them: on the dashboard, each table's
hands waiting for confirmation, disputed and confirmed (live: the panel polls); on a
table's sheet, the entries still open with their versions side by side, each of which
the director may record as it stands (a director's entry always wins); and the players'
codes, for the director to read out or print."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from core import selectors
from core.sheet_form import row_fields
from director.common import director_event, director_round
from tournaments.models import Event, Round

POLL_SECONDS = 5


def panel(event: Event, round_: Round | None) -> dict[str, Any] | None:
    """The dashboard's panel of the players' entries in `round_` (None where there is
    nothing to follow: a round not in play, at an event where only directors enter and
    no player entered anything): one query."""
    if round_ is None or round_.status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        return None
    tables = selectors.round_entries(event, round_.number)
    counts = selectors.entry_counts(tables)
    if event.table_entry != Event.TableEntry.PLAYERS and not any(counts.values()):
        return None
    sheet = reverse("director:round", args=[event.slug, round_.number])
    return {
        "round": round_,
        "tables": [{"entries": t, "url": f"{sheet}tables/{t.number}/"} for t in tables],
        "counts": counts,
        "players_enter": event.table_entry == Event.TableEntry.PLAYERS,
        "poll_url": reverse("director:round-entries", args=[event.slug, round_.number]),
        "poll_seconds": POLL_SECONDS,
    }


@login_required
@require_safe
def entries_panel(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The dashboard's panel again (it polls this)."""
    round_ = director_round(request, slug, number)
    event = round_.event
    context = {"event": event, "entries": panel(event, round_)}
    return render(request, "director/_entries.html", context)


def open_entries(table) -> list[dict[str, Any]]:
    """The entries still open at `table`, each version with what posting it as the
    sheet's row takes (the fields HandRowForm reads, and the version it was made on)."""
    return [
        {
            "proposal": proposal,
            "versions": [
                {
                    "version": version,
                    "fields": sorted(row_fields(version.entry).items()) if version.entry else [],
                }
                for version in proposal.versions
            ],
        }
        for proposal in selectors.open_proposals(table).values()
    ]


@login_required
@require_safe
def round_codes(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every seated player's code, table by table: to read one out to a player who lost
    their slip, or to check the slips."""
    event = director_event(request, slug)
    round_ = selectors.round_of(event, number)
    context = {"event": event, "round": round_, "tables": selectors.round_codes(event, number)}
    return render(request, "director/codes.html", context)
