"""REST API v1 for the venue screens: a round's clock (API.md, "The round clock") and
the event's announcements. Thin: parse, call one service or selector, render."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.guards import MAX_LIMIT, Pagination
from api.screen_serializers import (
    AnnouncementInputSerializer,
    AnnouncementSerializer,
    ClockActionSerializer,
    ClockSerializer,
)
from api.support import EventScoped
from core import selectors, services


def clock_data(event, number: int) -> dict:
    clock = selectors.round_clock(event, number)
    return ClockSerializer(clock.read(timezone.now())).data


class RoundClockView(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ClockSerializer)
    def get(self, request, slug: str, number: int):
        return Response(clock_data(self.event, number))

    @extend_schema(
        request=ClockActionSerializer,
        responses=ClockSerializer,
        description="A director starts, pauses, resumes or extends the round's clock; an "
        "extension goes to every table, or to `table` only.",
    )
    def post(self, request, slug: str, number: int):
        self.require_director()
        round_ = selectors.round_of(self.event, number)
        body = ClockActionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.clock_action(round=round_, by=request.user, **body.validated_data)
        return Response(clock_data(self.event, number))


class AnnouncementList(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "limit", int, required=False, description=f"at most this many (up to {MAX_LIMIT})"
            ),
            OpenApiParameter("offset", int, required=False, description="skip this many first"),
        ],
        responses=AnnouncementSerializer(many=True),
    )
    def get(self, request, slug: str):
        """The event's announcements, newest first, one page at a time (`?limit=`, at
        most the API's page size, and `?offset=`); removed ones are history."""
        pages = Pagination()
        limit, offset = pages.get_limit(request), pages.get_offset(request)
        found = selectors.announcements(self.event)[offset : offset + limit]
        return Response(AnnouncementSerializer(found, many=True).data)

    @extend_schema(request=AnnouncementInputSerializer, responses={201: AnnouncementSerializer})
    def post(self, request, slug: str):
        self.require_director()
        body = AnnouncementInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        posted = services.post_announcement(
            event=self.event, text=body.validated_data["text"], by=request.user
        )
        return Response(AnnouncementSerializer(posted).data, status=status.HTTP_201_CREATED)


class AnnouncementDetail(EventScoped, APIView):
    permission_classes = [AllowAny]

    def announcement(self, announcement_id: int):
        return selectors.announcement_of(self.event, announcement_id)

    @extend_schema(responses=AnnouncementSerializer)
    def get(self, request, slug: str, announcement_id: int):
        return Response(AnnouncementSerializer(self.announcement(announcement_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request, slug: str, announcement_id: int):
        """Take the announcement off the screens; it stays in the history."""
        self.require_director()
        services.remove_announcement(
            announcement=self.announcement(announcement_id), by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
