"""The director's event-day pages: the events they direct, an event's dashboard (rounds,
seating and the quality report, each table's progress) and the round actions.

Every page starts from `selectors.directed_events(user)`: another event's director
gets a 404, exactly as if the event did not exist, so a private event never leaks.
Actions are POSTs that call one service each and come back to the dashboard with the
service's answer as a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from scoring.rulesets import get_ruleset
from scoring.selectors import hands_entered
from tournaments import selectors, services
from tournaments.errors import ServiceError
from tournaments.forms import MoveForm, SeedForm, StartRoundForm, SwapForm, TableJumpForm
from tournaments.models import Event, Round, Table


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def director_event(request: HttpRequest, slug: str) -> Event:
    """The event if this user directs it (a superuser directs them all); 404 otherwise."""
    event = selectors.directed_events(request.user).filter(slug=slug).first()
    if event is None:
        raise Http404("No such event.")
    return event


def director_round(request: HttpRequest, slug: str, number: int) -> Round:
    return selectors.round_of(director_event(request, slug), number)


# --- Reads for the dashboard (a fixed number of queries whatever the event's size) ----


@dataclass
class TableProgress:
    number: int
    locked: bool
    players: list[str]
    scored: list[int] = field(default_factory=list)
    redeals: int = 0
    needed: int = 9
    url: str = ""  # the table's sheet; its lock and unlock actions are under it

    @property
    def entered(self) -> int:
        return len(self.scored)

    @property
    def missing(self) -> list[int]:
        return [n for n in range(1, self.needed + 1) if n not in self.scored]

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def missing_text(self) -> str:
        """'4-9' or '2, 5': the hands still to enter, as ranges."""
        runs: list[list[int]] = []
        for n in self.missing:
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def round_progress(event: Event, round_: Round, needed: int) -> list[TableProgress]:
    """Each table of a round (from `selectors.round_with_seating`) with its players and
    the hands entered: one query more."""
    base = reverse("director:round", args=[event.slug, round_.number])
    progress = {
        table.pk: TableProgress(
            number=table.number,
            locked=table.locked,
            players=[seat.entry.player.name for seat in table.seats.all()],
            needed=needed,
            url=f"{base}tables/{table.number}/",
        )
        for table in round_.tables.all()
    }
    for table_id, (scored, redeals) in hands_entered(round_).items():
        if table_id in progress:
            progress[table_id].scored = scored
            progress[table_id].redeals = redeals
    return sorted(progress.values(), key=lambda t: t.number)


def quality_report(round_: Round, names: dict[int, str]) -> dict[str, Any]:
    """The seating's quality in words; `repeat_pairs` holds entry ids (the seating's)."""
    quality = dict(round_.quality or {})
    pairs = [
        " and ".join(names.get(pid, f"#{pid}") for pid in pair)
        for pair in quality.get("repeat_pairs") or []
    ]
    spread = quality.get("rank_spread")
    return {
        "error": quality.get("error"),
        "repeat_meetings": quality.get("repeat_meetings"),
        "lower_bound": quality.get("lower_bound"),
        "pairs": pairs,
        "widest_spread": max(spread) if spread else None,
        "known": bool(quality),
    }


@dataclass
class Dashboard:
    event: Event
    rounds: list[Round]
    current: Round | None
    tables: list[TableProgress]
    quality: dict[str, Any]
    hands_needed: int
    # The tables whose players may still be swapped or moved: all of a draft's, and
    # in a round in play those where no hand is recorded yet (the service decides).
    movable: list[Table]

    @property
    def can_start(self) -> bool:
        last = self.rounds[-1] if self.rounds else None
        return (
            (last is None or last.status == Round.Status.CLOSED)
            and len(self.rounds) < self.event.rounds_planned
            and self.event.status != Event.Status.FINISHED
        )

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
    """The rounds, and the chosen round (the latest by default) table by table: 6 queries."""
    rounds = list(event.rounds.order_by("number"))
    current = rounds[-1] if rounds else None
    if number is not None:
        current = next((r for r in rounds if r.number == number), None)
        if current is None:
            raise Http404("No such round.")
    needed = get_ruleset(event.ruleset).hand_count
    tables: list[TableProgress] = []
    names: dict[int, str] = {}
    movable: list[Table] = []
    if current is not None:
        seated = selectors.round_with_seating(event, current.number)
        tables = round_progress(event, seated, needed)
        untouched = {t.number for t in tables if not t.entered and not t.redeals}
        for table in seated.tables.all():
            for seat in table.seats.all():
                names[seat.entry_id] = seat.entry.player.name
        if current.status in (Round.Status.DRAFT, Round.Status.PUBLISHED):
            movable = [
                table
                for table in seated.tables.all()
                if current.status == Round.Status.DRAFT or table.number in untouched
            ]
    return Dashboard(
        event=event,
        rounds=rounds,
        current=current,
        tables=tables,
        quality=quality_report(current, names) if current is not None else {},
        hands_needed=needed,
        movable=movable,
    )


# --- Pages ----------------------------------------------------------------------------


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.directed_events(request.user).order_by("-starts_on", "name")
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
    }
    return render(request, "director/dashboard.html", context)


@login_required
def table_jump(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """'Go to table N': the quickest way from a paper sheet to its page."""
    round_ = director_round(request, slug, number)
    form = TableJumpForm(request.GET)
    if form.is_valid() and round_.tables.filter(number=form.cleaned_data["table"]).exists():
        return redirect("director:sheet", slug, number, form.cleaned_data["table"])
    messages.error(request, f"Round {number} has no such table.")
    return redirect("director:round", slug, number)


# --- Actions: one service call each ----------------------------------------------------


def back_to(request: HttpRequest, default: str) -> HttpResponse:
    """Where the action came from (the sheet, for lock and unlock), else the dashboard."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


def act(request: HttpRequest, done: str, action: Callable[[], Any], default: str) -> HttpResponse:
    """Run one service call; its refusal becomes the message the director reads."""
    try:
        action()
    except ServiceError as error:
        for text in (msg for msgs in error.errors.values() for msg in msgs):
            messages.error(request, text)
    else:
        messages.success(request, done)
    return back_to(request, default)


def invalid_form(request: HttpRequest, form, default: str) -> HttpResponse:
    for errors in form.errors.values():
        for text in errors:
            messages.error(request, text)
    return back_to(request, default)


def dashboard_url(event: Event, number: int | None = None) -> str:
    if number is None:
        return reverse("director:event", args=[event.slug])
    return reverse("director:round", args=[event.slug, number])


@login_required
@require_POST
def start_round(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    form = StartRoundForm(request.POST, event=event)
    url = dashboard_url(event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    return act(
        request,
        "The next round is started; its seating is ready below as a draft.",
        lambda: services.start_round(
            event=event,
            policy=form.cleaned_data["policy"] or None,
            seed=form.cleaned_data["seed"],
            by=request.user,
        ),
        url,
    )


def round_action(
    request: HttpRequest, slug: str, number: int, done: str, call: Callable[[Round], Any]
) -> HttpResponse:
    round_ = director_round(request, slug, number)
    return act(request, done, lambda: call(round_), dashboard_url(round_.event))


@login_required
@require_POST
def publish_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_action(
        request,
        slug,
        number,
        f"Round {number} is published: it is in play.",
        lambda r: services.publish_round(round=r, by=request.user),
    )


@login_required
@require_POST
def close_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_action(
        request,
        slug,
        number,
        f"Round {number} is closed.",
        lambda r: services.close_round(round=r, force=False, by=request.user),
    )


@login_required
@require_POST
def force_close_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_action(
        request,
        slug,
        number,
        f"Round {number} is closed with hands missing (recorded as forced).",
        lambda r: services.close_round(round=r, force=True, by=request.user),
    )


@login_required
@require_POST
def reseat_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = director_round(request, slug, number)
    form = SeedForm(request.POST)
    url = dashboard_url(round_.event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    return act(
        request,
        f"Round {number} is seated again.",
        lambda: services.reseat_round(
            round=round_, seed=form.cleaned_data["seed"], by=request.user
        ),
        url,
    )


@login_required
@require_POST
def swap_players(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = director_round(request, slug, number)
    form = SwapForm(request.POST, event=round_.event)
    url = dashboard_url(round_.event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    return act(
        request,
        f"{first.player.name} and {second.player.name} have swapped places.",
        lambda: services.swap_players(round=round_, first=first, second=second, by=request.user),
        url,
    )


@login_required
@require_POST
def move_player(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = director_round(request, slug, number)
    form = MoveForm(request.POST, event=round_.event)
    url = dashboard_url(round_.event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    entry, table_number = form.cleaned_data["player"], form.cleaned_data["table"]
    return act(
        request,
        f"{entry.player.name} moved to table {table_number}.",
        lambda: services.move_player(
            round=round_, entry=entry, table_number=table_number, by=request.user
        ),
        url,
    )


def director_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """A table of an event this user directs (with its round and event loaded)."""
    return selectors.table_of(director_event(request, slug), number, table)


@login_required
@require_POST
def lock_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    found = director_table(request, slug, number, table)
    return act(
        request,
        f"Table {table} is locked.",
        lambda: services.lock_table(table=found, by=request.user),
        dashboard_url(found.round.event),
    )


@login_required
@require_POST
def unlock_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    found = director_table(request, slug, number, table)
    return act(
        request,
        f"Table {table} is unlocked: its hands can be corrected.",
        lambda: services.unlock_table(table=found, by=request.user),
        dashboard_url(found.round.event),
    )
