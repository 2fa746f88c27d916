"""REST API v1: series (circuits of events) and house rulesets (API.md, "Series").
Thin: parse, call one service or selector, render."""

from __future__ import annotations

from functools import cached_property

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from api.series_serializers import (
    AddLegSerializer,
    FinalCreatedSerializer,
    FinalSerializer,
    HouseRulesetSerializer,
    LegSerializer,
    ReopenSeriesSerializer,
    SeriesSerializer,
    SeriesStandingsSerializer,
)
from api.support import require_login
from core import selectors, services
from core.errors import Missing
from core.events import rulesets as house
from core.events.services import check_draw_untouched
from core.series import selectors as reads
from tournaments.models import Event, HouseRuleset, Series


class CanCreateSeriesOrReadOnly(BasePermission):
    message = gettext_lazy("You may not create a series.")

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or reads.can_create_series(request.user)


class SeriesList(generics.ListCreateAPIView):
    serializer_class = SeriesSerializer
    permission_classes = [CanCreateSeriesOrReadOnly]

    def get_queryset(self):
        return (
            reads.visible_series(self.request.user).prefetch_related("legs").select_related("final")
        )

    def create(self, request, *args, **kwargs):
        check_draw_untouched(request.data, of="series")  # the site's to make
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        serializer.instance = services.create_series(
            data=serializer.validated_data, by=self.request.user
        )


class SeriesScoped:
    """For views under /series/{slug}/: the series among those the user may see, and
    the organiser check for writes, made before the body is read."""

    kwargs: dict
    request: object

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method not in SAFE_METHODS:
            self.require_organiser()

    @cached_property
    def series(self) -> Series:
        return reads.series_for(self.request.user, self.kwargs["slug"])

    def require_organiser(self) -> None:
        require_login(self.request)
        if not reads.can_organise(self.request.user, self.series):
            raise exceptions.PermissionDenied(_("Only an organiser of this series may change it."))

    def named_event(self, slug: str) -> Event:
        """The event a leg or final request names, among those the writer may see (the
        service refuses, 403, one they do not direct)."""
        try:
            return selectors.event_for(self.request.user, slug)
        except Missing as missing:
            raise exceptions.ValidationError({"event": [_("No such event.")]}) from missing


class SeriesDetail(SeriesScoped, generics.RetrieveUpdateAPIView):
    serializer_class = SeriesSerializer
    permission_classes = [AllowAny]
    http_method_names = ["get", "patch", "head", "options"]

    def get_object(self):
        return self.series

    def update(self, request, *args, **kwargs):
        check_draw_untouched(request.data, of="series")  # the site's to make
        return super().update(request, *args, **kwargs)

    def perform_update(self, serializer):
        serializer.instance = services.update_series(
            series=self.series, data=serializer.validated_data, by=self.request.user
        )


class SeriesLegs(SeriesScoped, APIView):
    permission_classes = [AllowAny]

    def legs(self) -> list:
        legs = reads.legs_of(self.series)
        scored = reads.final_rounds(legs)
        for leg in legs:
            leg.scored = leg.pk in scored
        return LegSerializer(legs, many=True).data

    @extend_schema(responses=LegSerializer(many=True))
    def get(self, request, slug: str):
        return Response(self.legs())

    @extend_schema(request=AddLegSerializer, responses={201: LegSerializer(many=True)})
    def post(self, request, slug: str):
        body = AddLegSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        event = self.named_event(body.validated_data["event"])
        services.add_leg(series=self.series, event=event, by=request.user)
        return Response(self.legs(), status=status.HTTP_201_CREATED)


class SeriesLegDetail(SeriesScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str, event: str):
        leg = reads.leg_of(self.series, event)
        services.remove_leg(series=self.series, event=leg, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def standings_document(series: Series) -> dict:
    rows = reads.series_standings(series)
    return {
        "version": series.standings_version,
        "standings": [
            {
                "rank": r.rank,
                "player": {"id": r.player_id, "name": r.player.name},
                "points": float(r.points),
                "events_played": r.events_played,
                "best_place": r.best_place,
                "results": [
                    {"shared": False, "provisional": False, **result} for result in r.results
                ],
                "qualified": r.qualified,
                "decided_by": r.decided_by,
                "tie_note": r.tie_note,
                "prize": None
                if r.prize is None
                else {
                    "amount": r.prize.amount,
                    "item": r.prize.item,
                    "shared_with": list(r.prize.shared_with),
                },
            }
            for r in rows
        ],
    }


class SeriesStandingsView(SeriesScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=SeriesStandingsSerializer)
    def get(self, request, slug: str):
        return Response(SeriesStandingsSerializer(standings_document(self.series)).data)


class SeriesReopen(SeriesScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=ReopenSeriesSerializer,
        responses=SeriesSerializer,
        description="Once the final's first hand is recorded the series' qualification is "
        "frozen; reopening it (with a reason, shown on its page) allows its legs, their "
        "results and its ranking settings to change again.",
    )
    def post(self, request, slug: str):
        body = ReopenSeriesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        series = services.reopen_series(
            series=self.series, reason=body.validated_data["reason"], by=request.user
        )
        return Response(SeriesSerializer(series, context={"request": request}).data)


class SeriesFinal(SeriesScoped, APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=FinalSerializer, responses=FinalCreatedSerializer)
    def post(self, request, slug: str):
        body = FinalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        event = self.named_event(body.validated_data["event"])
        seed_by = body.validated_data["seed_by"]
        entries = services.create_final(
            series=self.series,
            event=event,
            by=request.user,
            seed_by=seed_by,
            force=body.validated_data["force"],
            reason=body.validated_data["reason"],
        )
        return Response({"event": event.slug, "entries": entries, "seed_by": seed_by})


# --- House rulesets ---------------------------------------------------------------------


class CanDefineRulesetsOrReadOnly(BasePermission):
    message = gettext_lazy("Only directors may define rulesets.")

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or selectors.can_create_events(request.user)


class HouseRulesetList(generics.ListCreateAPIView):
    serializer_class = HouseRulesetSerializer
    permission_classes = [CanDefineRulesetsOrReadOnly]
    queryset = HouseRuleset.objects.order_by("name", "id")

    def perform_create(self, serializer):
        serializer.instance = house.create_house_ruleset(
            data=serializer.validated_data, by=self.request.user
        )


class HouseRulesetDetail(generics.RetrieveUpdateAPIView):
    serializer_class = HouseRulesetSerializer
    permission_classes = [AllowAny]
    http_method_names = ["get", "patch", "head", "options"]
    lookup_field = "slug"
    queryset = HouseRuleset.objects.all()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method not in SAFE_METHODS:
            require_login(request)
            if not reads.can_change_ruleset(request.user, self.get_object()):  # before the body
                raise exceptions.PermissionDenied(_("Only who defined this ruleset may change it."))

    def perform_update(self, serializer):
        serializer.instance = house.update_house_ruleset(
            ruleset=self.get_object(), data=serializer.validated_data, by=self.request.user
        )
