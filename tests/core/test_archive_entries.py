"""An event whose players entered their own hands moves between installations with its
players' codes and every entry, confirmation and dispute, history included."""

from __future__ import annotations

import pytest

from core import archive, selectors, services
from core.archive import export as archive_export
from core.archive import importer as archive_import
from scoring.models import Proposal
from tests.core.test_archive import forget
from tests.fixtures import codes_of, hand, make_world
from tournaments.models import Event, PlayerCode

pytestmark = pytest.mark.django_db


def entries_of(event: Event) -> dict:
    """The players' entries and codes as the site shows them, by table and hand."""
    round_ = event.rounds.get(number=1)
    shown = {}
    for table in round_.tables.order_by("number"):
        for number in (1, 2, 3):
            shown[(table.number, number)] = [
                (p.state, p.entered, p.confirmed, p.disputed, p.entry, p.alternative_entry)
                for p in selectors.proposal_history(table, number)
            ]
    history = sorted(
        (h.history_type, h.history_change_reason, h.state, h.number)
        for h in Proposal.history.filter(table__round__event=event)
    )
    codes = {
        (t.number, s.seat, s.name): s.code for t in selectors.round_codes(event, 1) for s in t.seats
    }
    return {"entries": shown, "history": history, "codes": codes}


def test_codes_and_entries_survive_the_move():
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    codes = codes_of(w.round)

    def act(action, seat, number, **extra):
        action(table=w.table, number=number, code=codes[(1, seat)], client="x", **extra)

    act(services.propose_hand, 1, 1, entry=hand(2, 4))
    act(services.confirm_proposal, 2, 1)
    act(services.propose_hand, 1, 2, entry=hand(3, 4))
    act(services.propose_hand, 2, 2, entry=hand(4, 4))
    act(services.dispute_proposal, 3, 2, entry=hand(1, 4))
    act(services.propose_hand, 4, 3, entry=hand(1, 4))
    before = entries_of(w.event)
    assert len(before["history"]) == 7 and len(before["codes"]) == 8

    document = archive_export.export_event(w.event)
    assert document["version"] == archive.VERSION >= 2
    assert document["payload"]["event"]["table_entry"] == "players"
    forget(w.event)
    assert not PlayerCode.objects.exists() and not Proposal.history.exists()

    imported = archive_import.import_event(raw=archive.dumps(document)).event
    assert imported.table_entry == "players"
    assert entries_of(imported) == before
    # The codes still open their tables: the slips printed before the move work after it.
    table = imported.rounds.get(number=1).tables.get(number=1)
    seat = services.identify_player(table=table, code=codes[(1, 4)], client="x")
    assert seat.position == 4
