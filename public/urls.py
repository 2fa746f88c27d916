"""Public pages: the events list (the front page), leaderboards, the projector view,
rounds, tables and players. No login; private events are 404 for the public."""

from __future__ import annotations

from django.urls import path

from public import views

event = "events/<slug:slug>/"
round_ = event + "rounds/<int:number>/"
table = round_ + "tables/<int:table>/"

urlpatterns = [
    path("", views.events, name="home"),
    path("events/", views.events, name="public-events"),
    path(event, views.event_page, name="public-event"),
    path(event + "live/", views.event_live, name="public-event-live"),
    path(event + "projector/", views.projector, name="public-projector"),
    path(event + "projector/live/", views.projector_live, name="public-projector-live"),
    path(round_, views.round_page, name="public-round"),
    path(round_ + "live/", views.round_live, name="public-round-live"),
    path(table, views.table_page, name="public-table"),
    path(table + "live/", views.table_live, name="public-table-live"),
    path("players/<int:player_id>/", views.player, name="public-player"),
    path("healthz", views.healthz, name="healthz"),
]
