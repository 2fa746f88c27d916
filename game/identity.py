"""An event's identity: one UUID, made when the event is created and carried by its
archive, so the event is known as itself on every site it goes to (an import of an
event the site already holds replaces it or is kept as a copy, never counted twice).

Events and archives from before identities existed carry none: theirs is derived from
what both do carry, the event's creation time (to the microsecond) and its draw seed,
so an old archive of an event gets the identity the event itself was given, on the site
it came from, and every import of that archive gets the same one. The derivation never
changes: the migration that gave existing events theirs and the archive's reading of an
old version both use it."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

# The namespace of derived identities (a UUID of its own, fixed for good).
NAMESPACE = uuid.UUID("a3444cc7-4fea-4cc0-9805-e31d84bf3611")


def new_uid() -> uuid.UUID:
    """A new event's identity: random."""
    return uuid.uuid4()


def derived_uid(created_at: datetime, draw_seed: object) -> uuid.UUID:
    """The identity of an event from before identities existed, from its creation time
    and its draw seed (a number in the oldest events, text since)."""
    moment = created_at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")
    seed = "" if draw_seed is None else str(draw_seed)
    return uuid.uuid5(NAMESPACE, f"{moment}|{seed}")
