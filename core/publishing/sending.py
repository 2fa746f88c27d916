"""The venue's publisher: it captures the event's changes into the outbox and sends the
site what it has not acknowledged, in order, in batches, resuming after any break from
the site's own acknowledgement. It runs in a process of its own (`manage.py
publish_event`, started by `manage.py run_processes`), so no save at the venue ever
waits for the site.

The site answers (`api.publishing`): GET .../publishing/ its acknowledgement; POST
.../publishing/changes/ a batch (gzipped JSON {"stream", "changes"}) with 200 and the
new acknowledgement, 409 {"expected": n} when it needs an earlier change first, 422
{"refused": {"seq", "reason"}} when its rules refuse a change (publishing stops there,
with the reason on both dashboards, until the director tries again).
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.db import close_old_connections
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from core.publishing.links import SCHEME
from core.publishing.outbox import capture, remembered, unpacked
from core.publishing.state import signature
from tournaments.models import OutgoingChange, Publication

log = logging.getLogger(__name__)

API = "/api/v1/publishing/"
# A batch's size on the wire, compressed: a few seconds on a 1 Mbit/s line.
BATCH_BYTES = 192 * 1024
TIMEOUT_SECONDS = 60.0
# How often the publisher looks for changes, and reads the whole event even when its
# cheap signature did not move (a change no history row records).
LOOK_EVERY_SECONDS = 1.0
FULL_LOOK_SECONDS = 60.0
# With nothing to send, the site is asked where it stands this often (a site restored
# from a backup, or another venue publishing, shows up within that).
ASK_WHEN_QUIET_SECONDS = 30.0
# The publisher's CPU priority below the web server's (os.nice).
NICENESS = 10
# Waits after a failure: 1 s, 2 s, 4 s ... up to half a minute.
MAX_BACKOFF_SECONDS = 30.0


class Unreachable(Exception):
    """The site could not be reached (or did not answer sensibly); try again later."""


class Stopped(Exception):
    """The site refused a change, or the link: publishing stops with this reason."""


@dataclass
class Answer:
    status: int
    body: dict[str, Any]


def call(publication: Publication, method: str, path: str, body: bytes | None = None) -> Answer:
    request = urllib.request.Request(
        publication.site + API + path,
        data=body,
        method=method,
        headers={
            "Authorization": f"{SCHEME} {publication.link}",
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
            **(
                {"Content-Type": "application/json", "Content-Encoding": "gzip"}
                if body is not None
                else {}
            ),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            status, raw, encoding = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, raw, encoding = error.code, error.read(), error.headers
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as error:
        raise Unreachable(str(getattr(error, "reason", error))) from error
    try:
        if encoding.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        parsed = json.loads(raw or b"{}")
    except (OSError, ValueError, EOFError) as error:
        raise Unreachable(
            _("the site answered %(status)s with something other than JSON") % {"status": status}
        ) from error
    if status >= 500 or status == 429 or not isinstance(parsed, dict):
        raise Unreachable(_("the site answered %(status)s") % {"status": status})
    if status in (401, 403, 404):
        reason = parsed.get("detail") or parsed.get("non_field_errors") or parsed
        raise Stopped(_("The site refuses the link: %(reason)s") % {"reason": flat(reason)})
    return Answer(status, parsed)


def flat(reason: Any) -> str:
    if isinstance(reason, list):
        return " ".join(str(r) for r in reason)
    return str(reason)


def acknowledge(publication: Publication, answer: dict[str, Any]) -> int:
    """What the site has of this publication (0 when it follows another one)."""
    same = answer.get("stream") == publication.stream
    acknowledged = answer.get("acknowledged") if same else 0
    if not isinstance(acknowledged, int) or acknowledged < 0:
        raise Unreachable(_("the site's acknowledgement is not a number"))
    publication.acknowledged = min(acknowledged, publication.captured)
    publication.acknowledged_change_at = (
        parse_datetime(answer.get("last_change_at") or "") if same else None
    )
    publication.contacted_at, publication.unreachable_since = timezone.now(), None
    publication.problem = ""
    publication.save(
        update_fields=[
            "acknowledged",
            "acknowledged_change_at",
            "contacted_at",
            "unreachable_since",
            "problem",
        ]
    )
    return publication.acknowledged


def next_batch(publication: Publication, after: int, *, one: bool) -> list[tuple[int, bytes]]:
    batch: list[tuple[int, bytes]] = []
    size = 0
    for seq, body in (
        OutgoingChange.objects.filter(publication=publication, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "body")
        .iterator(chunk_size=50)
    ):
        body = bytes(body)
        if batch and (one or size + len(body) > BATCH_BYTES):
            break
        batch.append((seq, body))
        size += len(body)
    return batch


def send_pending(publication: Publication) -> None:
    """Send every change the site has not acknowledged. Raises Unreachable (try again
    later) or Stopped (recorded on the publication)."""
    acknowledged = acknowledge(publication, call(publication, "GET", "").body)
    one = False  # after a refused batch, change by change, to name the one refused
    while True:
        batch = next_batch(publication, acknowledged, one=one)
        if not batch:
            return
        changes = [unpacked(body) for _seq, body in batch]
        body = gzip.compress(
            json.dumps({"stream": publication.stream, "changes": changes}).encode(), mtime=0
        )
        answer = call(publication, "POST", "changes/", body)
        if answer.status == 200:
            acknowledged = acknowledge(publication, answer.body)
        elif answer.status == 409 and isinstance(answer.body.get("expected"), int):
            acknowledged = answer.body["expected"] - 1
        elif answer.status == 422 and len(batch) > 1:
            one = True
        else:
            refused = answer.body.get("refused") or {}
            reason = refused.get("reason") if isinstance(refused, dict) else None
            reason = reason or flat(answer.body)
            text = _("The site refused change %(seq)s: %(reason)s") % {
                "seq": batch[0][0],
                "reason": reason,
            }
            raise Stopped(text)


class Publisher:
    """One publication followed: capture when the event may have changed, then send."""

    def __init__(self, publication: Publication):
        self.publication = publication
        self.snapshot = remembered(publication)
        self.signature: tuple | None = None
        self.full_look_at = 0.0
        self.failures = 0
        self.wait_until = 0.0
        self.quiet_until = 0.0

    def look(self) -> bool:
        """Capture what changed; True when a change was captured."""
        now = time.monotonic()
        figures = signature(self.publication.event)
        if figures == self.signature and now < self.full_look_at:
            return False
        made = capture(self.publication, self.snapshot, whole=now >= self.full_look_at)
        self.signature, self.full_look_at = figures, now + FULL_LOOK_SECONDS
        return made is not None

    def send(self) -> None:
        if time.monotonic() < self.wait_until or self.publication.refused:
            return
        if self.waiting() == 0 and time.monotonic() < self.quiet_until:
            return  # nothing to send, and the site was asked a moment ago
        try:
            send_pending(self.publication)
        except Unreachable as error:
            self.failures += 1
            self.wait_until = time.monotonic() + min(2 ** (self.failures - 1), MAX_BACKOFF_SECONDS)
            Publication.objects.filter(pk=self.publication.pk, unreachable_since=None).update(
                unreachable_since=timezone.now()
            )
            Publication.objects.filter(pk=self.publication.pk).update(problem=str(error))
            log.info("publishing %s: site unreachable: %s", self.publication.event, error)
        except Stopped as error:
            self.publication.refused = str(error)
            Publication.objects.filter(pk=self.publication.pk).update(refused=str(error))
            log.warning("publishing %s stopped: %s", self.publication.event, error)
        else:
            self.failures, self.wait_until = 0, 0.0
            self.quiet_until = time.monotonic() + ASK_WHEN_QUIET_SECONDS

    def step(self) -> None:
        self.look()
        self.send()

    def waiting(self) -> int:
        return self.publication.captured - self.publication.acknowledged


def follow(slugs: list[str] | None = None, *, every: float = LOOK_EVERY_SECONDS) -> None:
    """Follow the publications of these events (of every event publishing, picking up
    new ones, when None), for ever, at a lower priority than the venue's web server: a
    director's save comes before a look at the event."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    publishers: dict[int, Publisher] = {}
    while True:
        close_old_connections()
        found = Publication.objects.select_related("event")
        if slugs is not None:
            found = found.filter(event__slug__in=slugs)
        current = {p.pk: p for p in found}
        for pk in set(publishers) - set(current):
            del publishers[pk]  # stopped at the venue
        for pk, publication in current.items():
            held = publishers.get(pk)
            if held is None or held.publication.link != publication.link:
                publishers[pk] = Publisher(publication)  # new, or a new link pasted
            elif held.publication.refused and not publication.refused:
                held.publication.refused = ""  # the director tried again
        for publisher in publishers.values():
            try:
                publisher.step()
            except Exception:  # one event's trouble never stops the others
                log.exception("publishing %s failed", publisher.publication.event)
        time.sleep(every)
