"""The venue screens, run from the dashboard: the round clock (start, pause, resume,
extend for every table or one) and announcements (post, remove, and their history).
Each action is a POST that calls one service and comes back to the dashboard's panel
with the service's answer as a message."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core import selectors, services
from director.common import act, dashboard_url, director_event, director_round, invalid_form
from director.forms import AnnouncementForm, ClockForm, TimeRuleForm
from game.clock import OVER, format_duration
from tournaments.models import Event, Round, RoundClock

REMOVED_SHOWN = 20  # the history under the panel; the admin and the API have all of it


def panel(event: Event, current: Round | None) -> dict[str, Any]:
    """The dashboard's screens panel: the clock of the round in play and the
    announcements, showing and removed: 4 queries."""
    clock = face = state = None
    extra_faces: tuple = ()
    if current is not None and current.status == Round.Status.PUBLISHED:
        clock = selectors.round_clock(event, current.number)
        now = timezone.now()
        face, extra_faces = clock.face(now), clock.extra_faces(now)
        state = clock.clock.state(now)  # running while any table still plays
    return {
        "round": current,
        "clock": clock,
        "face": face,
        "state": state,
        "extra_faces": extra_faces,
        "showing": list(selectors.announcements(event, current=True)),
        "removed": list(selectors.announcements(event, current=False, limit=REMOVED_SHOWN)),
    }


def at(moment: datetime) -> str:
    return time_format(timezone.localtime(moment), "H:i")


def clock_done(stored: RoundClock, action: str, minutes: int | None, table: int | None) -> str:
    """What the action did, in words, with the new end time."""
    clock = stored.as_clock()
    reading = clock.read(timezone.now(), table)
    if action == "pause":
        return _("The clock is paused with %(left)s left.") % {
            "left": format_duration(reading.remaining_s)
        }
    if reading.ends_at is None:
        ends = _("the clock is paused")
    elif reading.state == OVER:
        ends = _("time ran out at %(time)s") % {"time": at(reading.ends_at)}
    else:
        ends = _("time runs out at %(time)s") % {"time": at(reading.ends_at)}
    if action == "start":
        return _("The clock is started: %(minutes)s minutes; %(ends)s.") % {
            "minutes": clock.minutes,
            "ends": ends,
        }
    if action == "resume":
        return _("The clock is running again: %(ends)s.") % {"ends": ends}
    given = abs(minutes or 0)
    values = {"table": table, "minutes": given, "ends": ends}
    if table and (minutes or 0) > 0:
        text = ngettext(
            "Table %(table)s has %(minutes)s minute more: %(ends)s.",
            "Table %(table)s has %(minutes)s minutes more: %(ends)s.",
            given,
        )
    elif table:
        text = ngettext(
            "Table %(table)s has %(minutes)s minute less: %(ends)s.",
            "Table %(table)s has %(minutes)s minutes less: %(ends)s.",
            given,
        )
    elif (minutes or 0) > 0:
        text = ngettext(
            "Every table has %(minutes)s minute more: %(ends)s.",
            "Every table has %(minutes)s minutes more: %(ends)s.",
            given,
        )
    else:
        text = ngettext(
            "Every table has %(minutes)s minute less: %(ends)s.",
            "Every table has %(minutes)s minutes less: %(ends)s.",
            given,
        )
    return text % values


@login_required
@require_POST
def clock_action(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = director_round(request, slug, number)
    url = dashboard_url(round_.event, number) + "#clock"
    form = ClockForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, url)
    action, minutes, table = (form.cleaned_data[k] for k in ("action", "minutes", "table"))
    return act(
        request,
        lambda stored: clock_done(stored, action, minutes, table),
        lambda: services.clock_action(
            round=round_, action=action, minutes=minutes, table=table, by=request.user
        ),
        url,
    )


@login_required
@require_POST
def post_announcement(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    url = dashboard_url(event) + "#announce"
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, url)
    text = " ".join(form.cleaned_data["text"].split())
    return act(
        request,
        _("On the screens now: “%(text)s”.") % {"text": text},
        lambda: services.post_announcement(event=event, text=text, by=request.user),
        url,
    )


@login_required
@require_POST
def remove_announcement(request: HttpRequest, slug: str, announcement_id: int) -> HttpResponse:
    event = director_event(request, slug)
    found = selectors.announcement_of(event, announcement_id)
    return act(
        request,
        _("Taken off the screens (kept in the history): “%(text)s”.") % {"text": found.text},
        lambda: services.remove_announcement(announcement=found, by=request.user),
        dashboard_url(event) + "#announce",
    )


@login_required
@require_POST
def time_rule(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's written rule for what happens at time, shown when the clock runs out."""
    event = director_event(request, slug)
    url = dashboard_url(event) + "#clock"
    form = TimeRuleForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, url)
    rule = " ".join(form.cleaned_data["time_rule"].split())
    return act(
        request,
        _("At time, the screens now say: “%(rule)s”.") % {"rule": rule}
        if rule
        else _("No rule shows at time now."),
        lambda: services.update_event(event=event, data={"time_rule": rule}, by=request.user),
        url,
    )
