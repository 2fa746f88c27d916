"""The site's side: an event's publishing link, the one credential that may change a
published event here (`create_link`, `revoke_link`, `link_of`), and what the event's
pages say about it."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Forbidden, StateConflict
from core.screens.services import screens_changed
from tournaments.models import Event, PublishingLink

SCHEME = "Link"  # Authorization: Link <secret>


def hashed(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_link(*, event: Event, by: AbstractBaseUser | None = None) -> str:
    """A new link for `event`, returned once (only its hash is kept). A link made
    again replaces the old one; what the venue published stays, and the venue goes on
    from there with the new link."""
    secret = "kp_" + secrets.token_urlsafe(32)
    with transaction.atomic():
        link = PublishingLink.objects.select_for_update().filter(event=event).first()
        if link is None:
            PublishingLink.objects.create(
                event=event, secret_hash=hashed(secret), created_by=by if by else None
            )
        else:
            link.secret_hash, link.revoked_at = hashed(secret), None
            link.created_at, link.created_by = timezone.now(), by if by else None
            link.save(update_fields=["secret_hash", "revoked_at", "created_at", "created_by"])
        screens_changed(event)  # the public pages' note follows the link
    return secret


def revoke_link(*, event: Event) -> bool:
    """The link no longer publishes, and the event can be changed here again. False when
    it had no standing link."""
    with transaction.atomic():
        link = (
            PublishingLink.objects.select_for_update()
            .filter(event=event, revoked_at__isnull=True)
            .first()
        )
        if link is None:
            return False
        # The hash of a secret nobody holds: the old one opens nothing any more.
        link.secret_hash = hashed(secrets.token_urlsafe(32))
        link.revoked_at = timezone.now()
        link.save(update_fields=["secret_hash", "revoked_at"])
        screens_changed(event)  # the public pages no longer say "published"
    return True


def link_of(secret: str) -> PublishingLink:
    """The standing link this secret opens (with its event); Forbidden otherwise."""
    link = (
        PublishingLink.objects.select_related("event")
        .filter(secret_hash=hashed(secret or ""), revoked_at__isnull=True)
        .first()
        if secret
        else None
    )
    if link is None:
        raise Forbidden(
            _("This publishing link opens nothing here: it is mistyped, or it was revoked.")
        )
    return link


def standing_link(event: Event) -> PublishingLink | None:
    return PublishingLink.objects.filter(event=event, revoked_at__isnull=True).first()


class PublishedHere(StateConflict):
    """A change to an event published here from a venue, other than through its link:
    409, nothing written."""


def refuse_if_published(event: Event) -> None:
    """Refuse a change to `event` when it is published here from a venue (read with the
    event where it was loaded by `core.events.access`, else one query)."""
    published = getattr(event, "published_here", None)
    reason = read_only_reason(event.pk) if published is None or published else None
    if reason is not None:
        raise PublishedHere(reason)


def read_only_reason(event_id: int | None = None, *, slug: str | None = None) -> str | None:
    """Why the event (by id, or by slug) cannot be changed here, when it is published
    from a venue. One query."""
    found = PublishingLink.objects.filter(revoked_at__isnull=True)
    found = found.filter(event_id=event_id) if slug is None else found.filter(event__slug=slug)
    if not found.exists():
        return None
    return _(
        "This event is published from the venue: change it there, and the change reaches "
        "this site by itself. To change it here instead, revoke its publishing link on "
        "the event's dashboard."
    )
