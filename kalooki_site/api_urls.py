"""REST API v1 routes (API.md)."""

from __future__ import annotations

from django.urls import path

from scoring import api as scoring_api
from scoring import exports_api
from tournaments import api as tournaments_api

event = "events/<slug:slug>/"
round_ = event + "rounds/<int:number>/"
table = round_ + "tables/<int:table>/"

urlpatterns = [
    path("players/", tournaments_api.PlayerList.as_view(), name="players"),
    path("events/", tournaments_api.EventList.as_view(), name="events"),
    path(event, tournaments_api.EventDetail.as_view(), name="event"),
    path(event + "entries/", tournaments_api.EntryList.as_view(), name="entries"),
    path(event + "entries/<int:entry_id>/", tournaments_api.EntryDetail.as_view(), name="entry"),
    path(event + "rounds/", tournaments_api.RoundList.as_view(), name="rounds"),
    path(round_, tournaments_api.RoundDetail.as_view(), name="round"),
    path(round_ + "publish/", tournaments_api.RoundPublish.as_view(), name="round-publish"),
    path(round_ + "close/", tournaments_api.RoundClose.as_view(), name="round-close"),
    path(round_ + "swap/", tournaments_api.RoundSwap.as_view(), name="round-swap"),
    path(round_ + "move/", tournaments_api.RoundMove.as_view(), name="round-move"),
    path(round_ + "reseat/", tournaments_api.RoundReseat.as_view(), name="round-reseat"),
    path(table, scoring_api.TableDetail.as_view(), name="table"),
    path(table + "lock/", scoring_api.TableLock.as_view(), name="table-lock"),
    path(table + "unlock/", scoring_api.TableUnlock.as_view(), name="table-unlock"),
    path(table + "hands/<int:hand>/", scoring_api.HandDetail.as_view(), name="hand"),
    path(event + "standings/", scoring_api.StandingsView.as_view(), name="standings"),
    path(
        event + "exports/standings.csv",
        exports_api.StandingsCsv.as_view(),
        name="export-standings",
    ),
    path(event + "exports/hands.csv", exports_api.HandsCsv.as_view(), name="export-hands"),
]
