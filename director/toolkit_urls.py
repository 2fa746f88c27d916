"""The director's event-day toolkit, under /director/<slug>/toolkit/ (login required;
the event's directors only)."""

from __future__ import annotations

from django.urls import path

from director import toolkit as views

round_ = "rounds/<int:number>/"

urlpatterns = [
    path("", views.index, name="toolkit-index"),
    path("import/", views.import_upload, name="toolkit-import"),
    path("import/preview/", views.import_preview, name="toolkit-import-preview"),
    path(round_ + "table-cards.pdf", views.table_cards, name="toolkit-table-cards"),
    path(round_ + "score-sheets.pdf", views.score_sheets, name="toolkit-score-sheets"),
    path(round_ + "player-slips.pdf", views.player_slips, name="toolkit-player-slips"),
    path(round_ + "find-your-table.pdf", views.find_your_table, name="toolkit-find-table"),
    path("results.pdf", views.results, name="toolkit-results"),
    path("exports/standings.csv", views.standings_csv, name="toolkit-standings-csv"),
    path("exports/hands.csv", views.hands_csv, name="toolkit-hands-csv"),
]
