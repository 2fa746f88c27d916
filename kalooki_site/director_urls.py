"""The director's event-day pages (login required), under /director/."""

from __future__ import annotations

from django.urls import path

from scoring import views as sheet
from tournaments import views as event

app_name = "director"

ROUND = "<slug:slug>/rounds/<int:number>/"
TABLE = ROUND + "tables/<int:table>/"
HAND = TABLE + "hands/<int:hand>/"

urlpatterns = [
    path("", event.event_list, name="events"),
    path("<slug:slug>/", event.event_dashboard, name="event"),
    path("<slug:slug>/rounds/start/", event.start_round, name="round-start"),
    path(ROUND, event.event_dashboard, name="round"),
    path(ROUND + "publish/", event.publish_round, name="round-publish"),
    path(ROUND + "close/", event.close_round, name="round-close"),
    path(ROUND + "force-close/", event.force_close_round, name="round-force-close"),
    path(ROUND + "reseat/", event.reseat_round, name="round-reseat"),
    path(ROUND + "swap/", event.swap_players, name="round-swap"),
    path(ROUND + "move/", event.move_player, name="round-move"),
    path(ROUND + "go/", event.table_jump, name="table-jump"),
    path(TABLE, sheet.table_sheet, name="sheet"),
    path(TABLE + "lock/", event.lock_table, name="table-lock"),
    path(TABLE + "unlock/", event.unlock_table, name="table-unlock"),
    path(HAND, sheet.hand_row, name="hand"),
    path(HAND + "history/", sheet.hand_history, name="hand-history"),
    path(HAND + "delete/", sheet.delete_hand, name="hand-delete"),
]
