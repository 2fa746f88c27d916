"""REST API v1 for entry at the table (API.md, "Entry at the table"): a round's players'
codes for its directors, and a player's entry of a hand, another player's confirmation
or dispute, each with the player's code in `X-Player-Code`. Thin: parse, call one
service or selector, render."""

from __future__ import annotations

import dataclasses

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.hands import TableView, parse_hand
from api.scoring_serializers import HandInputSerializer, ProposalSerializer
from api.serializers import RoundCodesSerializer
from api.support import EventScoped
from core import selectors, services
from core.errors import Missing
from core.selectors import ProposalView
from core.table_entry import codes

CODE_HEADER = "X-Player-Code"
CODE_PARAMETER = OpenApiParameter(
    CODE_HEADER,
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="the player's personal code for the round (printed on their player slip)",
)
REFUSALS = {
    400: OpenApiResponse(description="the rules refuse the hand (by field)"),
    403: OpenApiResponse(
        description="a wrong code (not a player's at this table), or players do not enter "
        "at this event"
    ),
    404: OpenApiResponse(description="no such table, or no entry waiting"),
    409: OpenApiResponse(
        description="the hand is recorded or disputed, the round closed, the table locked, "
        "or the player entered the hand themselves"
    ),
    429: OpenApiResponse(description="too many wrong codes from this client (Retry-After)"),
}


class RoundCodes(EventScoped, APIView):
    """Every seated player's code for the round: the event's directors only."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RoundCodesSerializer)
    def get(self, request, slug: str, number: int):
        self.require_director()
        tables = selectors.round_codes(self.event, number)
        return Response(RoundCodesSerializer({"tables": tables}).data)


class ProposalEndpoint(TableView):
    """What every proposal endpoint shares: the player's code from the header, and the
    answer (the latest entry for the hand, with the recorded hand once recorded)."""

    directors_write = False  # a player's code authorises it, checked by the service

    def code(self) -> dict:
        return {
            "code": self.request.headers.get(CODE_HEADER, ""),
            "client": codes.client_of(self.request),
        }

    def answer(self, table, number: int) -> Response:
        view = selectors.latest_proposal(table, number)
        if view is None:
            raise exceptions.NotFound("No player has entered this hand.")
        if view.state == "recorded":
            view = with_recorded_hand(view, table, number)
        return Response(ProposalSerializer(view).data)


def with_recorded_hand(view: ProposalView, table, number: int) -> ProposalView:
    """A confirmed entry answers with the hand as recorded (its version, its deals)."""
    try:
        return dataclasses.replace(view, hand=selectors.hand_at(table, number))
    except Missing:  # a director deleted it since: show the entry
        return view


class HandProposal(ProposalEndpoint):
    @extend_schema(
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="The latest entry the players made for this hand, for a player at the table.",
    )
    def get(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        services.identify_player(table=found, **self.code())
        return self.answer(found, hand)

    @extend_schema(
        request=HandInputSerializer,
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="A player at the table enters the hand: it waits, unrecorded, until "
        "another player there confirms it.",
    )
    def put(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        entry = parse_hand(request.data)
        services.propose_hand(table=found, number=hand, entry=entry, **self.code())
        return self.answer(found, hand)


class ConfirmProposal(ProposalEndpoint):
    @extend_schema(
        request=None,
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="Another player at the table confirms the entry: the hand is recorded "
        "as if a director had sent it.",
    )
    def post(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        services.confirm_proposal(table=found, number=hand, **self.code())
        return self.answer(found, hand)


class DisputeProposal(ProposalEndpoint):
    @extend_schema(
        request=HandInputSerializer,
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="Another player at the table disputes the entry, optionally with their "
        "own version of the hand (the body): nothing is recorded; the director decides.",
    )
    def post(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        entry = parse_hand(request.data) if request.data else None
        services.dispute_proposal(table=found, number=hand, entry=entry, **self.code())
        return self.answer(found, hand)
