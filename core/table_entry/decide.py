"""The director decides a hand the players entered: records, in one action, the version
as entered or the version of the player who disputed it. A write like the sheet's,
through `record_hand` (rules, version, history, standings), so that what a director
records here and what they type in the sheet are one and the same thing.

An action on the players' entries that comes too late (the hand was recorded meanwhile,
by the players or by another director) says how the hand stands now, in plain words,
rather than a bare conflict.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.errors import InvalidInput, ProposalChanged, StaleVersion
from core.hands.services import Recorded, lock_table_for_write, record_hand
from core.locks import for_request
from core.table_entry.selectors import entry_from_document
from core.table_entry.services import latest_for_update, nothing_waiting
from scoring.models import Hand, Proposal
from tournaments.models import Table


@for_request("table")
def record_proposal(
    *,
    table: Table,
    number: int,
    version: int,
    disputed: bool = False,
    by: AbstractBaseUser | None = None,
) -> Recorded:
    """A director records a version of hand `number` the players gave: their entry
    `version` as entered, or (`disputed`) the version of the player who disputed it.
    Through `record_hand`, as the sheet records a hand, so the players' entries still
    open for it are overruled. Nothing is written when the table entered the hand again
    since (ProposalChanged) or the hand was recorded meanwhile (StaleVersion, saying how
    it stands now). Takes the table's row lock."""
    table = lock_table_for_write(table)
    proposal = latest_for_update(table, number)
    if proposal is None or proposal.version < version:
        raise nothing_waiting(number)
    if proposal.state not in Proposal.OPEN:
        raise settled_meanwhile(table, number, proposal)
    if proposal.version != version:
        raise ProposalChanged(
            _(
                "Hand %(hand)s was entered again (by seat %(seat)s) since you looked at it: "
                "nothing was recorded. Look at the new entry before you record it."
            )
            % {"hand": number, "seat": proposal.entered_seat},
            field="version",
        )
    # Who gave the version recorded, for the hand's history (a code with the seats).
    entered = st.seat(proposal.entered_seat, proposal.entered_by.player.name)
    document, whose = proposal.entry, st.stored(st.ENTERED_VERSION, **entered)
    if disputed:
        if proposal.alternative is None:
            raise InvalidInput(
                _(
                    "Nobody gave another version of hand %(hand)s: record it as entered, or "
                    "enter it in the sheet."
                )
                % {"hand": number},
                field="version",
            )
        document = proposal.alternative
        whose = st.stored(
            st.DISPUTED_VERSION,
            **entered,
            by_seat=proposal.disputed_seat,
            by_name=proposal.disputed_by.player.name,
        )
    try:
        return record_hand(
            table=table,
            number=number,
            entry=entry_from_document(document),
            by=by,
            expected_version=proposal.base_version,
            reason=whose,
        )
    except StaleVersion as stale:
        raise settled_meanwhile(table, number, proposal) from stale


def settled_meanwhile(table: Table, number: int, latest: Proposal) -> StaleVersion:
    """Why a director's action on the players' entries for hand `number` came too late
    (`latest`: the players' latest entry for it): how the hand stands now."""
    scored = (
        Hand.objects.filter(table=table, number=number, outcome=Hand.Outcome.SCORED)
        .select_related("recorded_by")
        .first()
    )
    if scored is None:
        return StaleVersion(
            _(
                "The players' entries for hand %(hand)s were set aside meanwhile by a "
                "director's entry: nothing was recorded. Enter the hand in the sheet."
            )
            % {"hand": number},
            field="version",
        )
    if scored.recorded_by is not None:
        who = _("saved by %(user)s") % {"user": scored.recorded_by.get_username()}
    elif latest.state == Proposal.State.RECORDED:
        who = _("confirmed by seat %(seat)s") % {"seat": latest.confirmed_seat}
    else:
        who = _("recorded by a director")
    return StaleVersion(
        _(
            "This hand was recorded meanwhile: hand %(hand)s stands at version %(version)s, "
            "%(who)s. The players' entries for it are settled and nothing was changed; if "
            "the hand is wrong, correct it in the sheet."
        )
        % {"hand": number, "version": scored.version, "who": who},
        field="version",
    )
