"""Publishing from the venue (API.md, "Publishing from the venue").

On the site, an event's directors make and revoke its publishing link
(`events/{slug}/publishing-link/`). The venue's publisher, holding the link
(`Authorization: Link <secret>`), reads the site's acknowledgement (`publishing/`),
sends its changes (`publishing/changes/`: gzipped JSON {"stream", "changes"}) and, to
compare the two copies, reads the site's archive of the event (`publishing/archive/`).
"""

from __future__ import annotations

import json
import zlib

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions
from rest_framework import serializers as s
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.support import EventScoped
from core.archive.export import export_event
from core.publishing.applying import OutOfStep, Refused, apply_changes, status
from core.publishing.links import SCHEME, create_link, link_of, revoke_link
from tournaments.models import PublishingLink

# The most a batch may carry: compressed on the wire, and once decompressed.
MAX_WIRE_BYTES = 64 * 1024 * 1024
MAX_JSON_BYTES = 512 * 1024 * 1024

LINK = inline_serializer("PublishingLink", {"link": s.CharField()})
STATUS = inline_serializer(
    "PublishingStatus",
    {
        "event": s.CharField(),
        "stream": s.CharField(),
        "acknowledged": s.IntegerField(),
        "last_change_at": s.DateTimeField(allow_null=True),
        "refused": s.DictField(allow_null=True),
    },
)


class PublishingLinkView(EventScoped, APIView):
    """The event's publishing link: made (shown once) and revoked by its directors."""

    permission_classes = [AllowAny]
    publishing_link_itself = True  # a published event's own link stays the directors'

    @extend_schema(request=None, responses={201: LINK})
    def post(self, request, slug: str):
        return Response({"link": create_link(event=self.event, by=request.user)}, status=201)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str):
        if not revoke_link(event=self.event):
            raise exceptions.NotFound(_("This event has no publishing link."))
        return Response(status=204)


class LinkScoped(APIView):
    """Views the venue's publisher calls with its link, and nothing else."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def link(self) -> PublishingLink:
        scheme, _space, secret = self.request.headers.get("Authorization", "").partition(" ")
        if scheme != SCHEME or not secret.strip():
            raise exceptions.NotAuthenticated(
                _("Send the publishing link as the Authorization header: Link <link>.")
            )
        return link_of(secret.strip())


class PublishingStatus(LinkScoped):
    @extend_schema(responses=STATUS)
    def get(self, request):
        return Response(status(self.link()))


class PublishingChanges(LinkScoped):
    parser_classes: list = []

    @extend_schema(request=None, responses={200: STATUS})
    def post(self, request):
        link = self.link()
        batch = read_batch(request)
        try:
            link = apply_changes(link, batch["stream"], batch["changes"])
        except OutOfStep as step:
            return Response({"expected": step.expected, **status(link)}, status=409)
        except Refused as refused:
            link.refresh_from_db()
            return Response(
                {"refused": {"seq": refused.seq, "reason": refused.reason}, **status(link)},
                status=422,
            )
        return Response(status(link))


class PublishingArchive(LinkScoped):
    @extend_schema(responses={200: inline_serializer("EventArchive", {})})
    def get(self, request):
        return Response(export_event(self.link().event))


def read_batch(request) -> dict:
    """The batch's JSON, gzipped or not, within the bounds above; 400 otherwise."""
    raw = request.stream.read(MAX_WIRE_BYTES + 1) if request.stream is not None else b""
    if len(raw) > MAX_WIRE_BYTES:
        raise exceptions.ValidationError({"changes": [_("The batch is too large.")]})
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            raw = inflate.decompress(raw, MAX_JSON_BYTES + 1)
        except zlib.error as error:
            raise exceptions.ValidationError(
                {"changes": [_("The batch is not gzip data.")]}
            ) from error
        if len(raw) > MAX_JSON_BYTES or inflate.unconsumed_tail:
            raise exceptions.ValidationError({"changes": [_("The batch is too large.")]})
    try:
        batch = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise exceptions.ValidationError({"changes": [_("The batch is not JSON.")]}) from error
    if not isinstance(batch, dict) or not isinstance(batch.get("changes"), list):
        raise exceptions.ValidationError(
            {"changes": [_('Send {"stream": ..., "changes": [...]}.')]}
        )
    if not isinstance(batch.get("stream"), str):
        raise exceptions.ValidationError({"stream": [_("Name the publication (stream).")]})
    return batch
