"""API shapes for hands, tables and standings (API.md). The output serializers render
what the selectors return (`HandView`, `TableSheet`, `Standings`). The hand body is
parsed by the rules engine itself, which reports every problem by field; the input
serializers only describe it for the schema."""

from __future__ import annotations

from rest_framework import serializers

from core.hands.services import CORRECTION_REASON_MAX
from core.rounds.selectors import TABLE_STATES
from game.adjusted import AT_FAULT, RULES
from game.ranking import WHY_INCOMPLETE
from game.rules import PENALTY_KINDS
from scoring.models import Proposal, Standing


class ScoreInputSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=6)
    points = serializers.IntegerField(min_value=0, required=False)
    cards = serializers.CharField(required=False, help_text='e.g. "JK AS 10H 7D"')


class PenaltyInputSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=6)
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    extra_calls = serializers.IntegerField(min_value=1, required=False)
    points = serializers.IntegerField(min_value=50, max_value=500, required=False)


class HandInputSerializer(serializers.Serializer):
    redeal = serializers.BooleanField(required=False, default=False)
    went_out = serializers.IntegerField(min_value=1, max_value=6, required=False)
    down_and_out = serializers.BooleanField(required=False, default=False)
    scores = ScoreInputSerializer(many=True, required=False)
    penalties = PenaltyInputSerializer(many=True, required=False)


class DirectorHandInputSerializer(HandInputSerializer):
    """A hand as a director records or corrects it: a player's entry, and a reason."""

    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=CORRECTION_REASON_MAX,
        help_text='optional: why the hand is corrected (e.g. "seat 3\'s cards were misread"); '
        f"kept in the hand's history and its archive, at most {CORRECTION_REASON_MAX} "
        "characters",
    )


class ResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    card_points = serializers.IntegerField()
    penalty_points = serializers.IntegerField()
    score = serializers.IntegerField()
    cards = serializers.CharField(allow_null=True)
    sat_out = serializers.BooleanField()


class PenaltySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    points = serializers.IntegerField()
    extra_calls = serializers.IntegerField()


class HandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    contract = serializers.CharField()
    cards_dealt = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["scored", "redeal"])
    went_out = serializers.IntegerField(allow_null=True)
    down_and_out = serializers.BooleanField()
    version = serializers.IntegerField()
    deals = serializers.IntegerField(help_text="how many times the hand was dealt")
    results = ResultSerializer(many=True)
    penalties = PenaltySerializer(many=True)


class ProposalSerializer(serializers.Serializer):
    """A player's entry for a hand (`selectors.ProposalView`)."""

    number = serializers.IntegerField()
    version = serializers.IntegerField(
        help_text="which entry of the hand at the table this is: it grows each time the "
        "table enters the hand again; a confirmation names it"
    )
    state = serializers.ChoiceField(choices=Proposal.State.choices)
    entered_by = serializers.IntegerField(help_text="the seat of the player who entered it")
    confirmed_by = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats that confirmed it"
    )
    disputed_by = serializers.IntegerField(allow_null=True, help_text="the seat that disputed it")
    hand = HandSerializer(
        allow_null=True,
        help_text="what it records (once recorded, the hand as recorded); its version is "
        "the hand's version it was entered against. Null when the rules no longer accept it.",
    )
    alternative = HandSerializer(
        allow_null=True, help_text="the disputing player's version, when they gave one"
    )
    problems = serializers.ListField(
        child=serializers.CharField(), help_text="why the rules no longer accept it"
    )


class SheetHandSerializer(HandSerializer):
    totals = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="each seat's running total after this hand",
    )


class SheetSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    dealer = serializers.BooleanField()
    left_after_hand = serializers.IntegerField(allow_null=True)


class TotalSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="seat.seat")
    player = serializers.IntegerField(source="seat.player")
    total = serializers.IntegerField()


class AdjustedSerializer(serializers.Serializer):
    """A hand a table could not play, scored from the field once its round closed."""

    hand = serializers.IntegerField()
    score = serializers.IntegerField()
    at_fault = serializers.BooleanField(
        help_text="the director marked the player at fault: the field's 75th percentile"
    )
    rule = serializers.ChoiceField(choices=(*RULES, AT_FAULT))
    text = serializers.CharField()


class AdjustedScoreSerializer(AdjustedSerializer):
    seat = serializers.IntegerField()
    text = serializers.CharField(source="words")


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    locked = serializers.BooleanField()
    state = serializers.ChoiceField(
        choices=TABLE_STATES,
        help_text="playing; complete (every hand scored); closed (fewer than three players "
        "were left: no hand after closed_after_hand); forced (the round was closed with "
        "hands missing here)",
    )
    closed_after_hand = serializers.IntegerField(source="closed_after", allow_null=True)
    why = serializers.CharField(
        help_text="why a closed or forced table stopped short, and how its hands not played "
        "are scored"
    )
    hands_needed = serializers.IntegerField()
    hands_scored = serializers.IntegerField()
    adjusted = AdjustedScoreSerializer(
        many=True,
        help_text="once the round is closed: the hands this table could not play, scored "
        "for each player still at it from the field (empty while the round is in play)",
    )
    seats = SheetSeatSerializer(many=True)
    hands = SheetHandSerializer(many=True)
    totals = TotalSerializer(many=True, source="seat_totals")


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class IncompleteSetSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    played = serializers.IntegerField(help_text="hands of the set the player played")
    hands = serializers.IntegerField(help_text="hands in a set")
    why = serializers.ChoiceField(choices=WHY_INCOMPLETE)
    text = serializers.CharField()


class AdjustedHandSerializer(AdjustedSerializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    points = serializers.IntegerField()
    table_points = serializers.FloatField()
    sets_played = serializers.IntegerField()
    sets_incomplete = serializers.IntegerField(
        help_text="of the sets played, those over without all their hands: they rank "
        "after the complete sets of their round"
    )
    incomplete = IncompleteSetSerializer(many=True)
    adjusted_hands = serializers.IntegerField(
        help_text="hands scored by adjustment (their table could not play them), in points"
    )
    at_fault_hands = serializers.IntegerField(help_text="of those, hands adjusted at fault")
    adjusted = AdjustedHandSerializer(many=True)
    hands_won = serializers.IntegerField()
    penalty_points = serializers.IntegerField()
    best_set = serializers.IntegerField(allow_null=True)
    movement = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Standing.Status.choices)
    replaced_by = PlayerRefSerializer(
        allow_null=True,
        help_text="for a withdrawn no-show a substitute replaced, the substitute; "
        "null otherwise (with sets_played 0: they did not play)",
    )


class StandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    round_closed = serializers.BooleanField()
    final = serializers.BooleanField()
    # How many standings there are in all (`standings` holds one page of them when the
    # request gives ?limit= or ?offset=).
    count = serializers.IntegerField()
    standings = StandingSerializer(many=True, source="rows")
