"""The organiser's series pages, under /organiser/ (apart from /director/<event>/, so
no event's slug is ever taken for a page of theirs)."""

from __future__ import annotations

from django.urls import path

from director import series

app_name = "organiser"

urlpatterns = [
    path("", series.series_list, name="series-list"),
    path("new/", series.create_series, name="series-create"),
    path("<slug:slug>/", series.series_page, name="series"),
    path("<slug:slug>/settings/", series.change_series, name="series-settings"),
    path("<slug:slug>/legs/", series.add_leg, name="series-add-leg"),
    path("<slug:slug>/legs/<slug:event>/remove/", series.remove_leg, name="series-remove-leg"),
    path("<slug:slug>/final/", series.create_final, name="series-final"),
    path("<slug:slug>/reopen/", series.reopen_series, name="series-reopen"),
]
