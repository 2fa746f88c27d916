"""REST API v1 for players, events, entries and rounds (API.md). Thin: parse, call one
service or selector, render."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from kalooki_site.api_support import EventScoped
from tournaments import selectors, services
from tournaments.models import Entry, Event
from tournaments.serializers import (
    CloseSerializer,
    EntrySerializer,
    EntryStatusSerializer,
    EventSerializer,
    MoveSerializer,
    PlayerSerializer,
    RoundSerializer,
    RoundStartedSerializer,
    RoundStartSerializer,
    SwapSerializer,
    round_document,
)


def require_login(request) -> None:
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


@extend_schema(parameters=[OpenApiParameter("search", str, description="part of a name or club")])
class PlayerList(generics.ListCreateAPIView):
    serializer_class = PlayerSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.players(self.request.query_params.get("search"))

    def perform_create(self, serializer):
        require_login(self.request)
        if not selectors.can_add_players(self.request.user):
            raise exceptions.PermissionDenied("Only directors may add players.")
        serializer.save()


@extend_schema(
    parameters=[
        OpenApiParameter(
            "status", str, enum=["draft", "registration", "running", "finished"], required=False
        )
    ]
)
class EventList(generics.ListCreateAPIView):
    serializer_class = EventSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"

    def get_queryset(self):
        events = selectors.visible_events(self.request.user).order_by("-starts_on", "name", "id")
        wanted = self.request.query_params.get("status")
        return events.filter(status=wanted) if wanted in Event.Status.values else events

    def perform_create(self, serializer):
        require_login(self.request)
        if not selectors.can_create_events(self.request.user):
            raise exceptions.PermissionDenied("You may not create events.")
        serializer.instance = services.create_event(
            data=serializer.validated_data, by=self.request.user
        )


class EventDetail(EventScoped, generics.RetrieveUpdateAPIView):
    serializer_class = EventSerializer
    permission_classes = [AllowAny]
    http_method_names = ["get", "patch", "head", "options"]

    def get_object(self):
        return self.event

    def perform_update(self, serializer):
        self.require_director()
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
        self.require_director()
        data = serializer.validated_data
        serializer.instance = services.register_entry(
            event=self.event,
            player=data["player"],
            seed_number=data.get("seed_number"),
            by=self.request.user,
        )


class EntryDetail(EventScoped, APIView):
    permission_classes = [AllowAny]

    def entry(self, entry_id: int) -> Entry:
        entry = selectors.entries_of(self.event).filter(pk=entry_id).first()
        if entry is None:
            raise exceptions.NotFound("No such entry in this event.")
        return entry

    @extend_schema(responses=EntrySerializer)
    def get(self, request, slug: str, entry_id: int):
        return Response(EntrySerializer(self.entry(entry_id)).data)

    @extend_schema(request=EntryStatusSerializer, responses=EntrySerializer)
    def patch(self, request, slug: str, entry_id: int):
        self.require_director()
        entry = self.entry(entry_id)
        body = EntryStatusSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if body.validated_data["status"] == Entry.Status.WITHDRAWN:
            entry = services.withdraw_entry(entry=entry, by=request.user)
        else:
            entry = services.register_entry(event=self.event, player=entry.player, by=request.user)
        return Response(EntrySerializer(entry).data)


class RoundList(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request, slug: str):
        numbers = self.event.rounds.order_by("number").values_list("number", flat=True)
        return Response(
            [round_document(selectors.round_with_seating(self.event, n)) for n in numbers]
        )

    @extend_schema(
        request=RoundStartSerializer,
        responses={202: RoundStartedSerializer},
        description="Start the next round; a Celery task seats it (status 'seating' until then).",
    )
    def post(self, request, slug: str):
        self.require_director()
        body = RoundStartSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        round_ = services.start_round(event=self.event, by=request.user, **body.validated_data)
        return Response(
            {"number": round_.number, "status": round_.status}, status.HTTP_202_ACCEPTED
        )


class RoundDetail(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer)
    def get(self, request, slug: str, number: int):
        return Response(round_document(selectors.round_with_seating(self.event, number)))


class RoundAction(EventScoped, APIView):
    """POST /rounds/{n}/<action>/: a director's change to a round; answers the round."""

    permission_classes = [AllowAny]
    body_serializer: type | None = None

    def act(self, round_, data: dict) -> None:
        raise NotImplementedError

    def post(self, request, slug: str, number: int):
        self.require_director()
        round_ = selectors.round_of(self.event, number)
        data = {}
        if self.body_serializer is not None:
            body = self.body_serializer(data=request.data)
            body.is_valid(raise_exception=True)
            data = body.validated_data
        self.act(round_, data)
        return Response(round_document(selectors.round_with_seating(self.event, number)))


def player_entry(event, player_id: int, field: str) -> Entry:
    entry = selectors.entries_of(event).filter(player_id=player_id).first()
    if entry is None:
        raise exceptions.ValidationError(
            {field: [f"Player {player_id} is not entered in this event."]}
        )
    return entry


@extend_schema(request=None, responses=RoundSerializer)
class RoundPublish(RoundAction):
    def act(self, round_, data):
        services.publish_round(round=round_, by=self.request.user)


@extend_schema(request=CloseSerializer, responses=RoundSerializer)
class RoundClose(RoundAction):
    body_serializer = CloseSerializer

    def act(self, round_, data):
        services.close_round(round=round_, force=data["force"], by=self.request.user)


@extend_schema(request=SwapSerializer, responses=RoundSerializer)
class RoundSwap(RoundAction):
    body_serializer = SwapSerializer

    def act(self, round_, data):
        services.swap_players(
            round=round_,
            first=player_entry(self.event, data["first"], "first"),
            second=player_entry(self.event, data["second"], "second"),
            by=self.request.user,
        )


@extend_schema(request=MoveSerializer, responses=RoundSerializer)
class RoundMove(RoundAction):
    body_serializer = MoveSerializer

    def act(self, round_, data):
        services.move_player(
            round=round_,
            entry=player_entry(self.event, data["player"], "player"),
            table_number=data["table"],
            by=self.request.user,
        )


@extend_schema(request=RoundStartSerializer, responses=RoundSerializer)
class RoundReseat(RoundAction):
    body_serializer = RoundStartSerializer

    def act(self, round_, data):
        services.reseat_round(round=round_, seed=data.get("seed"), by=self.request.user)
