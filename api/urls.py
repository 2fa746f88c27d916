"""REST API v1 routes (API.md)."""

from __future__ import annotations

from django.urls import path

from api import (
    events,
    exports,
    hands,
    publishing,
    ratings,
    rounds,
    screens,
    series,
    standings,
    table_entry,
)

event = "events/<slug:slug>/"
round_ = event + "rounds/<int:number>/"
table = round_ + "tables/<int:table>/"
proposal = table + "hands/<int:hand>/proposal/"

urlpatterns = [
    # First: the busiest read (resolved without trying the other patterns).
    path(event + "standings/", standings.StandingsView.as_view(), name="standings"),
    path("players/", events.PlayerList.as_view(), name="players"),
    path("players/<int:player_id>/", ratings.PlayerDetail.as_view(), name="player"),
    path("ratings/", ratings.RatingList.as_view(), name="ratings"),
    path("events/", events.EventList.as_view(), name="events"),
    path(event, events.EventDetail.as_view(), name="event"),
    path(event + "finish/", events.EventFinish.as_view(), name="event-finish"),
    path(event + "count/", events.EventCount.as_view(), name="event-count"),
    path(event + "entries/", events.EntryList.as_view(), name="entries"),
    path(event + "entries/<int:entry_id>/", events.EntryDetail.as_view(), name="entry"),
    path(event + "rounds/", rounds.RoundList.as_view(), name="rounds"),
    path(round_, rounds.RoundDetail.as_view(), name="round"),
    path(round_ + "publish/", rounds.RoundPublish.as_view(), name="round-publish"),
    path(round_ + "close/", rounds.RoundClose.as_view(), name="round-close"),
    path(round_ + "reopen/", rounds.RoundReopen.as_view(), name="round-reopen"),
    path(round_ + "swap/", rounds.RoundSwap.as_view(), name="round-swap"),
    path(round_ + "move/", rounds.RoundMove.as_view(), name="round-move"),
    path(round_ + "reseat/", rounds.RoundReseat.as_view(), name="round-reseat"),
    path(round_ + "clock/", screens.RoundClockView.as_view(), name="round-clock"),
    path(event + "announcements/", screens.AnnouncementList.as_view(), name="announcements"),
    path(
        event + "announcements/<int:announcement_id>/",
        screens.AnnouncementDetail.as_view(),
        name="announcement",
    ),
    path(table, hands.TableDetail.as_view(), name="table"),
    path(table + "lock/", hands.TableLock.as_view(), name="table-lock"),
    path(table + "unlock/", hands.TableUnlock.as_view(), name="table-unlock"),
    path(table + "at-fault/", hands.TableAtFault.as_view(), name="table-at-fault"),
    path(table + "hands/<int:hand>/", hands.HandDetail.as_view(), name="hand"),
    path(round_ + "codes/", table_entry.RoundCodes.as_view(), name="round-codes"),
    path(proposal, table_entry.HandProposal.as_view(), name="proposal"),
    path(proposal + "confirm/", table_entry.ConfirmProposal.as_view(), name="proposal-confirm"),
    path(proposal + "dispute/", table_entry.DisputeProposal.as_view(), name="proposal-dispute"),
    path(
        event + "exports/standings.csv",
        exports.StandingsCsv.as_view(),
        name="export-standings",
    ),
    path(event + "exports/hands.csv", exports.HandsCsv.as_view(), name="export-hands"),
    path(
        event + "publishing-link/",
        publishing.PublishingLinkView.as_view(),
        name="publishing-link",
    ),
    path("publishing/", publishing.PublishingStatus.as_view(), name="publishing"),
    path("publishing/changes/", publishing.PublishingChanges.as_view(), name="publishing-changes"),
    path("publishing/archive/", publishing.PublishingArchive.as_view(), name="publishing-archive"),
    path("series/", series.SeriesList.as_view(), name="series-list"),
    path("series/<slug:slug>/", series.SeriesDetail.as_view(), name="series"),
    path("series/<slug:slug>/events/", series.SeriesLegs.as_view(), name="series-legs"),
    path(
        "series/<slug:slug>/events/<slug:event>/",
        series.SeriesLegDetail.as_view(),
        name="series-leg",
    ),
    path(
        "series/<slug:slug>/standings/",
        series.SeriesStandingsView.as_view(),
        name="series-standings",
    ),
    path("series/<slug:slug>/final/", series.SeriesFinal.as_view(), name="series-final"),
    path("series/<slug:slug>/reopen/", series.SeriesReopen.as_view(), name="series-reopen"),
    path("rulesets/", series.HouseRulesetList.as_view(), name="house-rulesets"),
    path("rulesets/<slug:slug>/", series.HouseRulesetDetail.as_view(), name="house-ruleset"),
]
