"""The director's event-day pages (login required), under /director/."""

from __future__ import annotations

from django.urls import path

from director import (
    archive,
    copies,
    dashboard,
    day,
    new_event,
    players,
    publishing,
    restore,
    rounds,
    screens,
    settings,
    sheet,
    site,
    table_entry,
)

app_name = "director"

ROUND = "<slug:slug>/rounds/<int:number>/"
TABLE = ROUND + "tables/<int:table>/"
HAND = TABLE + "hands/<int:hand>/"

urlpatterns = [
    path("", dashboard.event_list, name="events"),
    path("archive/import/", archive.import_archive, name="archive-import"),
    path("new/", new_event.new_event, name="event-new"),
    path("site/", site.site_address, name="site"),
    path("<slug:slug>/", dashboard.event_dashboard, name="event"),
    path("<slug:slug>/archive.json", archive.export_archive, name="archive-export"),
    path("<slug:slug>/count/", copies.count_copy, name="event-count"),
    path("<slug:slug>/rounds/start/", rounds.start_round, name="round-start"),
    path("<slug:slug>/table-entry/", table_entry.set_table_entry, name="table-entry"),
    path("<slug:slug>/finish/", rounds.finish_event, name="event-finish"),
    path("<slug:slug>/withdraw/", players.withdraw_player, name="withdraw"),
    path("<slug:slug>/leave-point/", players.change_leave_point, name="leave-point"),
    path("<slug:slug>/players/add/", day.add_late_player, name="player-add"),
    path("<slug:slug>/check-in/", day.check_in, name="check-in"),
    path("<slug:slug>/substitute/", day.substitute, name="substitute"),
    path("<slug:slug>/rounds/extra/", day.extra_round, name="round-extra"),
    path("<slug:slug>/options/", day.day_options, name="day-options"),
    path("<slug:slug>/settings/", settings.event_settings, name="event-settings"),
    path("<slug:slug>/publishing/", publishing.publish_to_site, name="publish-to-site"),
    path("<slug:slug>/publishing/stop/", publishing.publish_stop, name="publish-stop"),
    path("<slug:slug>/publishing/retry/", publishing.publish_retry, name="publish-retry"),
    path("<slug:slug>/publishing-link/", publishing.publishing_link, name="publishing-link"),
    path(
        "<slug:slug>/publishing-link/revoke/",
        publishing.publishing_link_revoke,
        name="publishing-link-revoke",
    ),
    path(ROUND, dashboard.event_dashboard, name="round"),
    path(ROUND + "publish/", rounds.publish_round, name="round-publish"),
    path(ROUND + "close/", rounds.close_round, name="round-close"),
    path(ROUND + "force-close/", rounds.force_close_round, name="round-force-close"),
    path(ROUND + "reopen/", rounds.reopen_round, name="round-reopen"),
    path(ROUND + "reseat/", rounds.reseat_round, name="round-reseat"),
    path(ROUND + "swap/", rounds.swap_players, name="round-swap"),
    path(ROUND + "move/", rounds.move_player, name="round-move"),
    path(ROUND + "go/", dashboard.table_jump, name="table-jump"),
    path(ROUND + "proposals/", table_entry.proposals_panel, name="round-proposals"),
    path(ROUND + "codes/", table_entry.round_codes, name="round-codes"),
    path(ROUND + "clock/", screens.clock_action, name="round-clock"),
    path("<slug:slug>/announcements/", screens.post_announcement, name="announce"),
    path("<slug:slug>/time-rule/", screens.time_rule, name="time-rule"),
    path(
        "<slug:slug>/announcements/<int:announcement_id>/remove/",
        screens.remove_announcement,
        name="announcement-remove",
    ),
    path(TABLE, sheet.table_sheet, name="sheet"),
    path(TABLE + "lock/", rounds.lock_table, name="table-lock"),
    path(TABLE + "unlock/", rounds.unlock_table, name="table-unlock"),
    path(TABLE + "at-fault/", rounds.mark_at_fault, name="table-at-fault"),
    path(TABLE + "proposals/", table_entry.sheet_proposals, name="sheet-proposals"),
    path(HAND, sheet.hand_row_view, name="hand"),
    path(HAND + "history/", sheet.hand_history, name="hand-history"),
    path(HAND + "delete/", sheet.delete_hand, name="hand-delete"),
    path(HAND + "proposal/record/", sheet.record_players_version, name="proposal-record"),
    path(HAND + "restore/", restore.restore_version, name="hand-restore"),
]
