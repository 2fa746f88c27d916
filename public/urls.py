"""Public pages: the events list (the front page), leaderboards, the projector view,
rounds, tables and players, and the players' entry at their table (by code). No
login; private events are 404 for the public."""

from __future__ import annotations

from django.urls import path

from public import projector, push, ratings, series, table_entry, views

event = "events/<slug:slug>/"
round_ = event + "rounds/<int:number>/"
table = round_ + "tables/<int:table>/"
hand = table + "enter/hands/<int:hand>/"

urlpatterns = [
    path("", views.events, name="home"),
    path("events/", views.events, name="public-events"),
    path(event, views.event_page, name="public-event"),
    path(event + "live/", views.event_live, name="public-event-live"),
    # Answered by the push server (public/push.py) before Django: named for `reverse`.
    path(event + "live/push/", push.not_here, name="public-event-push"),
    path(event + "projector/", projector.projector, name="public-projector"),
    path(event + "projector/live/", projector.projector_live, name="public-projector-live"),
    path(round_, views.round_page, name="public-round"),
    path(round_ + "live/", views.round_live, name="public-round-live"),
    path(table, views.table_page, name="public-table"),
    path(table + "live/", views.table_live, name="public-table-live"),
    path(event + "enter/", table_entry.find_table, name="public-enter"),
    path(table + "enter/", table_entry.table_page, name="public-table-entry"),
    path(table + "enter/live/", table_entry.table_live, name="public-table-entry-live"),
    path(table + "enter/live/push/", push.not_here, name="public-table-entry-push"),
    path(table + "enter/leave/", table_entry.leave, name="public-table-entry-leave"),
    path(hand, table_entry.propose, name="public-table-entry-propose"),
    path(hand + "confirm/", table_entry.confirm, name="public-table-entry-confirm"),
    path(hand + "dispute/", table_entry.dispute, name="public-table-entry-dispute"),
    path("players/<int:player_id>/", views.player, name="public-player"),
    path("series/<slug:slug>/", series.series_page, name="public-series"),
    path(
        "series/<slug:slug>/standings.csv",
        series.series_standings_csv,
        name="public-series-csv",
    ),
    path(
        "series/<slug:slug>/standings.pdf",
        series.series_standings_pdf,
        name="public-series-pdf",
    ),
    path("ratings/", ratings.ratings, name="public-ratings"),
    path("healthz", views.healthz, name="healthz"),
]
