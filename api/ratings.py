"""REST API v1: ratings across events, and a player's page (API.md, "Ratings"). Thin:
read the selector, render."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.guards import MAX_LIMIT, MAX_OFFSET, whole_number
from api.scoring_serializers import PlayerRefSerializer
from core.ratings import selectors as read
from core.selectors import player_history
from game.ratings import MIN_SETS


class RatingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    rating = serializers.FloatField(help_text="mu - 3 sigma, what the ranking is ordered by")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    sets = serializers.IntegerField(help_text="sets rated")
    movement = serializers.FloatField(help_text="change in rating in the latest rated round")


class RatingsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    min_sets = serializers.IntegerField()
    explanation = serializers.CharField()
    count = serializers.IntegerField(help_text="how many players the list has in all")
    ratings = RatingRowSerializer(many=True)


def row(r: read.RatingRow) -> dict:
    return {
        "rank": r.rank,
        "player": {"id": r.player_id, "name": r.name},
        "rating": r.rating,
        "mu": r.mu,
        "sigma": r.sigma,
        "sets": r.sets,
        "movement": r.movement,
    }


class RatingList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "min_sets",
                int,
                required=False,
                description=(
                    "only players with at least this many rated sets (default 1: every "
                    f"rated player; the public ratings page starts at {MIN_SETS})"
                ),
            ),
            OpenApiParameter(
                "limit", int, required=False, description=f"at most this many (1 to {MAX_LIMIT})"
            ),
            OpenApiParameter("offset", int, required=False, description="from this rank on"),
        ],
        responses=RatingsSerializer,
    )
    def get(self, request):
        raw = request.query_params.get("min_sets", "1")
        if not raw.isdigit() or len(raw) > 4 or not raw.isascii():
            raise exceptions.ValidationError({"min_sets": [_("Give a whole number of sets.")]})
        min_sets = int(raw)
        limit = whole_number(request, "limit", least=1, most=MAX_LIMIT)
        offset = whole_number(request, "offset", most=MAX_OFFSET) or 0
        table = read.ratings_table(min_sets=min_sets)
        end = None if limit is None else offset + limit
        data = {
            "version": read.version(),
            "min_sets": min_sets,
            "explanation": read.EXPLANATION,
            "count": len(table),
            "ratings": [row(r) for r in table[offset:end]],
        }
        return Response(RatingsSerializer(data).data)


class PlayerEventSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="the event's slug")
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    sets = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    final = serializers.BooleanField()


class HistorySerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    rating = serializers.FloatField()
    event = serializers.CharField()
    round = serializers.IntegerField()


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    country = serializers.CharField()
    rating = serializers.FloatField(allow_null=True, help_text="mu - 3 sigma; null: not rated")
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    sets = serializers.IntegerField(help_text="sets rated")
    events = PlayerEventSerializer(many=True)
    rating_history = HistorySerializer(many=True)


class PlayerDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PlayerDetailSerializer)
    def get(self, request, player_id: int):
        history = player_history(request.user, player_id)
        return Response(PlayerDetailSerializer(read.player_summary(history)).data)
