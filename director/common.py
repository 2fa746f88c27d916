"""What the director's pages share: finding the event, round or table the user directs
(anyone else gets a 404, exactly as if it did not exist, so a private event never
leaks), and running one service call as a page action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.forms.utils import pretty_name
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst

from core import selectors, services
from core.errors import ServiceError
from core.publishing.links import refuse_if_published
from tournaments.models import Event, Round, Table


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def director_event(request: HttpRequest, slug: str, *, published_ok: bool = False) -> Event:
    """The event this user directs. A form posted to an event published here from a
    venue is refused (`PublishedHere`, answered by the middleware) unless `published_ok`
    (its publishing link's own forms)."""
    event = selectors.directed_event(request.user, slug)
    if request.method == "POST" and not published_ok:
        refuse_if_published(event)
    return event


def director_round(request: HttpRequest, slug: str, number: int) -> Round:
    return selectors.round_of(director_event(request, slug), number)


def director_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """A table of an event this user directs (with its round and event loaded): one
    query. A form posted to it is refused as `director_event` refuses one."""
    found = selectors.directed_table(request.user, slug, number, table)
    if request.method == "POST":
        refuse_if_published(found.round.event)
    return found


def asked(check: Callable[[], Any]) -> tuple[Any, str]:
    """A service check's answer and "", or None and why it refuses (its first message)."""
    try:
        return check(), ""
    except ServiceError as error:
        return None, next(msg for msgs in error.errors.values() for msg in msgs)


def refusal(check: Callable[[], Any]) -> str:
    """Why a service would refuse (its first message), or "" when it would not."""
    return asked(check)[1]


def read_only_reason(table: Table) -> str:
    """Why this table's hands cannot change now, in the service's words ("": they can)."""
    return refusal(lambda: services.check_table_open(table))


def dashboard_url(event: Event, number: int | None = None) -> str:
    if number is None:
        return reverse("director:event", args=[event.slug])
    return reverse("director:round", args=[event.slug, number])


def back_to(request: HttpRequest, default: str) -> HttpResponse:
    """Where the action came from (the sheet, for lock and unlock), else the dashboard."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


def act(
    request: HttpRequest,
    done: str | Callable[[Any], str],
    action: Callable[[], Any],
    default: str,
) -> HttpResponse:
    """Run one service call; its refusal becomes the message the director reads. `done`
    says what was done (or, called with what the service returned, words it)."""
    try:
        result = action()
    except ServiceError as error:
        for text in (msg for msgs in error.errors.values() for msg in msgs):
            messages.error(request, text)
    else:
        messages.success(request, done(result) if callable(done) else done)
    return back_to(request, default)


def django_default(field, error) -> bool:
    """Whether `error` is one of the field class's own messages (which do not say which
    box they are about), not one the form words itself."""
    defaults = (getattr(k, "default_error_messages", {}) for k in type(field).__mro__)
    return any(error.message in known.values() for known in defaults)


def invalid_form(request: HttpRequest, form, default: str) -> HttpResponse:
    """Each of the form's errors as a message; Django's own ones ("This field is
    required.") name their box first ("Leave after hand: This field is required.")."""
    for name, errors in form.errors.as_data().items():
        field = form.fields.get(name)
        label = capfirst(field.label or pretty_name(name)) if field is not None else ""
        for error in errors:
            for text in error.messages:
                named = label and django_default(field, error)
                messages.error(request, f"{label}: {text}" if named else text)
    return back_to(request, default)


def event_form_action(
    request: HttpRequest,
    slug: str,
    form_class: type,
    done: str | Callable[[Any], str],
    call: Callable[[Event, dict[str, Any]], Any],
    *,
    form_takes_event: bool = False,
) -> HttpResponse:
    """The shape of most dashboard POSTs: the directed event, its form read (a bad form
    becomes the messages), then one service call, `call(event, cleaned_data)`, through
    `act`."""
    event = director_event(request, slug)
    form = form_class(request.POST, event=event) if form_takes_event else form_class(request.POST)
    url = dashboard_url(event)
    if not form.is_valid():
        return invalid_form(request, form, url)
    return act(request, done, lambda: call(event, form.cleaned_data), url)
