"""A hand written by other means than `record_hand` (an imported archive, a generated
demo event), read back as what a director would have typed and checked exactly as
`record_hand` would have checked it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import HandRejected, InvalidInput
from core.hands.services import new_state, stored_state
from game import rules
from scoring.models import Hand
from tournaments.models import Seat


def entry_of(hand: Hand) -> rules.HandEntry:
    """What a director would have typed for a stored hand (scores and penalties with
    their seats loaded): every seat's points or cards, and each penalty as charged."""
    if hand.outcome == Hand.Outcome.REDEAL:
        return rules.HandEntry(redeal=True)
    return rules.HandEntry(
        went_out=hand.went_out.position if hand.went_out else None,
        down_and_out=hand.down_and_out,
        scores=tuple(
            rules.SeatEntry(seat=s.seat.position, cards=s.cards)
            if s.cards
            else rules.SeatEntry(seat=s.seat.position, points=s.card_points)
            for s in hand.scores.all()
        ),
        penalties=tuple(
            rules.PenaltyEntry(
                seat=p.seat.position,
                kind=p.kind,
                extra_calls=p.extra_calls or None,
                points=p.points,
            )
            for p in hand.penalties.all()
        ),
    )


def check_stored_hand(hand: Hand, seats: dict[int, Seat]) -> None:
    """Check a hand written by other means than `record_hand` (an imported archive)
    exactly as `record_hand` would have: the rules engine scores what it says, and its
    stored rows must be what that gives. `seats` are the seats playing it, by position;
    the hand's event, scores, penalties and seats are loaded."""
    event = hand.table.round.event
    try:
        scored = rules.score_hand(
            ruleset=event.rules,
            deck=event.deck,
            number=hand.number,
            seats=sorted(seats),
            entry=entry_of(hand),
            table_rules=event.table_rules,
        )
    except rules.HandInvalid as invalid:
        raise HandRejected(invalid) from invalid
    if (hand.contract, hand.cards_dealt) != (scored.contract, scored.cards_dealt):
        raise InvalidInput(
            _(
                "hand %(hand)s is %(contract)s with %(cards)s cards, not %(stored)s with "
                "%(stored_cards)s"
            )
            % {
                "hand": hand.number,
                "contract": scored.contract,
                "cards": scored.cards_dealt,
                "stored": hand.contract,
                "stored_cards": hand.cards_dealt,
            },
            field="hands",
        )
    if stored_state(hand) != new_state(scored, seats):
        raise InvalidInput(
            _("its scores are not what the rules give for the points and penalties it holds"),
            field="scores",
        )
