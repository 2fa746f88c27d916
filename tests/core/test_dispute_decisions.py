"""A disputed hand, through the services: the player who disputed may give their own
version afterwards; the director records either version in one action, through the same
`record_hand` as the sheet; an action that comes too late says how the hand stands;
and the pages learn which entries were settled lately."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core import services
from core.errors import InvalidInput, ProposalChanged, StaleVersion, StateConflict
from core.hands.history import hand_history
from core.hands.selectors import hand_at, hands_of
from core.stored_texts.words import reason_words
from core.table_entry.decide import record_proposal
from core.table_entry.settled import LATELY, entries_now, settled_lately
from game.rules import HandEntry
from scoring.models import Hand, Proposal
from tests.fixtures import hand

pytestmark = pytest.mark.django_db

CLIENT = "203.0.113.8"


@pytest.fixture
def w(entry_world):
    return entry_world


def propose(w, codes, seat: int, entry: HandEntry | None = None, number: int = 1):
    return services.propose_hand(
        table=w.table,
        number=number,
        entry=entry or hand(2, 4),
        code=codes[(1, seat)],
        client=CLIENT,
    )


def dispute(w, codes, seat: int, entry: HandEntry | None = None, number: int = 1):
    return services.dispute_proposal(
        table=w.table, number=number, code=codes[(1, seat)], client=CLIENT, entry=entry
    )


def reasons(proposal: Proposal) -> list[str]:
    history = proposal.history.order_by("history_date")
    return [reason_words(h.history_change_reason) for h in history]


# --- the disputing player's own version ---------------------------------------------------


def test_the_player_who_disputed_gives_their_version_afterwards(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3)  # one tap, no version yet
    given = dispute(w, codes, seat=3, entry=hand(3, 4))
    assert given.state == "disputed" and given.alternative["went_out"] == 3
    assert reasons(given)[-1].startswith("version given by seat 3 (")
    changed = dispute(w, codes, seat=3, entry=hand(4, 4))  # and may change it
    assert changed.alternative["went_out"] == 4
    kept = len(reasons(changed))
    assert dispute(w, codes, seat=3).alternative["went_out"] == 4  # a bare tap keeps it
    assert dispute(w, codes, seat=3, entry=hand(4, 4)) and len(reasons(changed)) == kept
    assert not Hand.objects.exists()


def test_only_the_player_who_disputed_gives_a_version(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3)
    with pytest.raises(StateConflict) as refused:
        dispute(w, codes, seat=4, entry=hand(4, 4))
    assert "disputed (by seat 3)" in refused.value.errors["hand"][0]
    assert Proposal.objects.get().alternative is None


def test_a_version_the_rules_refuse_is_not_kept(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3)
    with pytest.raises(InvalidInput):
        dispute(w, codes, seat=3, entry=HandEntry(went_out=9, scores=()))
    assert Proposal.objects.get().alternative is None


# --- the director records one version in one action ---------------------------------------


def test_the_director_records_the_disputing_players_version(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3, entry=hand(3, 4))
    recorded = record_proposal(table=w.table, number=1, version=1, disputed=True, by=w.alice)
    assert recorded.changed and hand_at(w.table, 1).went_out == 3
    stored = Hand.objects.get(table=w.table, number=1)
    assert stored.recorded_by == w.alice and stored.version == 1
    assert Proposal.objects.get().state == "overruled"
    last = hand_history(w.table, 1)[-1]
    assert last.who == "alice"
    assert last.reason.startswith("the version of seat 3 (")
    assert "who disputed the entry of seat 1 (" in last.reason


def test_the_director_records_the_entry_as_entered(w, codes):
    propose(w, codes, seat=1, entry=hand(2, 4))
    dispute(w, codes, seat=3, entry=hand(3, 4))
    record_proposal(table=w.table, number=1, version=1, by=w.alice)
    assert hand_at(w.table, 1).went_out == 2
    assert hand_history(w.table, 1)[-1].reason.startswith("the version entered by seat 1 (")


def test_a_waiting_entry_can_be_recorded_as_it_stands_too(w, codes):
    propose(w, codes, seat=1)
    record_proposal(table=w.table, number=1, version=1, by=w.alice)
    assert hand_at(w.table, 1).went_out == 2
    propose(w, codes, seat=1, number=2)
    with pytest.raises(InvalidInput) as refused:  # it has no other version
        record_proposal(table=w.table, number=2, version=1, disputed=True, by=w.alice)
    assert "Nobody gave another version of hand 2" in refused.value.errors["version"][0]
    assert not Hand.objects.filter(number=2).exists()


def test_a_hand_recorded_meanwhile_is_not_recorded_again_and_says_so(w, codes):
    propose(w, codes, seat=1)
    dispute(w, codes, seat=3, entry=hand(3, 4))
    services.record_hand(table=w.table, number=1, entry=hand(4, 4), by=w.alice)  # the sheet
    with pytest.raises(StaleVersion) as refused:
        record_proposal(table=w.table, number=1, version=1, disputed=True, by=w.alice)
    message = refused.value.errors["version"][0]
    assert message.startswith("This hand was recorded meanwhile: hand 1 stands at version 1,")
    assert "saved by alice" in message and "nothing was changed" in message
    assert hand_at(w.table, 1).went_out == 4 and hand_at(w.table, 1).version == 1


def test_a_hand_the_players_confirmed_meanwhile_says_who(w, codes):
    propose(w, codes, seat=1)
    services.confirm_proposal(table=w.table, number=1, code=codes[(1, 2)], client=CLIENT)
    with pytest.raises(StaleVersion) as refused:
        record_proposal(table=w.table, number=1, version=1, by=w.alice)
    assert "stands at version 1, confirmed by seat 2." in refused.value.errors["version"][0]


def test_an_entry_made_again_since_is_not_recorded(w, codes):
    propose(w, codes, seat=1, entry=hand(2, 4))
    propose(w, codes, seat=2, entry=hand(4, 4))  # the table enters it again: version 2
    with pytest.raises(ProposalChanged) as refused:
        record_proposal(table=w.table, number=1, version=1, by=w.alice)
    assert "entered again (by seat 2)" in refused.value.errors["version"][0]
    assert not Hand.objects.exists()
    record_proposal(table=w.table, number=1, version=2, by=w.alice)
    assert hand_at(w.table, 1).went_out == 4


# --- what the pages say was settled lately -------------------------------------------------


def test_the_pages_learn_which_entries_were_settled_lately_and_how(w, codes):
    propose(w, codes, seat=1, number=1)
    services.confirm_proposal(table=w.table, number=1, code=codes[(1, 2)], client=CLIENT)
    propose(w, codes, seat=1, number=2)
    dispute(w, codes, seat=3, number=2, entry=hand(3, 4))
    propose(w, codes, seat=1, number=3)  # still waiting: not settled
    assert [s.number for s in settled_lately(w.table)] == [1]
    services.record_hand(table=w.table, number=2, entry=hand(4, 4), by=w.alice)
    confirmed, decided = settled_lately(w.table)
    assert confirmed.recorded and confirmed.confirmed.seat == 2 and not confirmed.disputed
    assert confirmed.saved_by == "" and confirmed.version == 1
    assert decided.number == 2 and decided.disputed and decided.saved_by == "alice"
    assert decided.confirmed is None
    # The phones' region works them out from the table's hands it read (and may have
    # kept for the other phones): the same, the director's name too.
    seats = list(w.table.seats.select_related("entry__player"))
    assert entries_now(w.table, seats, hands_of([w.table]))[1] == [confirmed, decided]
    later = timezone.now() + LATELY + timedelta(seconds=1)
    assert settled_lately(w.table, now=later) == []


def test_settled_lately_costs_two_queries(w, codes, django_assert_max_num_queries):
    for number in (1, 2, 3):
        propose(w, codes, seat=1, number=number)
        services.confirm_proposal(table=w.table, number=number, code=codes[(1, 2)], client=CLIENT)
    with django_assert_max_num_queries(2):
        assert len(settled_lately(w.table)) == 3
