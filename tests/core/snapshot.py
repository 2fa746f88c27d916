"""Comparing an event before and after a move between installations: what its pages
and the API show, read through the project's own selectors and serializers."""

from __future__ import annotations

import json

from api.scoring_serializers import StandingsSerializer, TableSerializer
from api.serializers import RoundSerializer
from core import selectors
from core.common import author_and_reason
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Entry, Event, Player, Round, Seat, Table


def compare(before: dict, after: dict) -> None:
    """Field by field, so a failure names the section, the row and the field."""
    assert before.keys() == after.keys()
    for section, rows in before.items():
        if isinstance(rows, dict):
            compare(rows, after[section])
            continue
        if not isinstance(rows, list):
            assert rows == after[section], section
            continue
        assert len(rows) == len(after[section]), section
        for i, (old, new) in enumerate(zip(rows, after[section], strict=True)):
            if isinstance(old, dict):
                for name in old:
                    assert old[name] == new[name], f"{section}[{i}].{name}"
            assert old == new, f"{section}[{i}]"


def snapshot(event: Event) -> dict:
    """The event as its pages and the API show it, read through the project's own
    selectors (not the archive's code), with database ids replaced by names: what must
    be the same after a move between installations. JSON-ready."""
    names = dict(Player.objects.filter(entries__event=event).values_list("pk", "name"))
    entry_names = dict(Entry.objects.filter(event=event).values_list("pk", "player__name"))

    def named(value):
        if isinstance(value, dict):
            return {
                k: names.get(v, v) if k in ("player", "id") and isinstance(v, int) else named(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [named(v) for v in value]
        return value

    rounds = list(event.rounds.order_by("number"))
    shown: dict = {
        "event": {
            "slug": event.slug,
            "name": event.name,
            "status": event.status,
            "standings_version": event.standings_version,
            "directors": sorted(event.directors.values_list("username", flat=True)),
        },
        "entries": sorted(
            (e.player.name, e.player.club, str(e.player.country), e.player.rating)
            + (e.status, e.seed_number, e.registered_at.isoformat())
            for e in Entry.objects.filter(event=event).select_related("player")
        ),
        "rounds": [],
        "standings": [],
        "history": history_summary(event, entry_names),
    }
    for round_ in rounds:
        document = dict(RoundSerializer(selectors.round_with_seating(event, round_.number)).data)
        # The round document names repeat pairs by player id.
        document["quality"]["repeat_pairs"] = [
            sorted(names.get(x, x) for x in pair) for pair in document["quality"]["repeat_pairs"]
        ]
        document["sheets"] = [
            TableSerializer(selectors.table_sheet(t)).data for t in round_.tables.order_by("number")
        ]
        document["closed_at"] = round_.closed_at.isoformat() if round_.closed_at else None
        shown["rounds"].append(named(document))
        if round_.standings.exists():
            standings = StandingsSerializer(selectors.standings_after(event, round_.number))
            shown["standings"].append(named(standings.data))
    return json.loads(json.dumps(shown, default=str))


def author_and_reason_shown(row) -> tuple:
    """Who made a change and why, as the history names them: a user here, or the name an
    imported archive gave (kept as text)."""
    if row.history_user is not None:
        return row.history_user.username, row.history_change_reason
    return author_and_reason(row.history_change_reason)


def history_summary(event: Event, entry_names: dict[int, str]) -> dict[str, list]:
    """Every history row of the event's objects (deleted ones too), by what it says."""
    rounds = Round.objects.filter(event=event).values("pk")
    tables = Table.history.filter(round_id__in=rounds).values("id")
    hands = Hand.history.filter(table_id__in=tables).values("id")
    rows = {
        "entries": Entry.history.filter(event_id=event.pk),
        "tables": Table.history.filter(round_id__in=rounds),
        "seats": Seat.history.filter(round_id__in=rounds),
        "hands": Hand.history.filter(table_id__in=tables),
        "hand_scores": HandScore.history.filter(hand_id__in=hands),
        "penalties": Penalty.history.filter(hand_id__in=hands),
    }
    fields = {
        "entries": ("status", "seed_number"),
        "tables": ("number", "locked"),
        "seats": ("position", "first_dealer", "left_after_hand"),
        "hands": ("number", "attempt", "outcome", "version", "contract", "down_and_out"),
        "hand_scores": ("card_points", "penalty_points", "score", "cards", "sat_out"),
        "penalties": ("kind", "points", "extra_calls"),
    }
    summary = {}
    for name, query in rows.items():
        summary[name] = sorted(
            (
                row.history_type,
                row.history_date.isoformat(),
                *author_and_reason_shown(row),
                entry_names.get(getattr(row, "entry_id", None)),
                *[getattr(row, f) for f in fields[name]],
            )
            for row in query.select_related("history_user")
        )
    return summary
