"""CSV exports of an event: the standings (with every incomplete set and why) and
every hand score (with the state of its table: complete, playing, closed short or
forced).

Both read a fixed number of queries whatever the event's size and return the whole
file as text (an event's hands are a few thousand rows at most). Text cells that a
spreadsheet would run as a formula are quoted with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.entries.selectors import namesakes_of
from core.rounds.selectors import TableProgress
from core.series.selectors import series_standings
from core.standings.prizes import event_prize_winners
from core.standings.selectors import standings_after
from scoring.models import STANDING_FIGURES, Hand, HandScore, Penalty
from tournaments.models import Event, Round, Series

STANDINGS_COLUMNS = (
    "round",
    "rank",
    "player_id",
    "player",
    "club",
    "country",
    *STANDING_FIGURES,
    "movement",
    "status",
    "replaced_by",
    "incomplete",
    "adjusted",
    "prize",
)
HANDS_COLUMNS = (
    "round",
    "table",
    "hand",
    "attempt",
    "contract",
    "cards_dealt",
    "outcome",
    "went_out",
    "down_and_out",
    "seat",
    "player_id",
    "player",
    "card_points",
    "cards",
    "penalty_points",
    "penalties",
    "score",
    "sat_out",
    "table_state",
    "table_note",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """Keep a spreadsheet from running a name like '=HYPERLINK(...)' as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else value


def to_csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(row[c]) for c in columns])
    return out.getvalue()


def standings_rows(event: Event, number: int | None = None) -> list[dict[str, Any]]:
    """The standings after round `number` (default: the latest that has any), with each
    player's club and country: 2 queries. A player is named as the pages show them
    (namesakes told apart by club and number); a no-show a substitute replaced has the
    status "did not play" (or "replaced", after playing) and the substitute in
    `replaced_by`."""
    standings = standings_after(event, number)
    # The prizes go with the final standings only.
    prizes = {w.rank: w.text for w in event_prize_winners(event)} if standings.final else {}
    return [
        {
            "round": standings.round,
            "rank": row.rank,
            "player_id": row.player.id,
            "player": row.name,
            "club": row.club,
            "country": row.country,
            **{name: getattr(row, name) for name in STANDING_FIGURES},
            "table_points": f"{row.table_points:.2f}",
            "movement": row.movement,
            "status": row.status_text,
            "replaced_by": row.replaced_by.label if row.replaced_by else "",
            "incomplete": row.incomplete_text,
            "adjusted": row.adjusted_text,
            "prize": prizes.get(row.rank, ""),
        }
        for row in standings.rows
    ]


def standings_csv(event: Event, number: int | None = None) -> str:
    return to_csv(STANDINGS_COLUMNS, standings_rows(event, number))


SERIES_COLUMNS = (
    "rank",
    "player_id",
    "player",
    "points",
    "events_played",
    "best_place",
    "qualified",
    "results",
    "tie_note",
    "prize",
)


def series_rows(series: Series) -> list[dict[str, Any]]:
    """A series' standings with each leg's result (dropped ones said so) and the prize
    of each rank: 2 queries."""
    return [
        {
            "rank": row.rank,
            "player_id": row.player_id,
            "player": row.player.name,
            "points": f"{row.points:f}".rstrip("0").rstrip("."),
            "events_played": row.events_played,
            "best_place": row.best_place,
            "qualified": row.qualified,
            "results": "; ".join(result_words(r) for r in row.results),
            "tie_note": row.tie_note,
            "prize": row.prize.text if row.prize else "",
        }
        for row in series_standings(series)
    ]


def result_words(result: dict[str, Any]) -> str:
    """A player's result in a leg, in words: "Kingston Open: place 3, 80 points"."""
    text = _("%(leg)s: place %(place)s, %(points)s points") % {
        "leg": result["name"],
        "place": result["place"],
        "points": result["points"],
    }
    if result.get("shared"):
        text += _(" (place shared)")
    if result.get("provisional"):
        text += _(" (provisional)")
    if not result["counted"]:
        text += _(" (dropped)")
    return text


def series_csv(series: Series) -> str:
    return to_csv(SERIES_COLUMNS, series_rows(series))


def hand_rows(event: Event) -> list[dict[str, Any]]:
    """A row per seat of every scored hand, and one per redeal, in play order (players
    named as the pages show them): 4 queries."""
    names = namesakes_of(event)
    hands = list(
        Hand.objects.filter(table__round__event=event)
        .select_related("table__round", "went_out")
        .order_by("table__round__number", "table__number", "number", "attempt")
    )
    scores: dict[int, list[HandScore]] = {}
    for score in (
        HandScore.objects.filter(hand__table__round__event=event)
        .select_related("seat__entry__player")
        .order_by("seat__position")
    ):
        scores.setdefault(score.hand_id, []).append(score)
    penalties: dict[tuple[int, int], list[Penalty]] = {}
    for penalty in Penalty.objects.filter(hand__table__round__event=event).order_by("kind"):
        penalties.setdefault((penalty.hand_id, penalty.seat_id), []).append(penalty)
    tables = table_states(event, hands)
    rows = []
    for hand in hands:
        state = tables[hand.table_id]
        common = {
            "round": hand.table.round.number,
            "table": hand.table.number,
            "hand": hand.number,
            "attempt": hand.attempt,
            "contract": hand.contract,
            "cards_dealt": hand.cards_dealt,
            "outcome": hand.outcome,
            "went_out": hand.went_out.position if hand.went_out else None,
            "down_and_out": hand.down_and_out,
        }
        table = {"table_state": state.state, "table_note": state.why}
        empty = dict.fromkeys(HANDS_COLUMNS[len(common) : -len(table)])
        if not scores.get(hand.pk):
            rows.append({**common, **empty, **table})
            continue
        for score in scores[hand.pk]:
            rows.append(
                {
                    **common,
                    "seat": score.seat.position,
                    "player_id": score.seat.entry.player_id,
                    "player": names.get(score.seat.entry.player_id, score.seat.entry.player.name),
                    "card_points": score.card_points,
                    "cards": score.cards,
                    "penalty_points": score.penalty_points,
                    "penalties": "; ".join(
                        f"{p.kind} {p.points}" for p in penalties.get((hand.pk, score.seat_id), [])
                    ),
                    "score": score.score,
                    "sat_out": score.sat_out,
                    **table,
                }
            )
    return rows


def table_states(event: Event, hands: list[Hand]) -> dict[int, TableProgress]:
    """Each table's progress and state, from its hands already loaded (no query)."""
    states: dict[int, TableProgress] = {}
    needed = event.rules.hand_count
    for hand in hands:
        table = hand.table
        if table.pk not in states:
            states[table.pk] = TableProgress(
                table.number,
                table.locked,
                needed,
                closed_after=table.closed_after_hand,
                round_closed=table.round.status == Round.Status.CLOSED,
            )
        if hand.outcome == Hand.Outcome.SCORED:
            states[table.pk].scored.append(hand.number)
    return states


def hands_csv(event: Event) -> str:
    return to_csv(HANDS_COLUMNS, hand_rows(event))


def filename(event: Event, what: str, extension: str) -> str:
    return f"{event.slug}-{what}.{extension}"
