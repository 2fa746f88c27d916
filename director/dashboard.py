"""The director's event dashboard: the events they direct, an event's rounds, the chosen
round table by table (players, hands entered, what is missing, locks) and the seating
review with its quality report. Actions are in `director.rounds`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from core import selectors, services
from core.copies.selectors import copy_of
from core.entries.selectors import label_entries, label_players, namesakes_of
from core.selectors import TableProgress
from core.stored_texts.words import worded
from core.words import listing
from director import publishing, table_entry
from director.common import asked, director_event, director_round, refusal
from director.forms import LeavePointForm, StartRoundForm, TableJumpForm, WithdrawForm
from director.screens import panel as screens_panel
from director.site import site_panel
from tournaments.models import Entry, Event, Round, Table


@dataclass
class TableRow(TableProgress):
    """A table on the dashboard: its progress, its players, its sheet's address."""

    players: list[str] = field(default_factory=list)
    url: str = ""


def pair_words(pair, names: dict[int, str]) -> str:
    """Two players who share a table, in words ("Ann and Bob")."""
    shown = [names.get(pid, f"#{pid}") for pid in pair]
    if len(shown) == 2:
        return _("%(first)s and %(second)s") % {"first": shown[0], "second": shown[1]}
    return listing(shown)


def quality_report(round_: Round, names: dict[int, str]) -> dict[str, Any]:
    """The seating's quality in words; `repeat_pairs` holds entry ids (the seating's)."""
    quality = dict(round_.quality or {})
    pairs = [pair_words(pair, names) for pair in quality.get("repeat_pairs") or []]
    spread = quality.get("rank_spread")
    return {
        "error": worded(quality.get("error")),
        "repeat_meetings": quality.get("repeat_meetings"),
        "lower_bound": quality.get("lower_bound"),
        "pairs": pairs,
        "widest_spread": max(spread) if spread else None,
        "known": bool(quality),
        "club_meetings": quality.get("club_meetings"),
        "club_pairs": [pair_words(pair, names) for pair in quality.get("club_pairs") or []],
    }


@dataclass
class Dashboard:
    event: Event
    rounds: list[Round]
    current: Round | None
    tables: list[TableRow]
    quality: dict[str, Any]
    hands_needed: int
    # The tables whose players may still be swapped or moved (the service's rule).
    movable: list[Table]
    # Why the next round cannot start now, in the service's words ("": it can).
    why_not_start: str
    # Why the event cannot be finished now ("": it can, or it is finished already).
    why_not_finish: str = ""
    # The chosen round's players who left their tables mid-round.
    leaving: list = field(default_factory=list)
    # Why the chosen round cannot be reopened ("": it can), and the next round's draft
    # that reopening it would discard (the service's check, asked once).
    why_not_reopen: str = ""
    reopen_discards: Round | None = None

    @property
    def can_finish(self) -> bool:
        return self.event.status != Event.Status.FINISHED and not self.why_not_finish

    @property
    def can_reopen(self) -> bool:
        return self.current is not None and not self.why_not_reopen

    @property
    def offers_extra_round(self) -> bool:
        """Offer a round beyond the plan once every planned round exists (the service
        adds one whenever asked, short of a finished event)."""
        return (
            self.event.status != Event.Status.FINISHED
            and len(self.rounds) >= self.event.rounds_planned
        )

    @property
    def can_start(self) -> bool:
        return not self.why_not_start

    @property
    def next_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def complete_tables(self) -> int:
        return sum(1 for t in self.tables if t.complete)

    @property
    def locked_tables(self) -> int:
        return sum(1 for t in self.tables if t.locked)

    @property
    def seating_adjustable(self) -> bool:
        return self.current is not None and self.current.status in (
            Round.Status.DRAFT,
            Round.Status.PUBLISHED,
        )


def build_dashboard(event: Event, number: int | None = None) -> Dashboard:
    """The rounds, and the chosen round (the latest by default) table by table, players
    named as the event's lists show them (namesakes told apart): 9 queries."""
    rounds = list(selectors.rounds_of(event))
    current = rounds[-1] if rounds else None
    if number is not None:
        current = next((r for r in rounds if r.number == number), None)
        if current is None:
            raise Http404("No such round.")
    tables: list[TableRow] = []
    names: dict[int, str] = {}
    movable: list[Table] = []
    shown = namesakes_of(event) if current is not None else {}
    if current is not None:
        seated = selectors.round_with_seating(event, current.number)
        progress = {t.number: t for t in selectors.tables_progress(event, current.number)}
        base = reverse("director:round", args=[event.slug, current.number])
        for table in seated.tables.all():
            seats = list(table.seats.all())
            label_players((seat.entry.player for seat in seats), shown)
            names.update({seat.entry_id: seat.entry.player.shown for seat in seats})
            state = progress[table.number]
            tables.append(
                TableRow(
                    **asdict(state),
                    players=[seat.entry.player.shown for seat in seats],
                    url=f"{base}tables/{table.number}/",
                )
            )
            touched = bool(state.entered or state.redeals)
            if services.seating_adjustable(current, hands_recorded=touched):
                movable.append(table)
    reopen_discards, why_not_reopen = (
        asked(lambda: services.check_can_reopen(current, rounds)) if current else (None, "")
    )
    return Dashboard(
        event=event,
        rounds=rounds,
        current=current,
        tables=tables,
        quality=quality_report(current, names) if current is not None else {},
        hands_needed=event.rules.hand_count,
        movable=movable,
        why_not_start=refusal(lambda: services.check_can_start(event)),
        why_not_finish=refusal(lambda: services.check_can_finish(event)),
        leaving=leaving(current, shown) if current is not None else [],
        why_not_reopen=why_not_reopen,
        reopen_discards=reopen_discards,
    )


def leaving(round_: Round, shown: dict[int, str]) -> list:
    """The round's seats whose players left mid-round, their players labelled."""
    seats = selectors.seats_leaving(round_)
    label_players((seat.entry.player for seat in seats), shown)
    return seats


def day_panel(event: Event) -> dict[str, Any]:
    """The players panel: who is active (and checked in), who withdrew (possible
    substitutes), each player's name as the event's lists show it: 1 query."""
    entries = label_entries(selectors.entries_by_name(event))
    active = [e for e in entries if e.status == Entry.Status.ACTIVE]
    return {
        "active": active,
        "withdrawn": [e for e in entries if e.status == Entry.Status.WITHDRAWN],
        "checked_in": sum(1 for e in active if e.checked_in),
    }


# --- Pages ----------------------------------------------------------------------------


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.directed_events(request.user).order_by("-starts_on", "name", "pk")
    events = selectors.with_copy_of(events, request.user)
    return render(request, "director/event_list.html", {"events": events})


@login_required
def event_dashboard(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    event = director_event(request, slug)
    dashboard = build_dashboard(event, number)
    context = {
        "event": event,
        "dash": dashboard,
        "start_form": StartRoundForm(event=event),
        "jump_form": TableJumpForm(),
        "entries": table_entry.panel(event, dashboard.current),
        "screens": screens_panel(event, dashboard.current),
        "withdraw_form": WithdrawForm(event=event),
        "leave_form": LeavePointForm(event=event),
        "day": day_panel(event),
        "site": site_panel(request),
        "copy": copy_of(request.user, event),
        "publishing": publishing.panel(request, event),
    }
    response = render(request, "director/dashboard.html", context)
    if context["publishing"]["new_link"]:
        add_never_cache_headers(response)  # a new publishing link shows on this page only
    return response


@login_required
def table_jump(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """'Go to table N': the quickest way from a paper sheet to its page."""
    round_ = director_round(request, slug, number)
    form = TableJumpForm(request.GET)
    if form.is_valid() and round_.tables.filter(number=form.cleaned_data["table"]).exists():
        return redirect("director:sheet", slug, number, form.cleaned_data["table"])
    messages.error(request, _("Round %(number)s has no such table.") % {"number": number})
    return redirect("director:round", slug, number)
