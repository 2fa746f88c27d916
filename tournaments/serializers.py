"""API shapes for players, events, entries and rounds (API.md)."""

from __future__ import annotations

from django_countries.serializers import CountryFieldMixin
from rest_framework import serializers

from scoring.ranking import TIEBREAKS
from tournaments.models import Entry, Event, Player, Round
from tournaments.services.events import EVENT_FIELDS


class PlayerSerializer(CountryFieldMixin, serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "country", "rating"]


class EventSerializer(serializers.ModelSerializer):
    table_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000),
        min_length=1,
        max_length=6,
        required=False,
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), max_length=len(TIEBREAKS), required=False
    )
    standings_version = serializers.IntegerField(read_only=True)

    class Meta:
        model = Event
        fields = [*EVENT_FIELDS, "standings_version"]


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "player", "name", "status", "seed_number"]
        read_only_fields = ["status"]


class EntryStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices)


class RoundStartSerializer(serializers.Serializer):
    policy = serializers.ChoiceField(choices=Event.Seating.values, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**62 - 1, required=False)


class RoundStartedSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    dealer = serializers.BooleanField()


class TablePlanSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    locked = serializers.BooleanField()
    seats = SeatSerializer(many=True)


class QualitySerializer(serializers.Serializer):
    repeat_meetings = serializers.IntegerField(allow_null=True)
    repeat_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )
    lower_bound = serializers.IntegerField(allow_null=True)
    rank_spread = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    error = serializers.CharField(required=False)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    policy = serializers.CharField()
    seed = serializers.IntegerField()
    forced_close = serializers.BooleanField()
    tables = TablePlanSerializer(many=True)
    quality = QualitySerializer()


class CloseSerializer(serializers.Serializer):
    force = serializers.BooleanField(default=False)


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="a player id")
    second = serializers.IntegerField(help_text="a player id")


class MoveSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="a player id")
    table = serializers.IntegerField(min_value=1, max_value=9999)


def round_document(round_: Round) -> dict:
    """The round as API.md gives it; `round_` comes from selectors.round_with_seating."""
    quality = {
        "repeat_meetings": None,
        "repeat_pairs": [],
        "lower_bound": None,
        "rank_spread": None,
    }
    quality.update(round_.quality or {})
    # Seating works on entries; the API names players (API.md: pairs of player ids).
    player_of = {
        seat.entry_id: seat.entry.player_id
        for table in round_.tables.all()
        for seat in table.seats.all()
    }
    quality["repeat_pairs"] = [
        sorted(player_of.get(entry, entry) for entry in pair) for pair in quality["repeat_pairs"]
    ]
    return {
        "number": round_.number,
        "status": round_.status,
        "policy": round_.policy,
        "seed": round_.seed,
        "forced_close": round_.forced_close,
        "tables": [
            {
                "number": table.number,
                "locked": table.locked,
                "seats": [
                    {
                        "seat": seat.position,
                        "player": seat.entry.player_id,
                        "name": seat.entry.player.name,
                        "dealer": seat.first_dealer,
                    }
                    for seat in table.seats.all()
                ],
            }
            for table in round_.tables.all()
        ],
        "quality": quality,
    }
