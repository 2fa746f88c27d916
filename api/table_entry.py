"""REST API v1 for entry at the table (API.md, "Entry at the table"): a round's players'
codes for its directors, and a player's entry of a hand, another player's confirmation
or dispute, each with the player's code in `X-Player-Code`. Thin: parse, call one
service or selector, render.

A code opens its table at a private event too (and nothing else there). Every answer to
a right code sets a signed cookie (`PASS_COOKIE`) scoped to the table: a client that
sends it back with the same code is never refused for other clients' wrong codes from
its address (`core.table_entry.services.identify_player`)."""

from __future__ import annotations

import dataclasses

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.hands import TableView, expected_version, parse_hand
from api.scoring_serializers import HandInputSerializer, ProposalSerializer
from api.serializers import RoundCodesSerializer
from api.support import EventScoped
from core import selectors, services
from core.errors import Missing, ProposalChanged
from core.selectors import ProposalView
from core.table_entry import codes

CODE_HEADER = "X-Player-Code"
PASS_COOKIE = "kalooki_player_pass"
PASS_SALT = "kalooki.player-pass"
PASS_AGE = 24 * 60 * 60
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
        "the player entered the hand themselves, or (confirm) the table entered it again "
        'since the version named: {"version": [...], "proposal": {the current entry}}'
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
    """What every proposal endpoint shares: the player's code from the header, the table
    it opens (at a private event too), and the answer (the latest entry for the hand,
    with the recorded hand once recorded)."""

    directors_write = False  # a player's code authorises it, checked by the service

    def code(self) -> dict:
        typed = self.request.headers.get(CODE_HEADER, "")
        kept = self.request.get_signed_cookie(PASS_COOKIE, default="", salt=PASS_SALT)
        return {
            "code": typed,
            "client": codes.client_of(self.request),
            "proven": bool(kept) and kept == codes.normalize(typed),
        }

    def table(self, number: int, table: int):
        try:
            event = self.event
        except Missing:  # not the caller's to see: its players' codes open their table
            return services.open_table(
                slug=self.kwargs["slug"], round_number=number, table_number=table, **self.code()
            )
        return self.check_table(event, number, table)

    def answer(self, table, number: int) -> Response:
        return self.keep_code(Response(proposal_document(table, number)), table)

    def keep_code(self, response: Response, table) -> Response:
        """The code was right: sign it for this client (see the module's docstring)."""
        path = reverse("api:table", args=[self.kwargs["slug"], table.round.number, table.number])
        response.set_signed_cookie(
            PASS_COOKIE,
            codes.normalize(self.request.headers.get(CODE_HEADER, "")),
            salt=PASS_SALT,
            max_age=PASS_AGE,
            path=path,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
        return response


class ConfirmInputSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="the entry's version the player was shown (or If-Match); without it the "
        "entry waiting now is confirmed",
    )


def shown_version(request) -> int | None:
    """The version named by the body (`{"version": N}`) or, failing that, If-Match."""
    body = request.data if isinstance(request.data, dict) else {}
    if "version" in body:
        raw = body["version"]
        if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw < 2**31:
            raise exceptions.ValidationError(
                {"version": [_("Send the version of the entry shown, a whole number from 1.")]}
            )
        return raw
    return expected_version(request)


def proposal_document(table, number: int) -> dict:
    view = selectors.latest_proposal(table, number)
    if view is None:
        raise exceptions.NotFound(_("No player has entered this hand."))
    if view.state == "recorded":
        view = with_recorded_hand(view, table, number)
    return ProposalSerializer(view).data


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
        request=ConfirmInputSerializer,
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="Another player at the table confirms the entry: the hand is recorded "
        'as if a director had sent it. `{"version": N}` (or `If-Match: "N"`) names the '
        "entry the player was shown: 409 with the current entry when the table entered "
        "the hand again meanwhile. Without a version the entry waiting now is confirmed "
        "(as before versions).",
    )
    def post(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        version = shown_version(request)
        try:
            services.confirm_proposal(table=found, number=hand, version=version, **self.code())
        except ProposalChanged as changed:  # nothing recorded: the entry to look at again
            body = {**changed.errors, "proposal": proposal_document(found, hand)}
            return self.keep_code(Response(body, status=changed.status_code), found)
        return self.answer(found, hand)


class DisputeProposal(ProposalEndpoint):
    @extend_schema(
        request=HandInputSerializer,
        parameters=[CODE_PARAMETER],
        responses={200: ProposalSerializer, **REFUSALS},
        description="Another player at the table disputes the entry, optionally with their "
        "own version of the hand (the body): nothing is recorded; the director decides. "
        "The player who disputed may send their version afterwards, or change it, until "
        "the director decides (409 for anyone else).",
    )
    def post(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        entry = parse_hand(request.data) if request.data else None
        services.dispute_proposal(table=found, number=hand, entry=entry, **self.code())
        return self.answer(found, hand)
