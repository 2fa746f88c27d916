"""API shapes for series and house rulesets (API.md, "Series")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.series.services import LINK_FIELDS, SERIES_FIELDS
from game.prizes import TIE_POLICIES
from tournaments.models import Event, HouseRuleset, Series


class PrizeSerializer(serializers.Serializer):
    place = serializers.IntegerField(min_value=1, max_value=500)
    amount = serializers.DecimalField(
        max_digits=12, decimal_places=2, min_value=0, required=False, coerce_to_string=True
    )
    item = serializers.CharField(max_length=200, required=False, allow_blank=True)


class PrizesAsJson:
    """A serializer with a `prizes` table hands it to the service as plain JSON (amounts
    as text), for the service to check and store."""

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        if "prizes" in values:
            values["prizes"] = [
                {k: (str(v) if k == "amount" else v) for k, v in dict(p).items()}
                for p in values["prizes"]
            ]
        return values


class FinalField(serializers.SlugField):
    """The series' final by its event's slug (null: none); checked by the service."""

    def to_representation(self, value) -> str:
        return value.slug


class SeriesSerializer(PrizesAsJson, serializers.ModelSerializer):
    points_scale = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=100_000),
        min_length=1,
        max_length=1000,
        required=False,
    )
    best_of = serializers.IntegerField(min_value=1, max_value=100, allow_null=True, required=False)
    qualifiers = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    final = FinalField(
        max_length=80,
        allow_null=True,
        required=False,
        help_text="the grand final's event slug; null: none",
    )
    legs = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    prizes = PrizeSerializer(many=True, required=False)
    prize_ties = serializers.ChoiceField(choices=TIE_POLICIES, required=False)
    standings_version = serializers.IntegerField(read_only=True)
    draw_commitment = serializers.CharField(
        read_only=True, help_text="SHA-256 (hex) of the series' secret draw seed"
    )
    draw_seed = serializers.SerializerMethodField(
        help_text="the draw seed, revealed once the final is seeded; null before"
    )

    class Meta:
        model = Series
        # The settings the series service takes, the final, and what the series' own
        # rows give: its draw is committed from creation and revealed with the final.
        fields = [
            *SERIES_FIELDS,
            *LINK_FIELDS,
            "legs",
            "standings_version",
            "draw_commitment",
            "draw_seed",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_draw_seed(self, series: Series) -> str | None:
        return series.draw_seed if series.draw_revealed else None


class LegSerializer(serializers.ModelSerializer):
    event = serializers.SlugField(source="slug")
    scored = serializers.BooleanField(
        read_only=True, help_text="the leg is final: its places score series points"
    )

    class Meta:
        model = Event
        fields = ["event", "name", "starts_on", "venue", "status", "scored"]


class AddLegSerializer(serializers.Serializer):
    event = serializers.SlugField(max_length=80)


class SeriesPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeriesResultSerializer(serializers.Serializer):
    event = serializers.SlugField()
    name = serializers.CharField(required=False)
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField()


class SeriesPrizeSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    item = serializers.CharField()
    shared_with = serializers.ListField(child=serializers.IntegerField())


class SeriesStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = SeriesPlayerSerializer()
    points = serializers.IntegerField()
    events_played = serializers.IntegerField()
    best_place = serializers.IntegerField()
    results = SeriesResultSerializer(many=True)
    qualified = serializers.BooleanField()
    prize = SeriesPrizeSerializer(allow_null=True)


class SeriesStandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    standings = SeriesStandingSerializer(many=True)


class FinalSerializer(serializers.Serializer):
    event = serializers.SlugField(max_length=80)
    seed_by = serializers.ChoiceField(
        choices=[
            ("series", "by series rank (the default)"),
            ("rating", "by rating across events; players not rated yet after the rated"),
        ],
        default="series",
        required=False,
    )


class FinalCreatedSerializer(serializers.Serializer):
    event = serializers.SlugField()
    entries = serializers.ListField(child=serializers.IntegerField())
    seed_by = serializers.CharField()


class HandShapeSerializer(serializers.Serializer):
    cards_dealt = serializers.IntegerField()
    threes = serializers.IntegerField()
    fours = serializers.IntegerField()


class HouseRulesetSerializer(serializers.ModelSerializer):
    hands = HandShapeSerializer(many=True, required=False)
    jokers_per_pack = serializers.IntegerField(required=False)
    overcall_penalty = serializers.IntegerField(required=False)
    false_laydown_penalty = serializers.IntegerField(required=False)

    class Meta:
        model = HouseRuleset
        fields = [
            "slug",
            "name",
            "hands",
            "jokers_per_pack",
            "overcall_penalty",
            "false_laydown_penalty",
            "down_and_out_doubles",
        ]

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        if "hands" in values:
            values["hands"] = [dict(h) for h in values["hands"]]
        return values
