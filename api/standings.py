"""REST API v1: an event's standings (API.md, "Standings"). Thin: parse, read the
selector, render."""

from __future__ import annotations

import re

from django.core.cache import cache
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.scoring_serializers import StandingsSerializer
from api.support import EventScoped
from core import selectors


def standings_data(event, number: int | None) -> dict:
    """The standings as the API renders them, kept per standings version (a rebuild
    bumps it, so a kept copy is never stale)."""
    key = f"api:standings:{event.pk}:{event.standings_version}:{event.status}:{number}"
    data = cache.get(key)
    if data is None:
        data = StandingsSerializer(selectors.standings_after(event, number)).data
        cache.set(key, data, timeout=3600)
    return data


class StandingsView(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("round", int, required=False, description="a closed round")],
        responses=StandingsSerializer,
    )
    def get(self, request, slug: str):
        raw = request.query_params.get("round")
        number = None
        if raw is not None:
            if not re.fullmatch(r"[0-9]{1,4}", raw):
                raise exceptions.ValidationError({"round": ["Give a round number."]})
            number = int(raw)
        try:
            data = standings_data(self.event, number)
        except Http404 as missing:
            raise exceptions.NotFound("No standings for this round.") from missing
        return Response(data)
