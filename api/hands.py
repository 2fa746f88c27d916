"""REST API v1 for a table's sheet, its lock, and its hands (API.md). Thin: parse, call
one service or selector, render."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.scoring_serializers import (
    DirectorHandInputSerializer,
    HandInputSerializer,
    HandSerializer,
    PenaltyInputSerializer,
    ScoreInputSerializer,
    TableSerializer,
)
from api.serializers import AtFaultSerializer
from api.support import EventScoped
from core import selectors, services
from game import rules

# The fields a hand's body may have: the input serializers describe them (for the
# schema), the rules engine judges their values.
HAND_FIELDS = set(HandInputSerializer().fields)
# A director's PUT may also say why the hand is corrected (kept in its history).
DIRECTOR_HAND_FIELDS = set(DirectorHandInputSerializer().fields)
SCORE_FIELDS = set(ScoreInputSerializer().fields)
PENALTY_FIELDS = set(PenaltyInputSerializer().fields)
IF_MATCH = re.compile(r'^\s*(?:W/)?"?(\d{1,9})"?\s*$')


def parse_hand(body: Any, fields: set[str] = HAND_FIELDS) -> rules.HandEntry:
    """The PUT body as the rules engine's entry. Values are passed on as sent: the
    engine reports each wrong one by field and seat; only the shape is checked here.
    `fields`: those the body may have (beyond the entry's, a director's `reason`)."""
    if not isinstance(body, dict):
        raise exceptions.ValidationError(
            {"non_field_errors": [_("Send the hand as a JSON object.")]}
        )
    unknown = sorted(set(body) - fields)
    if unknown:
        raise exceptions.ValidationError(
            {name: [_("This is not a field of a hand.")] for name in unknown}
        )
    problems: dict[str, list[str]] = {}

    def items(name: str, fields: set[str], make):
        raw = body.get(name) or []
        if not isinstance(raw, list):
            problems.setdefault(name, []).append(_("%(name)s must be a list.") % {"name": name})
            return ()
        made = []
        for i, item in enumerate(raw, start=1):
            if not isinstance(item, dict):
                problems.setdefault(name, []).append(
                    _("entry %(index)s of %(name)s must be an object.") % {"index": i, "name": name}
                )
                continue
            extra = sorted(set(item) - fields)
            if extra:
                known = ", ".join(sorted(fields))
                problems.setdefault(name, []).append(
                    _("entry %(index)s of %(name)s: %(extra)s is not a field (use %(known)s).")
                    % {"index": i, "name": name, "extra": ", ".join(extra), "known": known}
                )
                continue
            made.append(make(**{field: item.get(field) for field in fields}))
        return tuple(made)

    scores = items("scores", SCORE_FIELDS, rules.SeatEntry)
    penalties = items("penalties", PENALTY_FIELDS, rules.PenaltyEntry)
    if problems:
        raise exceptions.ValidationError(problems)
    return rules.HandEntry(
        redeal=body.get("redeal", False),
        went_out=body.get("went_out"),
        down_and_out=body.get("down_and_out", False),
        scores=scores,
        penalties=penalties,
    )


def expected_version(request) -> int | None:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = IF_MATCH.match(header)
    if match is None:
        raise exceptions.ValidationError(
            {"If-Match": [_('Send the hand\'s version, e.g. If-Match: "3".')]}
        )
    return int(match.group(1))


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = f'"{version}"'
    return response


class TableView(EventScoped, APIView):
    permission_classes = [AllowAny]

    def table(self, number: int, table: int):
        return self.check_table(self.event, number, table)

    def check_table(self, event, number: int, table: int):
        found = selectors.table_of(event, number, table)
        self.check_round_visible(found.round)
        return found


class TableDetail(TableView):
    @extend_schema(responses=TableSerializer)
    def get(self, request, slug: str, number: int, table: int):
        return Response(TableSerializer(selectors.table_sheet(self.table(number, table))).data)


class TableLock(TableView):
    locking = True

    @extend_schema(request=None, responses=TableSerializer)
    def post(self, request, slug: str, number: int, table: int):
        found = self.table(number, table)
        action = services.lock_table if self.locking else services.unlock_table
        action(table=found, by=request.user)
        return Response(TableSerializer(selectors.table_sheet(self.table(number, table))).data)


class TableUnlock(TableLock):
    locking = False


class TableAtFault(TableView):
    @extend_schema(
        request=AtFaultSerializer,
        responses=TableSerializer,
        description="Mark exactly these seats at fault for the hands the table did not play "
        "(slow play), with a reason: their adjusted scores are the field's 75th percentile "
        "instead of its mean. On a closed round the scores and standings follow at once.",
    )
    def post(self, request, slug: str, number: int, table: int):
        found = self.table(number, table)
        body = AtFaultSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.mark_at_fault(
            table=found,
            positions=body.validated_data["seats"],
            reason=body.validated_data["reason"],
            by=request.user,
        )
        return Response(TableSerializer(selectors.table_sheet(self.table(number, table))).data)


class HandDetail(TableView):
    @extend_schema(
        responses={200: HandSerializer, 404: OpenApiResponse(description="not recorded")}
    )
    def get(self, request, slug: str, number: int, table: int, hand: int):
        return self.respond(self.table(number, table), hand)

    def respond(self, table, hand: int) -> Response:
        view = selectors.hand_at(table, hand)
        return with_etag(Response(HandSerializer(view).data), view.version)

    @extend_schema(
        request=DirectorHandInputSerializer,
        parameters=[
            OpenApiParameter(
                "If-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="the version you edited; 0 when the hand must not exist yet",
            )
        ],
        responses={200: HandSerializer, 412: OpenApiResponse(description="stale version")},
    )
    def put(self, request, slug: str, number: int, table: int, hand: int):
        # A director's write (checked before the body is read): the table is read once,
        # under its lock, by the service; a director sees every round, drafts included.
        entry = parse_hand(request.data, DIRECTOR_HAND_FIELDS)
        recorded = services.record_hand(
            table=services.TableAt(event=self.event, round_number=number, number=table),
            number=hand,
            entry=entry,
            by=request.user,
            expected_version=expected_version(request),
            reason=services.correction_reason(request.data.get("reason")),
        )
        # The hand as the save left it, from what the service holds: no reading it again.
        return with_etag(Response(HandSerializer(recorded.view).data), recorded.view.version)

    @extend_schema(
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False)],
        responses={204: None, 404: OpenApiResponse(description="not recorded")},
    )
    def delete(self, request, slug: str, number: int, table: int, hand: int):
        found = self.table(number, table)
        removed = services.delete_hand(
            table=found, number=hand, by=request.user, expected_version=expected_version(request)
        )
        if not removed:
            raise exceptions.NotFound(_("This hand has not been recorded."))
        return Response(status=status.HTTP_204_NO_CONTENT)
