"""What every API view shares: errors in the API.md shape, and the event scope."""

from __future__ import annotations

from functools import cached_property

from django.db import OperationalError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core import selectors
from core.errors import NON_FIELD, Missing, ServiceError, StateConflict
from core.locks import busy, is_lock_timeout
from core.publishing.links import read_only_reason, refuse_if_published
from tournaments.models import PLAYED_ROUND_STATUSES, Event, Round


def exception_handler(exc, context):
    """A service's refusal becomes {field: [messages]} with its status code; the core's
    "not found" naming no field, DRF's {"detail": ...} 404. A row held too long where no
    service said so (the database's own lock timeout) is the services' Busy: 503."""
    if isinstance(exc, OperationalError) and is_lock_timeout(exc):
        exc = busy("record")
    if isinstance(exc, Missing) and set(exc.errors) == {NON_FIELD}:
        return Response({"detail": exc.message}, status=404)
    if isinstance(exc, ServiceError):
        response = Response(exc.errors, status=exc.status_code)
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response
    return drf_exception_handler(exc, context)


def require_login(request) -> None:
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


class CanCreateEventsOrReadOnly(BasePermission):
    """Checked before the body is read, so a refused writer learns nothing from it."""

    message = gettext_lazy("You may not create events.")

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or selectors.can_create_events(request.user)


class CanAddPlayersOrReadOnly(BasePermission):
    message = gettext_lazy("Only directors may add players.")

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or selectors.can_add_players(request.user)


class EventScoped:
    """For views under /events/{slug}/: the event, found among those the user may see
    (404 for a private event of someone else), and the director check for writes,
    made before anything in the request is read (a refused writer learns nothing)."""

    kwargs: dict
    request: object
    # Who may write here: the event's directors (the players' own entries at their
    # table, authorised by their codes, say False).
    directors_write = True

    # The publishing link's own view: the one write a published event takes here.
    publishing_link_itself = False

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method in SAFE_METHODS:
            return
        if self.publishing_link_itself:
            self.require_director()
            return
        if self.directors_write:
            self.require_director()
            refuse_if_published(self.event)  # read with the event: no query of its own
            return
        # The players' entries at their table, authorised by their codes: the event
        # need not be visible to the client, so it is asked by its address.
        reason = read_only_reason(slug=self.kwargs["slug"])
        if reason is not None:
            raise StateConflict(reason)

    @cached_property
    def directs(self) -> bool:
        return selectors.reader_directs(self.request.user, self.event)

    def check_round_visible(self, round_: Round | None) -> Round:
        """A round's seating is the public's once published; a draft (or one still
        being seated) is its directors' only, exactly as if it did not exist."""
        if round_ is None or (round_.status not in PLAYED_ROUND_STATUSES and not self.directs):
            raise exceptions.NotFound(_("No such round."))
        return round_

    @cached_property
    def event(self) -> Event:
        return selectors.event_for(self.request.user, self.kwargs["slug"])

    def require_director(self) -> None:
        require_login(self.request)
        if not self.directs:
            raise exceptions.PermissionDenied(_("Only a director of this event may change it."))
