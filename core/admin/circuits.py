"""House rulesets, series and their standings, the site's public address: checked
as the API checks them."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from core import services
from core.admin.common import HistoryAdmin, ReadOnly, take_saved
from core.errors import ServiceError
from core.events.rulesets import check_house_data
from core.series.services import SERIES_FIELDS, check_series
from core.site.services import check_site_url
from scoring.models import (
    SeriesStanding,
)
from tournaments.models import (
    HouseRuleset,
    Series,
    SiteSetting,
)

# --- Series and house rules (README, "Series") --------------------------------------------


class HouseRulesetForm(forms.ModelForm):
    """A custom ruleset, checked as the API checks it; saved through the service so the
    events that froze it keep their values."""

    class Meta:
        model = HouseRuleset
        fields = ["slug", "name", *HouseRuleset.VALUE_FIELDS, "owners"]

    def clean(self):
        cleaned = super().clean()
        values = {name: cleaned[name] for name in HouseRuleset.VALUE_FIELDS if name in cleaned}
        try:
            check_house_data(values, self.instance if self.instance.pk else None)
        except ServiceError as error:
            for name, messages in error.errors.items():
                self.add_error(name if name in self.fields else None, messages)
        return cleaned


@admin.register(HouseRuleset)
class HouseRulesetAdmin(HistoryAdmin):
    form = HouseRulesetForm
    list_display = ["name", "slug", "jokers_per_pack", "overcall_penalty", "updated_at"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["owners"]


class SeriesForm(forms.ModelForm):
    """A series' settings, checked by the same rules as the API's."""

    class Meta:
        model = Series
        fields = [*SERIES_FIELDS, "organisers"]

    def clean(self):
        cleaned = super().clean()
        try:
            check_series(
                {name: cleaned[name] for name in SERIES_FIELDS if name in cleaned},
                series=self.instance if self.instance.pk else None,
            )
        except ServiceError as error:
            for name, messages in error.errors.items():
                self.add_error(name if name in self.fields else None, messages)
        return cleaned


@admin.register(Series)
class SeriesAdmin(HistoryAdmin):
    """Saved through `create_series` / `update_series`, as the API saves it: the same
    checks, history, pages refreshed and standings ranked anew."""

    form = SeriesForm
    list_display = ["name", "season", "slug", "qualifiers", "best_of", "public"]
    search_fields = ["name", "slug", "season"]
    filter_horizontal = ["organisers"]
    readonly_fields = ["final", "standings_version", "draw_commitment"]

    def save_model(self, request, obj, form, change):
        cleaned = form.cleaned_data
        data = {
            name: cleaned[name]
            for name in SERIES_FIELDS
            if name in cleaned and (not change or name in form.changed_data)
        }
        if change:
            series = services.update_series(series=obj, data=data, by=request.user)
        else:
            series = services.create_series(data=data, by=request.user)
        take_saved(obj, Series.objects.get(pk=series.pk))  # the form saves the organisers on it


@admin.register(SeriesStanding)
class SeriesStandingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["series", "rank", "player", "points", "events_played", "qualified"]
    list_filter = ["series"]


class HttpsURLField(forms.URLField):
    def __init__(self, **kwargs) -> None:
        super().__init__(assume_scheme="https", **kwargs)


class SiteSettingForm(forms.ModelForm):
    class Meta:
        model = SiteSetting
        fields = ["site_url"]
        # An address typed without a scheme is taken as https://.
        field_classes = {"site_url": HttpsURLField}

    def clean_site_url(self) -> str:
        try:
            return check_site_url(self.cleaned_data.get("site_url", ""))
        except ServiceError as error:
            raise forms.ValidationError([m for ms in error.errors.values() for m in ms]) from error


@admin.register(SiteSetting)
class SiteSettingAdmin(HistoryAdmin):
    """The site's public address, saved through the same service as the director's page
    (checked, with history)."""

    form = SiteSettingForm
    list_display = ["__str__", "updated_at"]

    def has_add_permission(self, request) -> bool:
        return not SiteSetting.objects.exists() and super().has_add_permission(request)

    def save_model(self, request, obj, form, change) -> None:
        saved = services.set_site_url(site_url=obj.site_url, by=request.user)
        obj.pk, obj.site_url = saved.pk, saved.site_url
