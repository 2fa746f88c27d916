"""What every API view shares: errors in the API.md shape, and the event scope."""

from __future__ import annotations

from functools import cached_property

from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core import selectors
from core.errors import ServiceError
from tournaments.models import Event


def exception_handler(exc, context):
    """A service's refusal becomes {field: [messages]} with its status code."""
    if isinstance(exc, ServiceError):
        response = Response(exc.errors, status=exc.status_code)
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response
    return drf_exception_handler(exc, context)


def require_login(request) -> None:
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


class EventScoped:
    """For views under /events/{slug}/: the event, found among those the user may see
    (404 for a private event of someone else), and the director check for writes."""

    kwargs: dict
    request: object

    @cached_property
    def event(self) -> Event:
        try:
            return selectors.event_for(self.request.user, self.kwargs["slug"])
        except Http404 as missing:
            raise exceptions.NotFound("No such event.") from missing

    def require_director(self) -> None:
        user = self.request.user
        require_login(self.request)
        if not selectors.can_direct(user, self.event):
            raise exceptions.PermissionDenied("Only a director of this event may change it.")
