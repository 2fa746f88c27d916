"""A hand's history: who changed what, when, before -> after (4 queries)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import stored_texts as st
from core.common import author_and_reason
from core.hands.sheet_form import PENALTY_LABELS
from core.stored_texts.words import worded
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Seat, Table


@dataclass
class HistoryEntry:
    when: Any
    who: str
    version: int
    deal: int
    action: str  # "recorded", "corrected", "deleted", "redeal"
    changes: list[tuple[str, str, str]]  # (what, before, after)
    # The director's reason for the change ("restored version 2: wrong seat"), if any.
    reason: str = ""


def _score_text(row: Any) -> str:
    text = row.cards or str(row.card_points)
    if row.score != row.card_points:
        text = _("%(points)s (score %(score)s)") % {"points": text, "score": row.score}
    return text


def _penalty_label(kind: str) -> str:
    return str(PENALTY_LABELS.get(kind, kind))


def _penalty_text(row: Any) -> str:
    text = _("%(penalty)s %(points)s") % {"penalty": _penalty_label(row.kind), "points": row.points}
    if row.extra_calls:
        text = ngettext(
            "%(penalty)s, %(count)s extra call",
            "%(penalty)s, %(count)s extra calls",
            row.extra_calls,
        ) % {"penalty": text, "count": row.extra_calls}
    return text


def _who(record: Any) -> str:
    if record.history_user is not None:
        return record.history_user.get_username()
    author, _reason = author_and_reason(record.history_change_reason)
    if author is not None:
        return _("%(author)s (imported)") % {"author": author}
    reason = record.history_change_reason or ""
    if st.code_of(reason) == st.PLAYERS:
        # A hand the players recorded themselves (`core.table_entry.services`) has no
        # user; its reason says who: "entered by seat 1 (Ann), confirmed by seat 4 (Ben)".
        return _("the players (%(reason)s)") % {"reason": worded(reason)}
    return worded(reason) or _("unknown")


def _why(record: Any) -> str:
    """The reason a director gave, in the reader's words where the site wrote it (a
    players' record says who in `_who` instead)."""
    if record.history_user is not None:
        return worded(record.history_change_reason)
    author, reason = author_and_reason(record.history_change_reason)
    return worded(reason) if author is not None else ""


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
    positions = {
        pk: f"{position} ({name})"
        for pk, position, name in Seat.objects.filter(pk__in=seat_ids).values_list(
            "pk", "position", "entry__player__name"
        )
    }
    groups: dict[int, list[Any]] = {h.history_id: [] for h in hands}
    for child in sorted(children, key=lambda c: (c.history_date, c.history_id)):
        own = [h for h in hands if h.id == child.hand_id]
        if not own:
            continue
        nearest = min(own, key=lambda h: abs((h.history_date - child.history_date).total_seconds()))
        groups[nearest.history_id].append(child)

    def seat_name(seat_id: int | None) -> str:
        return _("seat %(seat)s") % {"seat": positions[seat_id]} if seat_id in positions else "—"

    states: dict[int, dict[str, str]] = {}  # by hand id (one per deal): what it said
    entries = []
    for record in hands:
        before = states.get(record.id, {})
        after = dict(before)
        if record.history_type == "-":
            after = {}
        else:
            after[_("Outcome")] = str(record.get_outcome_display())
            after[_("Went out")] = seat_name(record.went_out_id)
            after[_("Down and out")] = _("yes") if record.down_and_out else _("no")
        for child in groups[record.history_id]:
            if isinstance(child, HandScore.history.model):
                key = _("Seat %(seat)s") % {"seat": positions.get(child.seat_id, "?")}
                value = _score_text(child)
            else:
                label = _penalty_label(child.kind).lower()
                key = _("Seat %(seat)s %(penalty)s") % {
                    "seat": positions.get(child.seat_id, "?"),
                    "penalty": label,
                }
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
                reason=_why(record),
            )
        )
    return entries
