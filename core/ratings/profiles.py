"""A player's page beyond their events: the rating chart's geometry, head-to-head
against another player. Only what the viewer may see: events they may see (a private
event's tables never show to the public), ratings from public events only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from core.collation import by_name
from core.events.access import User, visible_events
from core.ratings.selectors import HistoryPoint
from game import ranking
from game.rulesets import get_ruleset
from scoring.models import Hand, HandScore
from tournaments.models import PLAYED_ROUND_STATUSES, Player, Ruleset, Seat

# --- The rating chart (server-rendered SVG) ---------------------------------------------

WIDTH, HEIGHT, PAD = 480, 160, 28


def chart(history: list[HistoryPoint]) -> dict[str, Any] | None:
    """The SVG line chart of a player's rating after each rated round: the points, the
    axis labels. None for fewer than two points (nothing to draw a line through)."""
    if len(history) < 2:
        return None
    values = [h.rating for h in history]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    span_x = WIDTH - 2 * PAD
    span_y = HEIGHT - 2 * PAD
    step = span_x / (len(history) - 1)
    points = []
    for i, h in enumerate(history):
        x = PAD + i * step
        y = PAD + (high - h.rating) / (high - low) * span_y
        points.append(
            {
                "x": round(x, 1),
                "y": round(y, 1),
                "label": _("%(event)s, round %(round)s: %(rating)s")
                % {"event": h.event, "round": h.round, "rating": f"{h.rating:.1f}"},
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": PAD,
        "right": WIDTH - PAD,
        "top": PAD,
        "bottom": HEIGHT - PAD,
        "high": f"{high:.1f}",
        "low": f"{low:.1f}",
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "points": points,
        "first": history[0],
        "last": history[-1],
    }


# --- Head to head -----------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    event_name: str
    event_slug: str
    round: int
    table: int
    mine: int
    theirs: int
    complete: bool

    @property
    def outcome(self) -> str:
        if not self.complete:
            return "incomplete"
        if self.mine == self.theirs:
            return "tie"
        return "won" if self.mine < self.theirs else "lost"


def opponents(user: User, player_id: int) -> list[Player]:
    """The players this player has shared a table with, in events this viewer may see.
    1 query."""
    tables = Seat.objects.filter(
        entry__player_id=player_id,
        round__event__in=visible_events(user).values("pk"),
        round__status__in=PLAYED_ROUND_STATUSES,
    ).values("table_id")
    return list(
        Player.objects.filter(entries__seats__table_id__in=tables)
        .exclude(pk=player_id)
        .distinct()
        .order_by(by_name("name"), "pk")
    )


def head_to_head(user: User, player_id: int, opponent_id: int) -> list[Meeting]:
    """Every set the two played at the same table, in events this viewer may see, with
    both totals (lower is better; an incomplete set decides nothing). A copy of an
    event (left out of ratings and series) holds the same sets again: not counted
    twice. 2 queries."""
    events = visible_events(user).values("pk")
    mine = Seat.objects.filter(
        entry__player_id=player_id,
        round__event__in=events,
        round__event__counted=True,
        round__status__in=PLAYED_ROUND_STATUSES,
    )
    seats = list(
        Seat.objects.filter(
            table_id__in=mine.values("table_id"),
            entry__player_id__in=[player_id, opponent_id],
        )
        .values_list(
            "pk",
            "table_id",
            "entry__player_id",
            "round__number",
            "round__status",
            "table__number",
            "table__closed_after_hand",
            "left_after_hand",
            "round__event__name",
            "round__event__slug",
            "round__event__ruleset",
            "round__event__frozen_ruleset",
            "round__event__custom_ruleset__hands",
        )
        .order_by("round__event__starts_on", "round__event_id", "round__number")
    )
    totals = {
        row["seat_id"]: row
        for row in HandScore.objects.filter(
            seat_id__in=[s[0] for s in seats], hand__outcome=Hand.Outcome.SCORED
        )
        .values("seat_id")
        .annotate(total=Sum("score"), played=Count("pk"))
        .order_by()
    }
    by_table: dict[int, dict[int, tuple]] = {}
    for seat in seats:
        by_table.setdefault(seat[1], {})[seat[2]] = seat
    meetings = []
    for pair in by_table.values():
        if len(pair) < 2:
            continue
        a, b = pair[player_id], pair[opponent_id]
        complete = all(set_complete(s, totals) for s in (a, b))
        meetings.append(
            Meeting(
                event_name=a[8],
                event_slug=a[9],
                round=a[3],
                table=a[5],
                mine=(totals.get(a[0]) or {}).get("total", 0),
                theirs=(totals.get(b[0]) or {}).get("total", 0),
                complete=complete,
            )
        )
    return meetings


def hands_in_set(ruleset: str, frozen: dict | None, custom_hands: list | None) -> int:
    """How many hands make a set in an event, as `Event.rules` counts them, from
    columns read with the seats (no query): a custom ruleset's hands as frozen into the
    event at its first hand (the house ruleset's current ones before), else the
    built-in ruleset's."""
    if ruleset == Ruleset.CUSTOM:
        return len(frozen["hands"] if frozen else custom_hands or ())
    return get_ruleset(ruleset).hand_count


def set_complete(seat: tuple, totals: dict) -> bool:
    played = (totals.get(seat[0]) or {}).get("played", 0)
    state, _ = ranking.set_state(
        played=played,
        hands=hands_in_set(seat[10], seat[11], seat[12]),
        left_after=seat[7],
        ended_after=seat[6],
        over=seat[4] == "closed",
    )
    return state == ranking.COMPLETE


def record(meetings: list[Meeting]) -> dict[str, int]:
    """Won, lost and tied sets between the two (incomplete sets aside)."""
    out = {"won": 0, "lost": 0, "tie": 0, "incomplete": 0}
    for m in meetings:
        out[m.outcome] += 1
    return out
