"""The director's actions on rounds and tables: start, publish, close (or force-close),
seat again, swap, move, lock and unlock. Each is a POST that calls one service and
comes back with the service's answer as a message."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from core import services
from core.words import listing
from director.common import (
    act,
    dashboard_url,
    director_event,
    director_round,
    director_table,
    event_form_action,
    invalid_form,
)
from director.forms import MoveForm, SeedForm, StartRoundForm, SwapForm
from tournaments.models import Round


@login_required
@require_POST
def start_round(request: HttpRequest, slug: str) -> HttpResponse:
    return event_form_action(
        request,
        slug,
        StartRoundForm,
        _("The next round is started; its seating is ready below as a draft."),
        lambda event, data: services.start_round(
            event=event, policy=data["policy"] or None, seed=data["seed"], by=request.user
        ),
        form_takes_event=True,
    )


def round_action(
    request: HttpRequest, slug: str, number: int, done: str, call: Callable[[Round], Any]
) -> HttpResponse:
    round_ = director_round(request, slug, number)
    return act(request, done, lambda: call(round_), dashboard_url(round_.event))


def round_view(done, call: Callable[..., Any], *, text_fields: tuple[str, ...] = ()):
    """A POST on a round that calls one service, `call(round=..., by=...)` with the
    form's `text_fields` too, and says `done` (a lazy text with the round's %(number)s,
    worded in the language of the request)."""

    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        given = {name: request.POST.get(name, "") for name in text_fields}
        return round_action(
            request,
            slug,
            number,
            done % {"number": number},
            lambda r: call(round=r, by=request.user, **given),
        )

    return view


publish_round = round_view(
    gettext_lazy("Round %(number)s is published: it is in play."), services.publish_round
)
close_round = round_view(
    gettext_lazy("Round %(number)s is closed."), partial(services.close_round, force=False)
)
force_close_round = round_view(
    gettext_lazy("Round %(number)s is closed with hands missing (recorded as forced)."),
    partial(services.close_round, force=True),
)


reopen_round = round_view(
    gettext_lazy(
        "Round %(number)s is reopened: it is in play again, and its hands can be entered or "
        "corrected. Close it again when they are."
    ),
    services.reopen_round,
    text_fields=("reason",),
)


@login_required
@require_POST
def finish_event(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    return act(
        request,
        _("The event is finished: its standings are the final results."),
        lambda: services.finish_event(event=event, by=request.user),
        dashboard_url(event),
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
        _("Round %(number)s is seated again.") % {"number": number},
        lambda: services.reseat_round(
            round=round_, seed=form.cleaned_data["seed"], by=request.user
        ),
        url,
    )


def seating_change(
    request: HttpRequest, slug: str, number: int, form_class: type, change: Callable
) -> HttpResponse:
    """Read a swap or move form; `change(round, data)` calls the service and says what
    was done."""
    round_ = director_round(request, slug, number)
    form = form_class(request.POST, event=round_.event)
    url = dashboard_url(round_.event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    done, call = change(round_, form.cleaned_data)
    return act(request, done, call, url)


@login_required
@require_POST
def swap_players(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def change(round_: Round, data: dict[str, Any]) -> tuple[str, Callable]:
        first, second = data["first"], data["second"]
        return (
            _("%(first)s and %(second)s have swapped places.")
            % {"first": first.player.name, "second": second.player.name},
            lambda: services.swap_players(
                round=round_, first=first, second=second, by=request.user
            ),
        )

    return seating_change(request, slug, number, SwapForm, change)


@login_required
@require_POST
def move_player(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def change(round_: Round, data: dict[str, Any]) -> tuple[str, Callable]:
        entry, table_number = data["player"], data["table"]
        return (
            _("%(name)s moved to table %(table)s.")
            % {"name": entry.player.name, "table": table_number},
            lambda: services.move_player(
                round=round_, entry=entry, table_number=table_number, by=request.user
            ),
        )

    return seating_change(request, slug, number, MoveForm, change)


@login_required
@require_POST
def lock_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    found = director_table(request, slug, number, table)
    return act(
        request,
        _("Table %(table)s is locked.") % {"table": table},
        lambda: services.lock_table(table=found, by=request.user),
        dashboard_url(found.round.event),
    )


@login_required
@require_POST
def mark_at_fault(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    found = director_table(request, slug, number, table)
    positions = [int(p) for p in request.POST.getlist("seats") if p.isdigit()]
    if positions:
        done = ngettext(
            "Table %(table)s: seat %(seats)s marked at fault for the hands not played.",
            "Table %(table)s: seats %(seats)s marked at fault for the hands not played.",
            len(positions),
        ) % {"table": table, "seats": listing(positions)}
    else:
        done = _("Table %(table)s: nobody is marked at fault.") % {"table": table}
    return act(
        request,
        done,
        lambda: services.mark_at_fault(
            table=found, positions=positions, reason=request.POST.get("reason", ""), by=request.user
        ),
        dashboard_url(found.round.event),
    )


@login_required
@require_POST
def unlock_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    found = director_table(request, slug, number, table)
    return act(
        request,
        _("Table %(table)s is unlocked: its hands can be corrected.") % {"table": table},
        lambda: services.unlock_table(table=found, by=request.user),
        dashboard_url(found.round.event),
    )
