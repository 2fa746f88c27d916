"""Restoring an earlier version of a hand from its history, with the director's reason
for the change. The version is read back from the history rows as it stood when it was
saved, and recorded again through `record_hand` (the rules, the next version, the
history, the standings rebuild), so a restored hand is checked like any other entry."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.errors import InvalidInput, StateConflict
from core.hands.services import Recorded, correction_reason, record_hand
from core.locks import for_request
from game import rules
from scoring.models import Hand, HandScore, Penalty
from tournaments.models import Seat, Table


def latest_rows(records: list[Any]) -> list[Any]:
    """The rows standing after these history records (oldest first): each row's last
    record, unless it was a deletion."""
    last: dict[int, Any] = {}
    for record in records:
        last[record.id] = record
    return [r for r in last.values() if r.history_type != "-"]


def version_entry(table: Table, number: int, version: int) -> rules.HandEntry:
    """What hand `number` at `table` said at `version`, as a director would type it."""
    records = list(
        Hand.history.filter(table_id=table.pk, number=number).order_by("history_date", "history_id")
    )
    at = [r for r in records if r.version == version and r.history_type != "-"]
    if not at:
        raise InvalidInput(
            _("Hand %(hand)s at table %(table)s has no version %(version)s.")
            % {"hand": number, "table": table.number, "version": version},
            field="version",
        )
    record = at[-1]
    if record.outcome == Hand.Outcome.REDEAL:
        raise InvalidInput(
            _("Version %(version)s is a redeal, a deal of its own; it is not a result to restore.")
            % {"version": version},
            field="version",
        )
    later = [
        r.history_date
        for r in records
        if r.id == record.id
        and (r.history_date, r.history_id) > (record.history_date, record.history_id)
    ]
    until = min(later) if later else None

    def upto(model) -> list[Any]:
        """The rows of this deal as they stood once that save was done."""
        rows = model.history.filter(hand_id=record.id)
        if until is not None:
            rows = rows.filter(history_date__lt=until)
        return latest_rows(list(rows.order_by("history_date", "history_id")))

    scores, penalties = upto(HandScore), upto(Penalty)
    seat_ids = {r.seat_id for r in [*scores, *penalties]} | {record.went_out_id}
    positions = dict(Seat.objects.filter(pk__in=seat_ids).values_list("pk", "position"))
    return rules.HandEntry(
        went_out=positions.get(record.went_out_id),
        down_and_out=record.down_and_out,
        scores=tuple(
            rules.SeatEntry(seat=positions[s.seat_id], cards=s.cards)
            if s.cards
            else rules.SeatEntry(seat=positions[s.seat_id], points=s.card_points)
            for s in sorted(scores, key=lambda s: positions[s.seat_id])
        ),
        penalties=tuple(
            rules.PenaltyEntry(
                seat=positions[p.seat_id],
                kind=p.kind,
                extra_calls=p.extra_calls or None,
                points=p.points,
            )
            for p in sorted(penalties, key=lambda p: (positions[p.seat_id], p.kind))
        ),
    )


@for_request("table")
def restore_hand_version(
    *,
    table: Table,
    number: int,
    version: int,
    reason: str = "",
    by: AbstractBaseUser | None = None,
    expected_version: int | None = None,
) -> Recorded:
    """Record hand `number` at `table` again as it stood at `version`; the history says
    "restored version N" and the director's reason. Refused (nothing written) when the
    hand is already so, or when the rules refuse that version now (a player since left
    the table, say)."""
    reason = correction_reason(reason)
    entry = version_entry(table, number, version)
    # Kept as a code with the director's words, worded in the reader's language.
    text = st.stored(st.RESTORED, version=version, reason=st.untyped(reason))
    recorded = record_hand(
        table=table,
        number=number,
        entry=entry,
        by=by,
        expected_version=expected_version,
        reason=text,
    )
    if not recorded.changed:
        raise StateConflict(
            _("Hand %(hand)s already says what version %(version)s said; nothing to restore.")
            % {"hand": number, "version": version},
            field="version",
        )
    return recorded
