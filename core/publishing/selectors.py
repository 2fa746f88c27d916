"""What the pages say about publishing, in a director's words: the venue's dashboard
(`venue_status`: how far the site has the event), the site's (`site_status`: what its
link has applied), and the event's public pages (`public_note`). One query each, and
none for a public page whose event came from `core.standings.boards.public_event`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Event, Publication, PublishingLink

# Between the parts of a status sentence: "Published up to 14:32 — 3 changes waiting".
PARTS = " — "


def when(moment: datetime) -> str:
    """A moment in this install's local time: its time alone today ("14:32"), with its
    date on another day (an event published over two days)."""
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return time_format(local, "H:i")
    return date_format(local, "DATETIME_FORMAT")


def sentence(parts: list[str]) -> str:
    """The parts of a status in one sentence (the first is worded to open it)."""
    return PARTS.join(parts)


def venue_status(event: Event) -> dict[str, Any] | None:
    """The venue's dashboard: where the event is published, and one sentence saying how
    far the site has it ("Published up to 14:32 — 23 changes waiting — site unreachable
    since 14:33"); why the site cannot be reached (`problem`), and a refusal that
    stopped publishing (`stopped`, with Try again). None when not publishing: 1 query."""
    publication = Publication.objects.filter(event=event).first()
    if publication is None:
        return None
    parts = []
    if publication.acknowledged and publication.acknowledged_change_at is not None:
        parts.append(
            _("Published up to %(time)s") % {"time": when(publication.acknowledged_change_at)}
        )
    else:
        parts.append(_("Nothing published yet"))
    waiting = publication.captured - publication.acknowledged
    if waiting > 0:
        parts.append(
            ngettext("%(count)s change waiting", "%(count)s changes waiting", waiting)
            % {"count": waiting}
        )
    elif publication.captured:
        parts.append(_("everything published"))
    else:
        # Nothing captured yet: the publisher has not read the event (is it running?).
        parts.append(_("the publisher has not read the event yet"))
    if publication.unreachable_since is not None:
        parts.append(
            _("site unreachable since %(time)s") % {"time": when(publication.unreachable_since)}
        )
    stopped = (
        _("Publishing stopped: %(reason)s") % {"reason": publication.refused}
        if publication.refused
        else ""
    )
    return {
        "site": publication.site,
        "sentence": sentence(parts),
        "waiting": max(waiting, 0),
        "unreachable": publication.unreachable_since is not None,
        "problem": publication.problem if publication.unreachable_since is not None else "",
        "stopped": stopped,
    }


def site_status(event: Event) -> dict[str, Any] | None:
    """The site's dashboard: whether the event has a publishing link, what the venue has
    published through it ("Published from the venue, last change 14:32 — 23 changes
    applied", or "Waiting for the venue's first change"), and a change this site
    refused. A revoked link says so (the event can be changed here again). None
    without a link: 1 query."""
    link = PublishingLink.objects.filter(event=event).first()
    if link is None:
        return None
    if link.revoked_at is not None:
        return {
            "standing": False,
            "sentence": _(
                "The publishing link was revoked at %(time)s: the venue no longer publishes "
                "here, and the event can be changed here."
            )
            % {"time": when(link.revoked_at)},
            "applied": link.acknowledged,
            "refused": "",
        }
    if link.acknowledged and link.last_change_at is not None:
        parts = [
            _("Published from the venue, last change %(time)s")
            % {"time": when(link.last_change_at)},
            ngettext("%(count)s change applied", "%(count)s changes applied", link.acknowledged)
            % {"count": link.acknowledged},
        ]
    else:
        parts = [_("Waiting for the venue's first change")]
    refused = (
        _("Change %(seq)s was refused: %(reason)s")
        % {"seq": link.refused_seq, "reason": link.refused_reason}
        if link.refused_reason
        else ""
    )
    return {
        "standing": True,
        "sentence": sentence(parts),
        "made": when(link.created_at),
        "applied": link.acknowledged,
        "refused": refused,
    }


# The public event's own query reads this beside it (`core.standings.boards`).
PUBLISHED_CHANGE_AT = "published_change_at"


def last_published_change() -> Subquery:
    """An event's last change from the venue while its link stands, to annotate an
    event query with (as `PUBLISHED_CHANGE_AT`): the public pages' note without a
    query of its own."""
    return Subquery(
        PublishingLink.objects.filter(
            event=OuterRef("pk"), revoked_at__isnull=True, acknowledged__gt=0
        ).values("last_change_at")[:1]
    )


def public_note(event: Event) -> str | None:
    """The event's public pages: "Published from the venue, last change 14:32" while a
    link stands and the venue's changes have reached this site; None otherwise. No query
    when the event was read with its last change (`PUBLISHED_CHANGE_AT`), else 1."""
    if hasattr(event, PUBLISHED_CHANGE_AT):
        at = getattr(event, PUBLISHED_CHANGE_AT)
    else:
        at = (
            PublishingLink.objects.filter(event=event, revoked_at__isnull=True, acknowledged__gt=0)
            .values_list("last_change_at", flat=True)
            .first()
        )
    if at is None:
        return None
    return _("Published from the venue, last change %(time)s") % {"time": when(at)}
