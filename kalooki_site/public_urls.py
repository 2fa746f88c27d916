"""Public pages: the events list (the front page), leaderboards, the projector view,
rounds, tables and players. No login; private events are 404 for the public."""

from __future__ import annotations

from django.urls import path

from scoring import public_views as live
from tournaments import public_views as pages

event = "events/<slug:slug>/"
round_ = event + "rounds/<int:number>/"
table = round_ + "tables/<int:table>/"

urlpatterns = [
    path("", pages.events, name="home"),
    path("events/", pages.events, name="public-events"),
    path(event, live.event_page, name="public-event"),
    path(event + "live/", live.event_live, name="public-event-live"),
    path(event + "projector/", live.projector, name="public-projector"),
    path(event + "projector/live/", live.projector_live, name="public-projector-live"),
    path(round_, live.round_page, name="public-round"),
    path(round_ + "live/", live.round_live, name="public-round-live"),
    path(table, live.table_page, name="public-table"),
    path(table + "live/", live.table_live, name="public-table-live"),
    path("players/<int:player_id>/", pages.player, name="public-player"),
    path("healthz", pages.healthz, name="healthz"),
]
