"""The venue's side: where an event is published (`start_publishing`), and its outbox,
the event's changes numbered in the order they were captured (`capture`).

Capturing reads the event, never the network: a save at the venue takes as long with
the site unreachable as with it up, since it neither waits for nor wakes the
publisher, which captures on its own (`core.publishing.sending`).
"""

from __future__ import annotations

import gzip
import json
import uuid
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.archive import canonical
from core.errors import InvalidInput
from core.publishing.state import Snapshot, difference, read_state
from tournaments.models import Event, OutgoingChange, Publication

LINK_MAX = 200


def packed(change: dict[str, Any]) -> bytes:
    return gzip.compress(canonical(change), compresslevel=6, mtime=0)


def unpacked(body: bytes) -> dict[str, Any]:
    return json.loads(gzip.decompress(bytes(body)))


def check_site(site: str) -> str:
    site = (site or "").strip().rstrip("/")
    parts = urlsplit(site)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInput(
            {"site": [_("Give the site's address, starting with https:// (or http://).")]}
        )
    return site


def check_link(link: str) -> str:
    link = (link or "").strip()
    if not link or len(link) > LINK_MAX or not link.isprintable() or " " in link:
        raise InvalidInput({"link": [_("Paste the publishing link the site gave, as it is.")]})
    return link


def start_publishing(
    *, event: Event, site: str, link: str, by: AbstractBaseUser | None = None
) -> Publication:
    """Publish `event` to `site` with `link` from now on. The same site again keeps
    what it has acknowledged (a new link for the same site, pasted after the old one
    was revoked); another site starts over from the whole event."""
    site, link = check_site(site), check_link(link)
    with transaction.atomic():
        found = Publication.objects.select_for_update().filter(event=event).first()
        if found is not None and found.site == site:
            found.link, found.refused, found.problem = link, "", ""
            found.save(update_fields=["link", "refused", "problem"])
            return found
        if found is not None:
            found.delete()
        return Publication.objects.create(
            event=event, site=site, link=link, stream=uuid.uuid4().hex
        )


def retry_publishing(*, event: Event) -> None:
    """Try again after the site refused a change (its rules, or the link): the
    publisher sends from the site's acknowledgement once more."""
    Publication.objects.filter(event=event).update(refused="")


def stop_publishing(*, event: Event) -> None:
    """No longer publish `event` (its outbox goes with it)."""
    Publication.objects.filter(event=event).delete()


def remembered(publication: Publication) -> Snapshot:
    """The state of the last change captured, folded from the outbox."""
    snapshot = Snapshot()
    for body in (
        OutgoingChange.objects.filter(publication=publication)
        .order_by("seq")
        .values_list("body", flat=True)
        .iterator(chunk_size=200)
    ):
        snapshot.fold(unpacked(body))
    return snapshot


def capture(
    publication: Publication, snapshot: Snapshot, *, whole: bool = True
) -> OutgoingChange | None:
    """The event's change since `snapshot` (moved on to now), numbered and kept in the
    outbox; None when nothing changed. Not `whole`: only the latest history rows are
    read (`read_state`); a whole look now and then reads every one."""
    state = read_state(publication.event, None if whole else snapshot)
    change = difference(snapshot, state)
    if not change:
        return None
    with transaction.atomic():
        locked = Publication.objects.select_for_update().get(pk=publication.pk)
        now = timezone.now()
        change.update(seq=locked.captured + 1, stream=locked.stream, at=now.isoformat())
        made = OutgoingChange.objects.create(
            publication=locked, seq=change["seq"], captured_at=now, body=packed(change)
        )
        locked.captured = change["seq"]
        locked.save(update_fields=["captured"])
    publication.captured = locked.captured
    snapshot.fold(change)
    return made
