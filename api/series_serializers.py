"""API shapes for series and house rulesets (API.md, "Series")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core import selectors
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
    ties_qualify = serializers.BooleanField(
        required=False,
        help_text="players level with the last qualifier after the countback's non-random "
        "steps all qualify (off: the series' draw decides)",
    )
    wildcard_carry = serializers.IntegerField(
        min_value=0,
        max_value=100_000,
        allow_null=True,
        required=False,
        help_text="what an entrant of the final who is not a qualifier carries into it; "
        "null: the lowest qualifier's carry",
    )
    standings_version = serializers.IntegerField(read_only=True)
    final_out_of_step = serializers.SerializerMethodField(
        help_text="the seeded final no longer matches the series standings: POST "
        ".../final/ again (same event) reseeds it (null in a list of series)"
    )
    final_changes = serializers.SerializerMethodField(
        help_text="what reseeding the final would change, in words"
    )
    final_forced_reason = serializers.CharField(
        read_only=True, help_text="why the final was seeded before every leg had finished"
    )
    reopened_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="when the series was reopened after its final began",
    )
    reopened_reason = serializers.CharField(read_only=True)
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
            "final_out_of_step",
            "final_changes",
            "final_forced_reason",
            "reopened_at",
            "reopened_reason",
            "draw_commitment",
            "draw_seed",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_draw_seed(self, series: Series) -> str | None:
        return series.draw_seed if series.draw_revealed else None

    def changes(self, series: Series) -> list[str]:
        found = self.__dict__.setdefault("_changes", {})
        if series.pk not in found:
            found[series.pk] = selectors.out_of_step(series)
        return found[series.pk]

    def listed(self) -> bool:
        """In a list of series: the final's step is read from each series' own document
        (a few queries each, not for every series of a list)."""
        return isinstance(self.parent, serializers.ListSerializer)

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_final_out_of_step(self, series: Series) -> bool | None:
        return None if self.listed() else bool(self.changes(series))

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_final_changes(self, series: Series) -> list[str] | None:
        return None if self.listed() else self.changes(series)


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
    points = serializers.FloatField(help_text="fractional where the place was shared")
    counted = serializers.BooleanField()
    shared = serializers.BooleanField(
        help_text="the place was shared with players level on all but the leg's draw"
    )
    provisional = serializers.BooleanField(
        help_text="the leg was reopened: counted as it stood until it is final again"
    )


class SeriesPrizeSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    item = serializers.CharField()
    shared_with = serializers.ListField(child=serializers.IntegerField())


class SeriesStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = SeriesPlayerSerializer()
    points = serializers.FloatField(help_text="fractional where a place was shared")
    events_played = serializers.IntegerField()
    best_place = serializers.IntegerField()
    results = SeriesResultSerializer(many=True)
    qualified = serializers.BooleanField()
    decided_by = serializers.CharField(
        help_text="what placed the player below the one above: points, countback, "
        "latest_leg or draw (empty for the first)"
    )
    tie_note = serializers.CharField(help_text="why, in words, when points did not decide")
    prize = SeriesPrizeSerializer(allow_null=True)


class SeriesStandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    standings = SeriesStandingSerializer(many=True)


class FinalSerializer(serializers.Serializer):
    event = serializers.SlugField(max_length=80)
    force = serializers.BooleanField(
        default=False, help_text="seed it although a leg is not finished (with a reason)"
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, default="", help_text="why forced"
    )
    seed_by = serializers.ChoiceField(
        choices=[
            ("series", "by series rank (the default)"),
            ("rating", "by rating across events; players not rated yet after the rated"),
        ],
        default="series",
        required=False,
    )


class ReopenSeriesSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="why, shown on the series' page")


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
