"""REST API v1 for players, events and entries (API.md). Thin: parse, call one service
or selector, render."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, generics
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers import (
    EntryChangeSerializer,
    EntrySerializer,
    EventSerializer,
    PlayerSerializer,
)
from api.support import CanAddPlayersOrReadOnly, CanCreateEventsOrReadOnly, EventScoped
from core import selectors, services
from core.events.services import check_draw_untouched
from tournaments.models import Entry, Event


@extend_schema(parameters=[OpenApiParameter("search", str, description="part of a name or club")])
class PlayerList(generics.ListCreateAPIView):
    serializer_class = PlayerSerializer
    permission_classes = [CanAddPlayersOrReadOnly]

    def get_queryset(self):
        return selectors.players(self.request.user, self.request.query_params.get("search"))

    def perform_create(self, serializer):
        serializer.instance = services.create_player(
            **serializer.validated_data, by=self.request.user
        )


@extend_schema(
    parameters=[
        OpenApiParameter(
            "status", str, enum=["draft", "registration", "running", "finished"], required=False
        )
    ]
)
class EventList(generics.ListCreateAPIView):
    serializer_class = EventSerializer
    permission_classes = [CanCreateEventsOrReadOnly]
    lookup_field = "slug"

    def get_queryset(self):
        events = selectors.visible_events(self.request.user).order_by("-starts_on", "name", "id")
        wanted = self.request.query_params.get("status")
        return events.filter(status=wanted) if wanted in Event.Status.values else events

    def create(self, request, *args, **kwargs):
        check_draw_untouched(request.data)  # the site's to make, never silently dropped
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        serializer.instance = services.create_event(
            data=serializer.validated_data, by=self.request.user
        )


class EventDetail(EventScoped, generics.RetrieveUpdateAPIView):
    serializer_class = EventSerializer
    permission_classes = [AllowAny]
    http_method_names = ["get", "patch", "head", "options"]

    def get_object(self):
        return self.event

    def update(self, request, *args, **kwargs):
        check_draw_untouched(request.data)  # the site's to make, never silently dropped
        return super().update(request, *args, **kwargs)

    def perform_update(self, serializer):
        serializer.instance = services.update_event(
            event=self.event, data=serializer.validated_data, by=self.request.user
        )


@extend_schema(
    parameters=[OpenApiParameter("status", str, enum=["active", "withdrawn"], required=False)]
)
class EntryList(EventScoped, generics.ListCreateAPIView):
    serializer_class = EntrySerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        wanted = self.request.query_params.get("status")
        return selectors.entries_of(self.event, wanted if wanted in Entry.Status.values else None)

    def perform_create(self, serializer):
        data = serializer.validated_data
        entry = services.register_entry(
            event=self.event,
            player=data["player"],
            seed_number=data.get("seed_number"),
            by=self.request.user,
        )
        serializer.instance = selectors.entries_of(self.event).get(pk=entry.pk)


class EntryDetail(EventScoped, APIView):
    permission_classes = [AllowAny]

    def entry(self, entry_id: int) -> Entry:
        entry = selectors.entries_of(self.event).filter(pk=entry_id).first()
        if entry is None:
            raise exceptions.NotFound(_("No such entry in this event."))
        return entry

    @extend_schema(responses=EntrySerializer)
    def get(self, request, slug: str, entry_id: int):
        return Response(EntrySerializer(self.entry(entry_id)).data)

    @extend_schema(
        request=EntryChangeSerializer,
        responses=EntrySerializer,
        description=(
            '`{"status": "withdrawn", "left_after_hand": 4}` withdraws a player who left '
            "their table after hand 4 of the round in play (default: the last hand entered "
            'there); `{"left_after_hand": 5}` corrects a withdrawn player\'s leave point; '
            '`{"status": "active"}` registers them again. A leave point that recorded hands '
            "contradict is refused (409) with the hands to delete first."
        ),
    )
    def patch(self, request, slug: str, entry_id: int):
        entry = self.entry(entry_id)
        body = EntryChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        status_wanted = body.validated_data.get("status")
        left_after_hand = body.validated_data.get("left_after_hand")
        if status_wanted == Entry.Status.WITHDRAWN:
            services.withdraw_entry(entry=entry, left_after_hand=left_after_hand, by=request.user)
        elif status_wanted == Entry.Status.ACTIVE:
            services.register_entry(event=self.event, player=entry.player, by=request.user)
        else:
            services.set_leave_point(entry=entry, left_after_hand=left_after_hand, by=request.user)
        return Response(EntrySerializer(self.entry(entry_id)).data)


class EventCount(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=None,
        responses=EventSerializer,
        description="Count a copy of an event (imported beside the event it copies) in the "
        "ratings and series instead of that event, which is left out in its turn and gives "
        "it its place as a leg or final of a series: one played set never counts twice. "
        "The user directs both events; 409 for an event that counts already.",
    )
    def post(self, request, slug: str):
        self.require_director()
        event = services.count_copy(event=self.event, by=request.user)
        return Response(EventSerializer(event, context={"request": request}).data)


class EventFinish(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=None,
        responses=EventSerializer,
        description="The director declares the event over: every round must be closed; "
        "its standings after the last round become final. Reopening a round later puts "
        "the event back to running.",
    )
    def post(self, request, slug: str):
        self.require_director()
        event = services.finish_event(event=self.event, by=request.user)
        return Response(EventSerializer(event).data)
