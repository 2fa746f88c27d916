"""The players' entries as the director follows them: on the dashboard, each table's
hands waiting for confirmation, disputed and confirmed (live: the panel polls); on a
table's sheet, the entries still open with their versions side by side, each of which
the director may record as it stands in one action (a director's entry always wins),
and those settled lately (live too); and the players' codes, for the director to read
out or print."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core import selectors, services
from core.caching import stamps
from core.table_entry.settled import settled_lately
from director.common import (
    act,
    dashboard_url,
    director_event,
    director_round,
    director_table,
    invalid_form,
    read_only_reason,
)
from director.forms import TableEntryForm
from tournaments.models import Event, Round, Table


def panel(event: Event, round_: Round | None) -> dict[str, Any] | None:
    """The dashboard's panel of the players' entries in `round_`, with the event's
    setting of who enters (None before a round is in play): one query."""
    if round_ is None or round_.status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        return None
    tables = selectors.round_entries(event, round_.number)
    counts = selectors.entry_counts(tables)
    sheet = reverse("director:round", args=[event.slug, round_.number])
    return {
        "round": round_,
        "tables": [{"entries": t, "url": f"{sheet}tables/{t.number}/"} for t in tables],
        "counts": counts,
        "any": any(counts.values()),
        "players_enter": event.table_entry == Event.TableEntry.PLAYERS,
        "setting": TableEntryForm(initial={"table_entry": event.table_entry}),
        "poll_url": reverse("director:round-proposals", args=[event.slug, round_.number]),
        "poll_seconds": settings.DIRECTOR_ENTRIES_POLL_SECONDS,
    }


@login_required
@require_POST
def set_table_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Who enters the hands from now on: the directors only, or the players (the
    event's setting; the API and the admin change it too)."""
    event = director_event(request, slug)
    form = TableEntryForm(request.POST)
    url = dashboard_url(event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    choice = form.cleaned_data["table_entry"]
    done = (
        _("Players now enter their tables' hands; another player at the table confirms each.")
        if choice == Event.TableEntry.PLAYERS
        else _("Only directors enter the hands now; the players' codes open nothing.")
    )
    data = {"table_entry": choice}
    return act(
        request, done, lambda: services.update_event(event=event, data=data, by=request.user), url
    )


@login_required
@require_safe
def proposals_panel(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The dashboard's panel again (it polls this)."""
    round_ = director_round(request, slug, number)
    event = round_.event
    context = {"event": event, "entries": panel(event, round_)}
    return render(request, "director/_table_entry_live.html", context)


WHICH = ("entered", "disputed")  # a proposal's versions, in the order it lists them


def sheet_panel(table: Table, *, problem: str = "") -> dict[str, Any]:
    """The sheet's panel of the players' entries at `table`: those still open, each
    version with what recording it takes (the entry's number, which version); those
    settled lately, to say how (`core.table_entry.settled`); a refusal of the panel's
    action (`problem`). It polls, and the sheet asks it again after each save of a row
    (static/director/director.js); while nothing changed at the table it answers 204."""
    waiting = selectors.open_proposals(table)
    settled = settled_lately(table)
    round_ = table.round
    url = reverse("director:sheet-proposals", args=[round_.event.slug, round_.number, table.number])
    return {
        "players_entries": {
            "waiting": [
                {
                    "proposal": proposal,
                    "versions": [
                        {"version": version, "which": which}
                        for version, which in zip(proposal.versions, WHICH, strict=False)
                    ],
                }
                for proposal in waiting.values()
            ],
            "settled": settled,
            "problem": problem,
            "live": bool(waiting or settled or problem)
            or round_.event.table_entry == Event.TableEntry.PLAYERS,
            "editable": not read_only_reason(table),
            "poll_url": f"{url}?s={stamps.table_signature(table)}",
            "poll_seconds": settings.DIRECTOR_ENTRIES_POLL_SECONDS,
        }
    }


@login_required
@require_safe
def sheet_proposals(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The sheet's panel of the players' entries again, or 204 while nothing changed at
    the table."""
    found = director_table(request, slug, number, table)
    if request.GET.get("s", "") == stamps.table_signature(found):
        return HttpResponse(status=204)
    context = {"event": found.round.event, "round": found.round, "table": found}
    context.update(sheet_panel(found))
    return render(request, "director/_proposals.html", context)


@login_required
@require_safe
def round_codes(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every seated player's code, table by table: to read one out to a player who lost
    their slip, or to check the slips."""
    event = director_event(request, slug)
    round_ = selectors.round_of(event, number)
    context = {"event": event, "round": round_, "tables": selectors.round_codes(event, number)}
    return render(request, "director/codes.html", context)
