"""API shapes for players, events, entries and rounds (API.md)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from django_countries.serializers import CountryFieldMixin
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.series_serializers import PrizesAsJson, PrizeSerializer
from core.events.services import EXTRA_FIELDS
from core.selectors import copies_shown, quality_by_player, visible_players
from core.series.selectors import series_slugs_shown
from core.services import EVENT_FIELDS
from game.prizes import TIE_POLICIES
from game.ranking import TIEBREAKS
from tournaments.models import Entry, Event, HouseRuleset, Player, Round


class PlayerSerializer(CountryFieldMixin, serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "country", "rating"]


class TimeRuleField(serializers.CharField):
    """The event's rule at time: read as the screens show it (the default worded for the
    reader), written as the director's own words."""

    def get_attribute(self, instance: Event) -> str:
        return instance.time_rule_text


class EventSerializer(PrizesAsJson, serializers.ModelSerializer):
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
    screen_version = serializers.IntegerField(read_only=True)
    time_rule = TimeRuleField(
        max_length=300,
        allow_blank=True,
        allow_null=True,
        required=False,
        help_text="what happens when a round's time runs out, shown on the screens at time: "
        'the default rule, in the reader\'s language, unless the director wrote one; "" shows '
        "none; null (or the default's words) sets the default again",
    )
    custom_ruleset = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=HouseRuleset.objects.all(),
        allow_null=True,
        required=False,
        help_text='house rules (/api/v1/rulesets/): naming one makes the ruleset "custom"',
    )
    frozen_ruleset = serializers.JSONField(
        read_only=True, help_text="the house rules as of the first hand recorded"
    )
    prizes = PrizeSerializer(many=True, required=False)
    prize_ties = serializers.ChoiceField(choices=TIE_POLICIES, required=False)
    series = serializers.SerializerMethodField(
        help_text="the slug of the series the event is a leg of; null: none, or a private "
        "series the reader may not see"
    )
    draw_commitment = serializers.CharField(
        read_only=True, help_text="SHA-256 (hex) of the event's secret draw seed"
    )
    draw_seed = serializers.SerializerMethodField(
        help_text="the draw seed, revealed once the event is finished; null before"
    )
    results_changed_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="when a round of the finished event was reopened, changing its results",
    )
    results_changed_reason = serializers.CharField(
        source="results_changed_text",
        read_only=True,
        help_text="the round reopened and the director's reason",
    )
    uid = serializers.UUIDField(
        read_only=True,
        help_text="the event's identity, the same on every site its archive goes to",
    )
    counted = serializers.BooleanField(
        read_only=True,
        help_text="its played sets count in the ratings and series; false for a copy of an "
        "event held here (POST .../count/ counts it instead)",
    )
    copy_of = serializers.SerializerMethodField(
        help_text="a copy: the slug of the event it copies (the one of its identity that "
        "counts); null for an event that counts, or when the reader may not see that one"
    )

    class Meta:
        model = Event
        fields = [
            *EVENT_FIELDS,
            "standings_version",
            "screen_version",
            *EXTRA_FIELDS,
            "frozen_ruleset",
            "series",
            "draw_commitment",
            "draw_seed",
            "results_changed_at",
            "results_changed_reason",
            "uid",
            "counted",
            "copy_of",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_draw_seed(self, event: Event) -> str | None:
        return event.draw_seed if event.draw_revealed else None

    @extend_schema_field(serializers.SlugField(allow_null=True))
    def get_copy_of(self, event: Event) -> str | None:
        """Looked up once for every copy of the response, kept on the root serializer:
        one query for a whole list (none when no event is a copy)."""
        if event.counted:
            return None
        root = self.root
        shown: dict[int, str | None] = root.__dict__.setdefault("_copies_shown", {})
        if event.pk not in shown:
            listed = root.instance
            events = [listed] if isinstance(listed, Event) else list(listed or ())
            events = [e for e in events if isinstance(e, Event) and e.pk not in shown]
            request = self.context.get("request")
            reader = request.user if request is not None else AnonymousUser()
            shown.update(copies_shown(reader, [*events, event]))
        return shown.get(event.pk)

    @extend_schema_field(serializers.SlugField(allow_null=True))
    def get_series(self, event: Event) -> str | None:
        """The series' slug if the reader may see it (a private series' slug tells of
        it). Looked up once for every event of the response, kept on the root
        serializer: one query for a whole list. No request: an anonymous reader."""
        if event.series_id is None:
            return None
        root = self.root
        shown: dict[int, str | None] = root.__dict__.setdefault("_shown_series", {})
        if event.series_id not in shown:
            listed = root.instance
            events = [listed] if isinstance(listed, Event) else list(listed or ())
            ids = {e.series_id for e in events if isinstance(e, Event) and e.series_id}
            ids = (ids | {event.series_id}) - shown.keys()
            request = self.context.get("request")
            reader = request.user if request is not None else AnonymousUser()
            shown.update(series_slugs_shown(reader, ids))
        return shown[event.series_id]


class EntrySerializer(serializers.ModelSerializer):
    """An entry from `selectors.entries_of` (with its leave point in the round in play)."""

    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    name = serializers.CharField(source="player.name", read_only=True)
    left_after_hand = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="a player who withdrew during the round in play: the last hand they played",
    )
    rating = serializers.FloatField(
        read_only=True,
        allow_null=True,
        help_text="the player's rating across events (mu - 3 sigma); null: not rated yet",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "name",
            "status",
            "seed_number",
            "left_after_hand",
            "rating",
            "carried_points",
        ]
        read_only_fields = ["status", "carried_points"]

    def get_fields(self):
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None:  # a player the writer cannot see does not exist for them
            fields["player"].queryset = visible_players(request.user)
        return fields


class EntryChangeSerializer(serializers.Serializer):
    """PATCH an entry: withdraw it (with the hand its player left after, during a round
    in play), register it again, or correct a withdrawn player's leave point."""

    status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)
    left_after_hand = serializers.IntegerField(
        min_value=0,
        max_value=99,
        required=False,
        help_text="after which hand of their set the player left (0: before the first); "
        "default: the last hand entered at their table",
    )

    def validate(self, data: dict) -> dict:
        if not data:
            raise serializers.ValidationError(
                {"status": [_("Give a status, a left_after_hand, or both.")]}
            )
        if data.get("status") == Entry.Status.ACTIVE and "left_after_hand" in data:
            raise serializers.ValidationError(
                {"left_after_hand": [_("Only a player who withdraws leaves after a hand.")]}
            )
        return data


class RoundStartSerializer(serializers.Serializer):
    policy = serializers.ChoiceField(choices=Event.Seating.values, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**62 - 1, required=False)


class RoundStartedSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="position")
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    dealer = serializers.BooleanField(source="first_dealer")


class TablePlanSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    locked = serializers.BooleanField()
    seats = SeatSerializer(many=True, source="seats.all")


class QualitySerializer(serializers.Serializer):
    repeat_meetings = serializers.IntegerField(allow_null=True)
    repeat_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="pairs of player ids",
    )
    lower_bound = serializers.IntegerField(allow_null=True)
    rank_spread = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    error = serializers.CharField(required=False)


class RoundSerializer(serializers.Serializer):
    """A round from `selectors.round_with_seating` (tables and seats loaded)."""

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    policy = serializers.CharField()
    seed = serializers.IntegerField()
    forced_close = serializers.BooleanField()
    tables = TablePlanSerializer(many=True, source="tables.all")
    quality = serializers.SerializerMethodField()

    @extend_schema_field(QualitySerializer)
    def get_quality(self, round_: Round) -> dict:
        return QualitySerializer(quality_by_player(round_)).data


class CloseSerializer(serializers.Serializer):
    force = serializers.BooleanField(
        default=False,
        help_text="close with hands missing: the hands unplayed are scored from the field "
        "(adjusted) for the players still at those tables; a player who withdrew keeps an "
        "incomplete set",
    )


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=280,
        help_text="why the round is reopened: required once the event is finished (its "
        "page then says its results changed, when and why)",
    )


class AtFaultSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        max_length=6,
        help_text="the seats at fault for the hands the table did not play (slow play); "
        "the others at the table are not; [] clears every mark",
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="why (required with any seat), kept in the seats' history",
    )


# Ids are 64-bit in every database the site runs on: nothing larger can name a player.
ID_BOUNDS = {"min_value": 1, "max_value": 2**63 - 1}


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="a player id", **ID_BOUNDS)
    second = serializers.IntegerField(help_text="a player id", **ID_BOUNDS)


class MoveSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="a player id", **ID_BOUNDS)
    table = serializers.IntegerField(min_value=1, max_value=9999)


class SeatCodeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(source="printed", help_text='e.g. "ACDE-FGHJ"')


class TableCodesSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seats = SeatCodeSerializer(many=True)


class RoundCodesSerializer(serializers.Serializer):
    tables = TableCodesSerializer(many=True)
