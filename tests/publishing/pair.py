"""Two installs in one test database: the venue's event and the site's copy of it.

The venue's event (`venue`) does not count here (`counted=False`): the site's copy takes
the venue's identity (`uid`), and only one event of an identity may count. The site's
event (`site`) starts empty, with a standing publishing link. A `Pair` captures the
venue's changes into its outbox (`core.publishing.outbox`) and applies them to the site
(`core.publishing.applying`), directly or through the API as the publisher sends them.

Outside a transactional test no on-commit job runs, so the standings each side's
services queue are rebuilt here where the job would have run: the venue's before a
capture, the site's after an apply (`settle`).
"""

from __future__ import annotations

import copy
import gzip
import json
import socket
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db.models import Max

from core import services
from core.archive.export import build_payload
from core.publishing import applying, links, outbox
from core.publishing.compare import differences
from core.publishing.state import Snapshot
from core.standings.services import refresh_standings
from tests.fixtures import PLAYERS, hand_at, make_event, make_round, played_event
from tournaments.models import Event, Player, Publication, PublishedRow, PublishingLink, Round

SITE = "https://kalooki.example.org"
DB = pytest.mark.django_db
CHANGES_URL = "/api/v1/publishing/changes/"
STATUS_URL = "/api/v1/publishing/"


def site_registry() -> list[Player]:
    """The site's own registry holds the players of `played_event` already (created
    first, so the site's copy takes these, never the venue's rows of the same names)."""
    return [Player.objects.create(name=n, club=c, country=k) for n, c, k, _r in PLAYERS]


def venue_event(*, director=None, slug: str = "kingston", **fields) -> Event:
    """`played_event` at the venue, kept out of the count (its copy on the site counts)."""
    event = played_event(slug=slug, director=director, **fields)
    Event.objects.filter(pk=event.pk).update(counted=False)
    event.refresh_from_db()
    return event


def small_venue(*, director=None, slug: str = "ocho-rios") -> Event:
    """A venue's event of one table of four, round 1 in play with hands 1 and 2
    recorded: for what needs an event but not a whole one."""
    event = make_event(slug=slug, name="Ocho Rios Kalooki Night", rounds_planned=2, counted=False)
    if director is not None:
        event.directors.add(director)
    table = make_round(event, table_sizes=(4,)).tables.get()
    for number in (1, 2):
        services.record_hand(table=table, number=number, entry=hand_at([1, 2, 3, 4]), by=director)
    return event


def record_next_hand(event: Event, *, by=None, round_number: int | None = None, seats=None):
    """The next hand at table 1 of the event's round in play (or `round_number`)."""
    rounds = Round.objects.filter(event=event)
    round_ = rounds.get(number=round_number) if round_number else rounds.latest("number")
    table = round_.tables.get(number=1)
    number = (table.hands.aggregate(n=Max("number"))["n"] or 0) + 1
    seats = seats or list(table.seats.values_list("position", flat=True))
    services.record_hand(table=table, number=number, entry=hand_at(seats), by=by)
    return number


def not_counted(event: Event) -> Event:
    Event.objects.filter(pk=event.pk).update(counted=False)
    event.refresh_from_db()
    return event


def closed_port() -> int:
    """A port on this machine where nothing listens: an unreachable site."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gzipped(batch: Any) -> bytes:
    raw = batch if isinstance(batch, bytes) else json.dumps(batch).encode()
    return gzip.compress(raw, mtime=0)


def post_batch(client, secret: str | None, batch: Any, *, gzip_it: bool = True, **headers):
    """POST a batch to the site's changes endpoint as the publisher does."""
    if secret is not None:
        headers.setdefault("HTTP_AUTHORIZATION", f"{links.SCHEME} {secret}")
    if gzip_it:
        headers.setdefault("HTTP_CONTENT_ENCODING", "gzip")
        body = gzipped(batch)
    else:
        body = batch if isinstance(batch, bytes) else json.dumps(batch).encode()
    return client.post(CHANGES_URL, data=body, content_type="application/json", **headers)


def history_counts() -> dict[str, int]:
    """How many history rows each history model holds (both installs together)."""
    from core.archive import HISTORY_SECTIONS

    return {s.name: s.history_model._default_manager.count() for s in HISTORY_SECTIONS}


@dataclass
class Pair:
    venue: Event
    site: Event
    secret: str
    publication: Publication
    snapshot: Snapshot = field(default_factory=Snapshot)
    settle: bool = True

    @classmethod
    def of(
        cls,
        venue: Event,
        *,
        site_slug: str = "kingston-site",
        site_url: str = SITE,
        by=None,
        settle: bool = True,
    ) -> Pair:
        site = make_event(slug=site_slug, name="Published from the venue")
        if by is not None:
            site.directors.add(by)
        secret = links.create_link(event=site, by=by)
        publication = outbox.start_publishing(event=venue, site=site_url, link=secret)
        return cls(venue, site, secret, publication, outbox.remembered(publication), settle)

    @property
    def link(self) -> PublishingLink:
        return PublishingLink.objects.get(event=self.site)

    @property
    def stream(self) -> str:
        return self.publication.stream

    def capture(self, *, whole: bool = True) -> dict[str, Any] | None:
        """The venue's next change (None when nothing changed); not `whole`, a look
        between the publisher's whole looks (only the latest history rows read)."""
        if self.settle:
            refresh_standings(event=Event.objects.get(pk=self.venue.pk))
        made = outbox.capture(self.publication, self.snapshot, whole=whole)
        return None if made is None else outbox.unpacked(made.body)

    def apply(self, *changes: dict[str, Any], stream: str | None = None) -> PublishingLink:
        link = applying.apply_changes(self.link, stream or self.stream, list(changes))
        self.settled()
        return link

    def settled(self) -> None:
        if self.settle:
            refresh_standings(event=Event.objects.get(pk=self.site.pk))

    def publish(self, *, whole: bool = True) -> dict[str, Any] | None:
        """Capture the venue's change and apply it to the site; the change."""
        change = self.capture(whole=whole)
        if change is not None:
            self.apply(change)
        return change

    def payloads(self) -> tuple[dict[str, Any], dict[str, Any]]:
        venue = Event.objects.get(pk=self.venue.pk)
        site = Event.objects.get(pk=self.site.pk)
        return build_payload(venue), build_payload(site)

    def differences(self) -> list[str]:
        return differences(*self.payloads())

    def site_id(self, section: str, venue_id: int) -> int:
        return PublishedRow.objects.get(
            link__event=self.site, section=section, venue_id=venue_id
        ).site_id


@dataclass(frozen=True)
class KeptPair:
    """A `Pair` made once for a module's tests, kept by its rows' keys: `fresh` gives
    each test a `Pair` of its own, its instances read from the database and its own copy
    of the snapshot, so nothing a test changes in them reaches the next."""

    venue: int
    site: int
    secret: str
    publication: int
    snapshot: Snapshot
    settle: bool

    @classmethod
    def of(cls, pair: Pair) -> KeptPair:
        return cls(
            venue=pair.venue.pk,
            site=pair.site.pk,
            secret=pair.secret,
            publication=pair.publication.pk,
            snapshot=copy.deepcopy(pair.snapshot),
            settle=pair.settle,
        )

    def fresh(self) -> Pair:
        return Pair(
            venue=Event.objects.get(pk=self.venue),
            site=Event.objects.get(pk=self.site),
            secret=self.secret,
            publication=Publication.objects.get(pk=self.publication),
            snapshot=copy.deepcopy(self.snapshot),
            settle=self.settle,
        )
