"""API shapes for the venue screens (API.md, "The round clock"): a round's clock, read
at the moment of the request (`core.selectors.ClockReading`), and announcements."""

from __future__ import annotations

from rest_framework import serializers

from game.clock import ACTIONS, MAX_EXTENSION, MAX_MINUTES, STATES
from tournaments.models import ANNOUNCEMENT_MAX


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ACTIONS)
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-MAX_EXTENSION,
        max_value=MAX_MINUTES,
        help_text="start: the round's time (default: the event's round_minutes); extend: "
        "the minutes to add, or negative to take back.",
    )
    table = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=9999,
        help_text="extend only: the table given the minutes (omitted: every table).",
    )


class TableClockSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    extra_s = serializers.IntegerField(help_text="seconds this table plays beyond ends_at")
    state = serializers.ChoiceField(choices=STATES, source="reading.state")
    ends_at = serializers.DateTimeField(source="reading.ends_at", allow_null=True)
    remaining_s = serializers.IntegerField(source="reading.remaining_s")


class ClockSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    state = serializers.ChoiceField(choices=STATES, source="reading.state")
    ends_at = serializers.DateTimeField(
        source="reading.ends_at",
        allow_null=True,
        help_text="when the time runs out (past, once over); null while stopped or paused",
    )
    remaining_s = serializers.IntegerField(source="reading.remaining_s")
    minutes = serializers.IntegerField(help_text="the round's time the clock was started with")
    time_rule = serializers.CharField(help_text="the event's rule for what happens at time")
    tables = TableClockSerializer(many=True)


class AnnouncementInputSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=ANNOUNCEMENT_MAX)


class AnnouncementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    posted_at = serializers.DateTimeField()
    removed_at = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="showing on the screens (not removed)")
