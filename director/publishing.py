"""Publishing an event live from the dashboard, on both ends of the line.

The venue's panel, "Publish to a site": the site's address and the publishing link
it gave (`publish_to_site`), how far the site has the event, Stop publishing and, after
the site refused a change, Try again. The site's panel, "Publishing link": make the
link (shown once, to paste at the venue) or revoke it, and what the venue published.
Each action is a POST calling one service, back to the panel with its answer as a
message.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.publishing.links import create_link, revoke_link
from core.publishing.outbox import LINK_MAX, retry_publishing, start_publishing, stop_publishing
from core.publishing.selectors import site_status, venue_status
from director.common import act, dashboard_url, director_event, invalid_form
from tournaments.models import Event

# Where a new link waits in the director's session for the one page that shows it
# (the session is kept in the database: a message would travel in a cookie).
NEW_LINK = "publishing-link:{pk}"


class PublishForm(forms.Form):
    site = forms.CharField(max_length=300, label=gettext_lazy("Site's address"))
    link = forms.CharField(max_length=LINK_MAX, label=gettext_lazy("Publishing link"))


def panel(request: HttpRequest, event: Event) -> dict[str, Any]:
    """Both panels: the venue's status, the site's, and a link just made (taken from
    the session, so it shows on this page only): 2 queries."""
    return {
        "venue": venue_status(event),
        "site": site_status(event),
        "new_link": request.session.pop(NEW_LINK.format(pk=event.pk), None),
    }


def venue_url(event: Event) -> str:
    return dashboard_url(event) + "#publishing"


def site_url(event: Event) -> str:
    return dashboard_url(event) + "#publishing-link"


# --- The venue ------------------------------------------------------------------------


@login_required
@require_POST
def publish_to_site(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    form = PublishForm(request.POST)
    if not form.is_valid():
        return invalid_form(request, form, venue_url(event))
    return act(
        request,
        lambda publication: (
            _("Publishing to %(site)s: the venue's changes go there as they are made.")
            % {"site": publication.site}
        ),
        lambda: start_publishing(
            event=event,
            site=form.cleaned_data["site"],
            link=form.cleaned_data["link"],
            by=request.user,
        ),
        venue_url(event),
    )


@login_required
@require_POST
def publish_stop(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    return act(
        request,
        _("Publishing stopped: the site keeps what it has."),
        lambda: stop_publishing(event=event),
        venue_url(event),
    )


@login_required
@require_POST
def publish_retry(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug)
    return act(
        request,
        _("Publishing again: the changes the site does not have yet go there next."),
        lambda: retry_publishing(event=event),
        venue_url(event),
    )


# --- The site -------------------------------------------------------------------------


@login_required
@require_POST
def publishing_link(request: HttpRequest, slug: str) -> HttpResponse:
    """A new link, kept in the session for the one page that shows it."""
    event = director_event(request, slug, published_ok=True)
    secret = create_link(event=event, by=request.user)
    request.session[NEW_LINK.format(pk=event.pk)] = secret
    return redirect(site_url(event))


@login_required
@require_POST
def publishing_link_revoke(request: HttpRequest, slug: str) -> HttpResponse:
    event = director_event(request, slug, published_ok=True)
    if revoke_link(event=event):
        messages.success(
            request,
            _(
                "The publishing link is revoked: the venue can no longer publish here, and the "
                "event can be changed here."
            ),
        )
    else:
        messages.error(request, _("This event has no publishing link."))
    return redirect(site_url(event))
