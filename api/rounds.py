"""REST API v1 for rounds: start, the seating, publish, close, and the director's
changes to a draft (swap, move, seat again). Thin: parse, call one service or
selector, render."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers import (
    CloseSerializer,
    MoveSerializer,
    ReopenSerializer,
    RoundSerializer,
    RoundStartedSerializer,
    RoundStartSerializer,
    SwapSerializer,
)
from api.support import EventScoped
from core import selectors, services
from tournaments.models import PLAYED_ROUND_STATUSES, Entry


def round_data(event, number: int) -> dict:
    return RoundSerializer(selectors.round_with_seating(event, number)).data


class RoundList(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request, slug: str):
        rounds = selectors.rounds_of(self.event)
        if not self.directs:
            rounds = rounds.filter(status__in=PLAYED_ROUND_STATUSES)
        return Response([round_data(self.event, round_.number) for round_ in rounds])

    @extend_schema(
        request=RoundStartSerializer,
        responses={202: RoundStartedSerializer},
        description="Start the next round; a Celery task seats it (status 'seating' until then).",
    )
    def post(self, request, slug: str):
        body = RoundStartSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        round_ = services.start_round(event=self.event, by=request.user, **body.validated_data)
        return Response(RoundStartedSerializer(round_).data, status.HTTP_202_ACCEPTED)


class RoundDetail(EventScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundSerializer)
    def get(self, request, slug: str, number: int):
        self.check_round_visible(selectors.rounds_of(self.event).filter(number=number).first())
        return Response(round_data(self.event, number))


class RoundAction(EventScoped, APIView):
    """POST /rounds/{n}/<action>/: a director's change to a round; answers the round."""

    permission_classes = [AllowAny]
    body_serializer: type | None = None

    def act(self, round_, data: dict) -> None:
        raise NotImplementedError

    def post(self, request, slug: str, number: int):
        round_ = selectors.round_of(self.event, number)
        data = {}
        if self.body_serializer is not None:
            body = self.body_serializer(data=request.data)
            body.is_valid(raise_exception=True)
            data = body.validated_data
        self.act(round_, data)
        return Response(round_data(self.event, number))


def player_entry(event, player_id: int, field: str) -> Entry:
    entry = selectors.entries_of(event).filter(player_id=player_id).first()
    if entry is None:
        raise exceptions.ValidationError(
            {field: [_("Player %(player)s is not entered in this event.") % {"player": player_id}]}
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


@extend_schema(
    request=ReopenSerializer,
    responses=RoundSerializer,
    description="Put the latest round, closed, back in play (recorded in its history with "
    "the reason); its adjusted scores are dropped until it closes again. A finished event "
    "is running again; reopening one needs a reason, and its page says its results changed.",
)
class RoundReopen(RoundAction):
    body_serializer = ReopenSerializer

    def act(self, round_, data):
        services.reopen_round(round=round_, reason=data["reason"], by=self.request.user)


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
