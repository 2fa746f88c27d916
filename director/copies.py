"""A copy's dashboard: which event it copies, and the action that counts it instead
(the same service as the API's and the admin's, `core.copies.services.count_copy`)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import services
from director.common import act, dashboard_url, director_event


@login_required
@require_POST
def count_copy(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)

    def done(counted) -> str:
        return _(
            "%(name)s (%(slug)s) counts in the ratings and series now; the event it copied is "
            "left out instead, as a copy."
        ) % {"name": counted.name, "slug": counted.slug}

    return act(
        request,
        done,
        lambda: services.count_copy(event=event, by=request.user),
        dashboard_url(event),
    )
