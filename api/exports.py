"""REST API v1: an event's standings and every hand score as CSV.

Read like the other event reads: anyone for a public event, its directors for a
private one (404 otherwise). Errors stay JSON, in the API's usual shape.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from api.support import EventScoped
from core.common import csv_bytes, plain_csv_asked
from core.standings import exports

CSV = "text/csv"


class CSVRenderer(BaseRenderer):
    """Lets a client ask for text/csv; an error is still sent as its JSON document."""

    media_type = CSV
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        return JSONRenderer().render(data)


def csv_response(request, text: str, name: str) -> HttpResponse:
    """UTF-8 with a byte-order mark (Excel reads it right); `?bom=0`: plain UTF-8."""
    content = csv_bytes(text, plain=plain_csv_asked(request.query_params))
    response = HttpResponse(content, content_type=f"{CSV}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class CsvExport(EventScoped, APIView):
    """A CSV file of an event: public for a public event, else for its directors."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]


# DRF's ?format= override is not part of these endpoints: the file is always CSV.
NO_FORMAT = OpenApiParameter("format", exclude=True)
BOM = OpenApiParameter(
    "bom", str, required=False, description="0: plain UTF-8, without the byte-order mark"
)


class StandingsCsv(CsvExport):
    @extend_schema(
        operation_id="v1_events_exports_standings_csv",
        summary="The standings as CSV",
        description="One row per entry, in rank order, after the round asked for (default: "
        "the latest round with standings).",
        parameters=[
            NO_FORMAT,
            BOM,
            OpenApiParameter("round", int, required=False, description="a round number"),
        ],
        responses={
            (200, CSV): OpenApiTypes.STR,
            400: OpenApiResponse(description="the round is not a number"),
            404: OpenApiResponse(description="no such event, or no standings for that round"),
        },
    )
    def get(self, request, slug: str):
        raw = request.query_params.get("round")
        number = None
        if raw is not None:
            if not (raw.isascii() and raw.isdigit()) or len(raw) > 4:
                raise exceptions.ValidationError({"round": [_("Give a round number.")]})
            number = int(raw)
        text = exports.standings_csv(self.event, number)
        return csv_response(request, text, exports.filename(self.event, "standings", "csv"))


class HandsCsv(CsvExport):
    @extend_schema(
        operation_id="v1_events_exports_hands_csv",
        summary="Every hand score as CSV",
        description="One row per seat of every scored hand, and one per redeal, in play order.",
        parameters=[NO_FORMAT, BOM],
        responses={
            (200, CSV): OpenApiTypes.STR,
            404: OpenApiResponse(description="no such event"),
        },
    )
    def get(self, request, slug: str):
        text = exports.hands_csv(self.event)
        return csv_response(request, text, exports.filename(self.event, "hands", "csv"))
