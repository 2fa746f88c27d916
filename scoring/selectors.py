"""Reads of hands, tables and standings for pages and the API: plain data, a fixed
number of queries whatever the event's size."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch
from django.http import Http404

from scoring import rules
from scoring.models import Hand, HandScore, Penalty, Standing
from scoring.rulesets import get_ruleset
from tournaments.models import Event, Round, Seat, Table


def hands_of(tables: Iterable[Table], number: int | None = None) -> list[Hand]:
    """Every attempt of the tables' hands with scores and penalties: 3 queries."""
    hands = Hand.objects.filter(table__in=list(tables))
    if number is not None:
        hands = hands.filter(number=number)
    return list(
        hands.select_related("went_out")
        .prefetch_related(
            Prefetch(
                "scores", HandScore.objects.select_related("seat__entry").order_by("seat__position")
            ),
            Prefetch(
                "penalties",
                Penalty.objects.select_related("seat").order_by("seat__position", "kind"),
            ),
        )
        .order_by("table_id", "number", "attempt")
    )


def current_hands(attempts: Iterable[Hand]) -> dict[int, tuple[Hand, int, int]]:
    """By hand number: the attempt that stands (the scored one, else the last redeal),
    the number's version, and how many deals it took."""
    by_number: dict[int, list[Hand]] = {}
    for hand in attempts:
        by_number.setdefault(hand.number, []).append(hand)
    result = {}
    for number, hands in by_number.items():
        scored = [h for h in hands if h.outcome == Hand.Outcome.SCORED]
        standing = scored[0] if scored else hands[-1]
        result[number] = (standing, max(h.version for h in hands), len(hands))
    return result


def hand_document(hand: Hand, version: int, deals: int) -> dict[str, Any]:
    """The API's hand document (API.md, "Hands")."""
    return {
        "number": hand.number,
        "contract": hand.contract,
        "cards_dealt": hand.cards_dealt,
        "outcome": hand.outcome,
        "went_out": hand.went_out.position if hand.went_out else None,
        "down_and_out": hand.down_and_out,
        "version": version,
        "deals": deals,
        "results": [
            {
                "seat": s.seat.position,
                "player": s.seat.entry.player_id,
                "card_points": s.card_points,
                "penalty_points": s.penalty_points,
                "score": s.score,
                "cards": s.cards or None,
                "sat_out": s.sat_out,
            }
            for s in hand.scores.all()
        ],
        "penalties": [
            {
                "seat": p.seat.position,
                "kind": p.kind,
                "points": p.points,
                "extra_calls": p.extra_calls,
            }
            for p in hand.penalties.all()
        ],
    }


def hand_at(table: Table, number: int) -> dict[str, Any]:
    found = current_hands(hands_of([table], number))
    if number not in found:
        raise Http404("This hand has not been recorded.")
    return hand_document(*found[number])


def hand_version(table: Table, number: int) -> int:
    """The version a client must send in If-Match (0: not recorded yet)."""
    versions = Hand.objects.filter(table=table, number=number).values_list("version", flat=True)
    return max(versions, default=0)


def table_sheet(table: Table) -> dict[str, Any]:
    """A table's sheet: seats, every hand as it stands, running totals: 4 queries."""
    event = table.round.event
    ruleset = get_ruleset(event.ruleset)
    seats = list(
        Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    )
    hands = current_hands(hands_of([table]))
    totals = {seat.position: 0 for seat in seats}
    documents = []
    for number in sorted(hands):
        document = hand_document(*hands[number])
        for result in document["results"]:
            totals[result["seat"]] += result["score"]
        document["totals"] = dict(totals) if document["outcome"] == "scored" else None
        documents.append(document)
    scored = sum(1 for d in documents if d["outcome"] == "scored")
    return {
        "number": table.number,
        "round": table.round.number,
        "locked": table.locked,
        "hands_needed": ruleset.hand_count,
        "hands_scored": scored,
        "seats": [
            {
                "seat": seat.position,
                "player": seat.entry.player_id,
                "name": seat.entry.player.name,
                "dealer": seat.first_dealer,
                "left_after_hand": seat.left_after_hand,
            }
            for seat in seats
        ],
        "hands": documents,
        "totals": [
            {"seat": seat.position, "player": seat.entry.player_id, "total": totals[seat.position]}
            for seat in seats
        ],
    }


def standings_round(event: Event, number: int | None = None) -> Round | None:
    """The round whose standings to show: the one asked for, else the latest that has any."""
    rounds = Round.objects.filter(event=event, standings__isnull=False).distinct()
    if number is not None:
        found = rounds.filter(number=number).first()
        if found is None:
            raise Http404("No standings for this round.")
        return found
    return rounds.order_by("-number").first()


STANDING_FIELDS = (
    "rank",
    "entry__player_id",
    "entry__player__name",
    "points",
    "table_points",
    "sets_played",
    "hands_won",
    "penalty_points",
    "best_set",
    "movement",
    "status",
)


def standings_document(event: Event, number: int | None = None) -> dict[str, Any]:
    """The API's standings document (API.md, "Standings").

    Cached per standings version: a rebuild bumps the version, so a cached document is
    never stale; while nothing changes, a read costs one cache hit (and the event's
    own row, which the caller has already loaded to check who may see it).
    """
    key = f"standings-doc:{event.pk}:{event.standings_version}:{number}"
    document = cache.get(key)
    if document is None:
        document = build_standings_document(event, number)
        cache.set(key, document, timeout=3600)
    return document


def build_standings_document(event: Event, number: int | None) -> dict[str, Any]:
    """2 queries: the round, then its rows as plain values."""
    round_ = standings_round(event, number)
    rows = (
        Standing.objects.filter(round=round_).order_by("rank").values_list(*STANDING_FIELDS)
        if round_
        else []
    )
    closed = round_ is not None and round_.status == Round.Status.CLOSED
    return {
        "version": event.standings_version,
        "round": round_.number if round_ else None,
        "round_closed": closed,
        "final": closed and round_.number >= event.rounds_planned,
        "standings": [
            {
                "rank": rank,
                "player": {"id": player_id, "name": name},
                "points": points,
                "table_points": float(table_points),
                "sets_played": sets_played,
                "hands_won": hands_won,
                "penalty_points": penalty_points,
                "best_set": best_set,
                "movement": movement,
                "status": status,
            }
            for (
                rank,
                player_id,
                name,
                points,
                table_points,
                sets_played,
                hands_won,
                penalty_points,
                best_set,
                movement,
                status,
            ) in rows
        ],
    }


def playing_seats(table: Table, number: int) -> list[int]:
    """The seats that play hand `number`: a player who withdrew mid-round plays no hand
    after the one they left after (the service reads the seats the same way)."""
    return [
        seat.position
        for seat in Seat.objects.filter(table=table).order_by("position")
        if seat.plays_hand(number)
    ]


def hands_entered(round_: Round) -> dict[int, tuple[list[int], int]]:
    """By table id: the hand numbers scored, and how many redeals: one query."""
    scored: dict[int, set[int]] = {}
    redeals: dict[int, int] = {}
    for table_id, number, outcome in Hand.objects.filter(table__round=round_).values_list(
        "table_id", "number", "outcome"
    ):
        if outcome == Hand.Outcome.SCORED:
            scored.setdefault(table_id, set()).add(number)
        else:
            redeals[table_id] = redeals.get(table_id, 0) + 1
    return {
        table_id: (sorted(scored.get(table_id, ())), redeals.get(table_id, 0))
        for table_id in scored.keys() | redeals.keys()
    }


# --- A hand's history: who changed what, when, before -> after ------------------------


@dataclass
class HistoryEntry:
    when: Any
    who: str
    version: int
    deal: int
    action: str  # "recorded", "corrected", "deleted", "redeal"
    changes: list[tuple[str, str, str]]  # (what, before, after)


def _score_text(row: Any) -> str:
    text = row.cards or str(row.card_points)
    if row.score != row.card_points:
        text += f" (score {row.score})"
    return text


def _penalty_text(row: Any) -> str:
    label = rules.PENALTY_LABELS.get(row.kind, row.kind)
    calls = f", {row.extra_calls} extra call{'s' if row.extra_calls != 1 else ''}"
    return f"{label} {row.points}" + (calls if row.extra_calls else "")


def _who(record: Any) -> str:
    if record.history_user is not None:
        return record.history_user.get_username()
    return record.history_change_reason or "unknown"


def hand_history(table: Table, number: int) -> list[HistoryEntry]:
    """Every change to hand `number` at `table`, oldest first: 4 queries.

    A save writes the hand row first and then its score and penalty rows, each with a
    history record; each score or penalty record belongs to the nearest (in time)
    record of its own hand, which is the save that wrote it.
    """
    hands = list(
        Hand.history.filter(table_id=table.pk, number=number)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    hand_ids = {h.id for h in hands}
    children = [
        *HandScore.history.filter(hand_id__in=hand_ids),
        *Penalty.history.filter(hand_id__in=hand_ids),
    ]
    seat_ids = {c.seat_id for c in children} | {h.went_out_id for h in hands if h.went_out_id}
    positions = dict(Seat.objects.filter(pk__in=seat_ids).values_list("pk", "position"))
    groups: dict[int, list[Any]] = {h.history_id: [] for h in hands}
    for child in sorted(children, key=lambda c: (c.history_date, c.history_id)):
        own = [h for h in hands if h.id == child.hand_id]
        if not own:
            continue
        nearest = min(own, key=lambda h: abs((h.history_date - child.history_date).total_seconds()))
        groups[nearest.history_id].append(child)

    def seat_name(seat_id: int | None) -> str:
        return f"seat {positions[seat_id]}" if seat_id in positions else "—"

    states: dict[int, dict[str, str]] = {}  # by hand id (one per deal): what it said
    entries = []
    for record in hands:
        before = states.get(record.id, {})
        after = dict(before)
        if record.history_type == "-":
            after = {}
        else:
            after["Outcome"] = record.get_outcome_display()
            after["Went out"] = seat_name(record.went_out_id)
            after["Down and out"] = "yes" if record.down_and_out else "no"
        for child in groups[record.history_id]:
            if isinstance(child, HandScore.history.model):
                key = f"Seat {positions.get(child.seat_id, '?')}"
                value = _score_text(child)
            else:
                label = rules.PENALTY_LABELS.get(child.kind, child.kind).lower()
                key = f"Seat {positions.get(child.seat_id, '?')} {label}"
                value = _penalty_text(child)
            if child.history_type == "-":
                after.pop(key, None)
            else:
                after[key] = value
        states[record.id] = after
        keys = list(dict.fromkeys([*before, *after]))
        changes = [
            (key, before.get(key, "—"), after.get(key, "—"))
            for key in keys
            if before.get(key) != after.get(key)
        ]
        action = {"+": "recorded", "~": "corrected", "-": "deleted"}[record.history_type]
        if record.history_type != "-" and record.outcome == Hand.Outcome.REDEAL:
            action = "redeal"
        entries.append(
            HistoryEntry(
                when=record.history_date,
                who=_who(record),
                version=record.version,
                deal=record.attempt,
                action=action,
                changes=changes,
            )
        )
    return entries
