"""Shared builders for the toolkit tests: an event played through the real services, so
its rows and history look like a director's (corrections, a redeal, a deleted hand, a
withdrawal during a round, penalties, a down and out)."""

from __future__ import annotations

import json

from scoring import services as scoring
from scoring.rules import HandEntry, PenaltyEntry, SeatEntry
from tests.factories import make_event, make_round
from tournaments import services
from tournaments.models import Entry, Event, Player, Round

PLAYERS = [
    ("Andre Brown", "Kingston Kalooki Club", "JM", 1500),
    ("Beverley Campbell", "Spanish Town Card Players", "JM", 1620),
    ("Carlton Clarke", "Port of Spain All Fours & Kalooki", "TT", None),
    ("Delroy Edwards", "Brooklyn Jamaican Association", "US", 1710),
    ("Errol Ferguson", "", "", None),
    ("Fitzroy Gordon", "Toronto Caribbean Club", "CA", 1440),
    ("Garfield Grant", "Birmingham Kalooki Society", "GB", 1380),
    ("Hyacinth Henry", "Kingston Kalooki Club", "JM", 1800),
    ("Icilda James", "Mandeville Social Club", "JM", 1550),
]


def hand(went_out: int, seats: int, *, base: int = 10, **extra) -> HandEntry:
    """A scored hand: `went_out` scores 0, the others base+seat points."""
    scores = tuple(
        SeatEntry(seat=s, points=0 if s == went_out else base + s) for s in range(1, seats + 1)
    )
    return HandEntry(went_out=went_out, scores=scores, **extra)


def make_players(event: Event) -> list[Entry]:
    players = [Player.objects.create(name=n, club=c, country=k, rating=r) for n, c, k, r in PLAYERS]
    return [
        Entry.objects.create(event=event, player=p, seed_number=i)
        for i, p in enumerate(players, start=1)
    ]


def played_event(*, slug: str = "kingston", director=None, **fields) -> Event:
    """Round 1 (a table of 5 and one of 4) played out and closed, with standings; round 2
    published and part-way through, one player withdrawn during it."""
    fields.setdefault("name", "Kingston Kalooki Open")
    fields.setdefault("venue", "Kingston, Jamaica")
    fields.setdefault("rounds_planned", 2)
    event = make_event(slug=slug, **fields)
    if director is not None:
        event.directors.add(director)
    entries = make_players(event)
    hand_count = scoring.ruleset_of(event).hand_count
    round1 = make_round(event, table_sizes=(5, 4), entries=entries)
    for table in round1.tables.order_by("number"):
        size = table.seats.count()
        for number in range(1, hand_count + 1):
            if number == 2 and table.number == 1:
                scoring.record_hand(
                    table=table, number=2, entry=HandEntry(redeal=True), by=director
                )
            extra = {}
            if number == 3:
                extra["penalties"] = (PenaltyEntry(seat=1, kind="overcall", extra_calls=1),)
            if number == 4:
                extra["down_and_out"] = True
            went_out = (number % size) + 1
            scoring.record_hand(
                table=table, number=number, entry=hand(went_out, size, **extra), by=director
            )
        # A correction, kept in the history.
        scoring.record_hand(table=table, number=1, entry=hand(1, size, base=12), by=director)
    services.close_round(round=round1, by=director)
    scoring.refresh_standings(event=event)
    round2 = make_round(
        event,
        number=2,
        table_sizes=(5, 4),
        entries=list(reversed(entries)),
        status=Round.Status.PUBLISHED,
    )
    table = round2.tables.get(number=1)
    for number in (1, 2):
        scoring.record_hand(table=table, number=number, entry=hand(2, 5), by=director)
    scoring.record_hand(table=table, number=3, entry=hand(3, 5), by=director)
    scoring.delete_hand(table=table, number=3, by=director)
    services.withdraw_entry(entry=table.seats.get(position=5).entry, by=director)
    scoring.refresh_standings(event=event)
    event.refresh_from_db()
    return event


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
    from scoring.selectors import standings_document, table_sheet
    from tournaments.selectors import round_with_seating
    from tournaments.serializers import round_document

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
        document = round_document(round_with_seating(event, round_.number))
        # The round document names repeat pairs by player id.
        document["quality"]["repeat_pairs"] = [
            sorted(names.get(x, x) for x in pair) for pair in document["quality"]["repeat_pairs"]
        ]
        document["sheets"] = [table_sheet(t) for t in round_.tables.order_by("number")]
        document["closed_at"] = round_.closed_at.isoformat() if round_.closed_at else None
        shown["rounds"].append(named(document))
        if round_.standings.exists():
            shown["standings"].append(named(standings_document(event, round_.number)))
    return json.loads(json.dumps(shown, default=str))


def history_summary(event: Event, entry_names: dict[int, str]) -> dict[str, list]:
    """Every history row of the event's objects (deleted ones too), by what it says."""
    from scoring.models import Hand, HandScore, Penalty
    from tournaments.models import Seat, Table

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
                row.history_user.username if row.history_user else None,
                row.history_change_reason,
                entry_names.get(getattr(row, "entry_id", None)),
                *[getattr(row, f) for f in fields[name]],
            )
            for row in query.select_related("history_user")
        )
    return summary
