"""Reads and caching for the public pages: the leaderboard, the round's progress, the
round's tables, a table's sheet and a player's history.

Everything a live page shows changes only when the standings are rebuilt, and every
rebuild grows `Event.standings_version`. So:

- the event's current version sits in the cache under `version_key(slug)`, set after
  each rebuild commits (`announce_version`). A live page polls with the version it
  shows; when the cache holds the same version for a public event, the poll is
  answered from that one cache hit, without touching the database;
- a public event itself (the row a page starts from) is cached for a few seconds and
  used only while its version is the announced one, so a page load of a public event
  whose standings are cached needs no query: one round trip to the cache fetches the
  event, the announced version and the page's cached content together;
- the documents (plain data) and rendered fragments are cached under one key per
  event, round, table or page, holding the signature they were built for (the event,
  the version and the latest round); a reader with another signature rebuilds them.
  One key per thing, rather than one per version, so a busy event does not fill the
  cache with stale copies.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.http import Http404

from scoring.models import Hand, HandScore, Standing
from scoring.rules import set_result
from scoring.rulesets import get_ruleset
from scoring.selectors import standings_document, table_sheet
from tournaments.models import PLAYED_ROUND_STATUSES, Entry, Event, Player, Round, Seat, Table
from tournaments.selectors import User, round_with_seating, visible_events

# Rounds the public may see: a draft seating is the director's working copy.

# A version announced by a rebuild holds until the next one replaces it.
ANNOUNCED_TTL = 24 * 60 * 60
# A version a page read from the database is kept only briefly, so a writer that does
# not announce (or a lost announcement) delays live pages by seconds, not for good.
REMEMBERED_TTL = 5
# A public event's row: how long a change that does not rebuild the standings (its
# name, a round published, the event made private) may take to reach page loads.
EVENT_TTL = 10
# Documents and fragments: rebuilt whenever their signature changes anyway.
DOCUMENT_TTL = 60 * 60

PREFIX = "kalooki:public"


# --- The live version ----------------------------------------------------------------


def version_key(slug: str) -> str:
    return f"{PREFIX}:version:{slug}"


def announce_version(event: Event, version: int) -> None:
    """Tell live pages the standings are now at `version`, once the rebuild commits
    (before then a poller would read the old rows under the new version)."""
    transaction.on_commit(
        partial(cache.set, version_key(event.slug), (version, event.public), ANNOUNCED_TTL)
    )


def remember_version(event: Event) -> None:
    """Keep the version a page just read from the database, for a few seconds.

    `add` does not replace an announcement, which may be newer than this read. A
    cached version older than this read (an announcement lost) or a changed public
    flag is replaced, briefly, so that even a race with a newer announcement heals
    within seconds."""
    key, value = version_key(event.slug), (event.standings_version, event.public)
    if not cache.add(key, value, REMEMBERED_TTL):
        cached = cache.get(key)
        if cached is not None and (cached[0] < value[0] or cached[1] != value[1]):
            cache.set(key, value, REMEMBERED_TTL)


def unchanged(slug: str, version: int | None) -> bool:
    """Whether a public event's standings are still at `version`: one cache hit, no query.

    Private events always take the slow path, where the viewer's rights are checked.
    """
    if version is None:
        return False
    cached = cache.get(version_key(slug))
    return cached is not None and cached[1] is True and cached[0] == version


# --- The event, as a public page sees it -----------------------------------------------


def event_key(slug: str) -> str:
    return f"{PREFIX}:event:{slug}"


def page_key(name: str) -> str:
    return f"{PREFIX}:html:{name}"


def public_event(user: User, slug: str) -> Event:
    """The event if this user may see it, with its latest public round's number and
    status (`latest_round`, `latest_status`, None before any): one query."""
    latest = Round.objects.filter(event=OuterRef("pk"), status__in=PLAYED_ROUND_STATUSES).order_by(
        "-number"
    )
    event = (
        visible_events(user)
        .filter(slug=slug)
        .annotate(
            latest_round=Subquery(latest.values("number")[:1]),
            latest_status=Subquery(latest.values("status")[:1]),
        )
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    remember_version(event)
    if event.public:
        cache.set(event_key(slug), event, EVENT_TTL)
    return event


def lookup(user: User, slug: str, *keys: str) -> tuple[Event, dict[str, Any]]:
    """The event for a page, and whatever the cache holds under `keys`: one cache round
    trip, and no query for a public event cached at the announced version. Private
    events, and anything not cached, come from the database (`public_event`)."""
    hits = cache.get_many([version_key(slug), event_key(slug), *keys])
    event = hits.pop(event_key(slug), None)
    announced = hits.pop(version_key(slug), None)
    if (
        event is None
        or not event.public
        or (announced is not None and announced[0] != event.standings_version)
    ):
        event = public_event(user, slug)
    return event, hits


def signature(event: Event) -> tuple:
    """What a cached event document depends on: the event, its standings, and which
    round is the latest (publishing a round does not rebuild the standings)."""
    return (event.pk, event.standings_version, event.latest_round, event.latest_status)


_MISSING = object()


def cached(key: str, sig: tuple, build: Callable[[], Any], hit: Any = _MISSING) -> Any:
    """The value under `key` if it was built for `sig`; else build it and keep it.
    `hit` is what the cache held under `key`, when the caller fetched it already."""
    if hit is _MISSING:
        hit = cache.get(key)
    if hit is not None and hit[0] == sig:
        return hit[1]
    value = build()
    cache.set(key, (sig, value), DOCUMENT_TTL)
    return value


# --- The leaderboard ------------------------------------------------------------------


def round_progress(event: Event) -> dict[str, Any] | None:
    """The latest public round: tables finished of total: one query."""
    if event.latest_round is None:
        return None
    needed = get_ruleset(event.ruleset).hand_count
    scored = (
        Table.objects.filter(round__event=event, round__number=event.latest_round)
        .annotate(n=Count("hands", filter=Q(hands__outcome=Hand.Outcome.SCORED)))
        .values_list("n", flat=True)
    )
    counts = list(scored)
    return {
        "round": event.latest_round,
        "closed": event.latest_status == Round.Status.CLOSED,
        "tables": len(counts),
        "finished": sum(1 for n in counts if n >= needed),
        "hands_needed": needed,
        "hands_scored": sum(min(n, needed) for n in counts),
        "hands_total": needed * len(counts),
    }


def build_board(event: Event) -> dict[str, Any]:
    document = standings_document(event)  # 2 queries
    document["progress"] = round_progress(event)  # 1 query
    document["show_table_points"] = event.format != Event.Format.TOTAL
    for row in document["standings"]:
        movement = row["movement"]
        row["move"] = (
            "new" if movement is None else "up" if movement > 0 else "down" if movement else "same"
        )
        row["move_by"] = abs(movement) if movement else 0
    return document


def board(event: Event) -> dict[str, Any]:
    """The leaderboard document (standings in rank order, the round's progress), cached
    for the event's signature: no query when cached, 3 otherwise."""
    return cached(f"{PREFIX}:board:{event.pk}", signature(event), partial(build_board, event))


def keep(values: dict[str, Any], sig: tuple) -> None:
    """Cache several values built for `sig` at once (the forms of one page)."""
    cache.set_many({key: (sig, value) for key, value in values.items()}, DOCUMENT_TTL)


def cached_fragment(name: str, sig: tuple, render: Callable[[], str], hit: Any = _MISSING) -> str:
    """A rendered piece of page, shared by every viewer (it holds nothing personal)."""
    return cached(page_key(name), sig, render, hit)


# --- A round's tables -----------------------------------------------------------------


def places(totals: dict[int, int]) -> dict[int, int]:
    """Place at the table by lowest total; equal totals share the better place."""
    result = set_result(totals)
    return {seat: result.place_of(seat) for seat in totals}


def build_round(event: Event, number: int) -> dict[str, Any]:
    round_ = round_with_seating(event, number)  # 3 queries
    needed = get_ruleset(event.ruleset).hand_count
    per_seat = {
        row["seat_id"]: row
        for row in HandScore.objects.filter(
            hand__table__round=round_, hand__outcome=Hand.Outcome.SCORED
        )
        .values("seat_id")
        .annotate(
            total=Sum("score"),
            won=Count("pk", filter=Q(hand__went_out_id=F("seat_id"))),
        )
        .order_by()
    }
    scored = dict(
        Table.objects.filter(round=round_)
        .annotate(n=Count("hands", filter=Q(hands__outcome=Hand.Outcome.SCORED)))
        .values_list("pk", "n")
    )
    tables = []
    for table in round_.tables.all():
        seats = list(table.seats.all())
        totals = {s.position: (per_seat.get(s.pk) or {}).get("total") or 0 for s in seats}
        place = places(totals)
        n = scored.get(table.pk, 0)
        tables.append(
            {
                "number": table.number,
                "hands_scored": n,
                "finished": n >= needed,
                "playing": None if n >= needed else n + 1,
                "seats": [
                    {
                        "seat": s.position,
                        "player": s.entry.player_id,
                        "name": s.entry.player.name,
                        "total": totals[s.position],
                        "won": (per_seat.get(s.pk) or {}).get("won") or 0,
                        "place": place[s.position],
                        "left_after_hand": s.left_after_hand,
                    }
                    for s in sorted(seats, key=lambda s: (place[s.position], s.position))
                ],
            }
        )
    return {
        "round": round_.number,
        "status": round_.status,
        "closed": round_.status == Round.Status.CLOSED,
        "hands_needed": needed,
        "tables": tables,
        "finished": sum(1 for t in tables if t["finished"]),
    }


def check_round(event: Event, number: int) -> None:
    """A round the public may not see (not there, or only a draft seating) is a 404."""
    if event.latest_round is None or not 1 <= number <= event.latest_round:
        raise Http404("No such round.")


def round_board(event: Event, number: int) -> dict[str, Any]:
    """Every table of a public round with each seat's set total: 5 queries, or none."""
    check_round(event, number)
    return cached(
        f"{PREFIX}:round:{event.pk}:{number}",
        signature(event),
        partial(build_round, event, number),
    )


# --- A table's sheet ------------------------------------------------------------------


def public_table(event: Event, round_number: int, table_number: int) -> Table:
    """A table of a public round of this event: one query."""
    check_round(event, round_number)
    table = (
        Table.objects.filter(round__event=event, round__number=round_number, number=table_number)
        .select_related("round")
        .first()
    )
    if table is None:
        raise Http404("No such table.")
    table.round.event = event  # the caller's event, already checked
    return table


def build_sheet(event: Event, table: Table) -> dict[str, Any]:
    sheet = table_sheet(table)  # 4 queries
    ruleset = get_ruleset(event.ruleset)
    recorded = {hand["number"]: hand for hand in sheet["hands"]}
    scored = {n for n, hand in recorded.items() if hand["outcome"] == "scored"}
    playing = next((n for n in range(1, ruleset.hand_count + 1) if n not in scored), None)
    positions = [seat["seat"] for seat in sheet["seats"]]
    rows = []
    for spec in ruleset.hands:
        hand = recorded.get(spec.number)
        cells = []
        if hand and hand["outcome"] == "scored":
            by_seat = {r["seat"]: r for r in hand["results"]}
            for position in positions:
                result = by_seat.get(position)
                cells.append(
                    {
                        "seat": position,
                        "score": result["score"] if result else None,
                        "penalty": result["penalty_points"] if result else 0,
                        "sat_out": result["sat_out"] if result else True,
                        "out": hand["went_out"] == position,
                        "total": hand["totals"][position],
                    }
                )
        rows.append(
            {
                "number": spec.number,
                "contract": spec.contract,
                "cards_dealt": spec.cards_dealt,
                "state": (
                    "scored"
                    if spec.number in scored
                    else "playing"
                    if spec.number == playing
                    else "redeal"
                    if hand
                    else "waiting"
                ),
                "deals": hand["deals"] if hand else 0,
                "down_and_out": bool(hand and hand["down_and_out"]),
                "cells": cells,
            }
        )
    totals = {t["seat"]: t["total"] for t in sheet["totals"]}
    place = places(totals)
    for seat in sheet["seats"]:
        seat["total"] = totals[seat["seat"]]
        seat["place"] = place[seat["seat"]]
    sheet["rows"] = rows
    sheet["playing"] = playing
    sheet["finished"] = playing is None
    sheet["playing_contract"] = ruleset.hand(playing).contract if playing else None
    return sheet


def sheet(event: Event, table: Table) -> dict[str, Any]:
    """A table's hand-by-hand sheet with running totals and the hand being played (the
    first not yet scored): 4 queries, or none when cached."""
    return cached(
        f"{PREFIX}:table:{table.pk}", signature(event), partial(build_sheet, event, table)
    )


# --- A player across events -----------------------------------------------------------


def player_history(user: User, player_id: int) -> dict[str, Any]:
    """A player's results in the events this user may see: 4 queries."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    public_rounds = Round.objects.filter(status__in=PLAYED_ROUND_STATUSES)
    entries = list(
        Entry.objects.filter(player=player, event__in=visible_events(user).values("pk"))
        .select_related("event")
        .order_by("-event__starts_on", "-event__pk")
    )
    if not entries:  # nobody learns of a player who played only in private events
        raise Http404("No such player.")
    latest: dict[int, Standing] = {}
    for standing in (
        Standing.objects.filter(entry__in=entries, round__in=public_rounds)
        .select_related("round")
        .order_by("entry_id", "-round__number")
    ):
        latest.setdefault(standing.entry_id, standing)
    sets: dict[int, list[dict[str, Any]]] = {}
    seats = (
        Seat.objects.filter(entry__in=entries, round__in=public_rounds)
        .select_related("round", "table")
        .annotate(
            total=Subquery(
                HandScore.objects.filter(seat=OuterRef("pk"), hand__outcome=Hand.Outcome.SCORED)
                .values("seat")
                .annotate(s=Sum("score"))
                .values("s")
            ),
            played=Subquery(
                Hand.objects.filter(
                    table=OuterRef("table"),
                    outcome=Hand.Outcome.SCORED,
                    scores__seat=OuterRef("pk"),
                )
                .values("table")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            won=Subquery(
                Hand.objects.filter(went_out=OuterRef("pk"), outcome=Hand.Outcome.SCORED)
                .values("went_out")
                .annotate(n=Count("pk"))
                .values("n")
            ),
        )
        .order_by("round__number")
    )
    for seat in seats:
        sets.setdefault(seat.entry_id, []).append(
            {
                "round": seat.round.number,
                "table": seat.table.number,
                "total": seat.total or 0,
                "played": seat.played or 0,
                "won": seat.won or 0,
            }
        )
    events = []
    for entry in entries:
        standing = latest.get(entry.pk)
        events.append(
            {
                "event": entry.event,
                "withdrawn": entry.status == Entry.Status.WITHDRAWN,
                "standing": standing,
                "hands_needed": get_ruleset(entry.event.ruleset).hand_count,
                "sets": sets.get(entry.pk, []),
            }
        )
    return {"player": player, "events": events}
