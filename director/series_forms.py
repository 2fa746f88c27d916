"""The organiser's series forms: a series' settings (a setting that can no longer
change shown read-only, with the reason), a new series, a leg to add, the final to
seed. They turn what was typed into the services' values; the services judge the
rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from director.settings_forms import HELP, PRIZE_TIE_CHOICES
from game.series import default_points_scale
from tournaments.models import Series


class ScaleField(forms.CharField):
    """Series points as "100, 80, 65": best place first."""

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return None
        try:
            return [int(part) for part in value.replace(";", ",").split(",") if part.strip()]
        except ValueError as error:
            raise forms.ValidationError(
                _("Give the series points as whole numbers, best place first: 100, 80, 65")
            ) from error


def stored_settings(series: Series) -> dict:
    """The series' settings as its settings form shows them."""
    return {
        "name": series.name,
        "season": series.season,
        "points_scale": ", ".join(str(p) for p in series.points_scale),
        "best_of": series.best_of,
        "qualifiers": series.qualifiers,
        "ties_qualify": series.ties_qualify,
        "carry_over_step": series.carry_over_step,
        "wildcard_carry": series.wildcard_carry,
        "public": series.public,
        "slug": series.slug,
        "prize_currency": series.prize_currency,
        "prize_ties": series.prize_ties,
    }


class SeriesForm(forms.Form):
    """A series' settings as its settings form changes them: a blank scale keeps the
    current one (`data_for_service`). Given the series and its `locked` settings (each
    with the reason, `core.series.locked`), those are shown read-only with their stored
    values, and a page that leaves them out (as a browser does a disabled box) keeps
    them; a value sent anyway goes to the service, which refuses a change in its words."""

    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    slug = forms.SlugField(
        max_length=80,
        required=False,
        label=gettext_lazy("Address (slug)"),
        help_text=gettext_lazy("blank: keep it"),
    )
    season = forms.CharField(max_length=40, required=False, label=gettext_lazy("Season"))
    points_scale = ScaleField(
        required=False,
        label=gettext_lazy("Points scale"),
        help_text=gettext_lazy("best place first; blank: keep the current scale"),
    )
    best_of = forms.IntegerField(
        min_value=1, max_value=100, required=False, label=gettext_lazy("Best of")
    )
    qualifiers = forms.IntegerField(
        min_value=0, max_value=1000, initial=16, label=gettext_lazy("Qualifiers")
    )
    ties_qualify = forms.BooleanField(
        required=False,
        label=gettext_lazy("Players level with the last qualifier all qualify"),
        help_text=gettext_lazy(
            "level after the countback's steps but the draw; off: the draw decides"
        ),
    )
    carry_over_step = forms.IntegerField(
        min_value=0,
        max_value=500,
        required=False,
        label=gettext_lazy("Carry-over step"),
        help_text=gettext_lazy(
            "the final starts the series leader at 0 and each rank below this many points "
            "more; blank or 0: everyone starts level"
        ),
    )
    wildcard_carry = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        label=gettext_lazy("Carry of other entrants"),
        help_text=gettext_lazy(
            "what an entrant of the final who is not a qualifier carries; blank: the lowest "
            "qualifier's carry"
        ),
    )
    public = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Public"))
    prize_currency = forms.CharField(
        max_length=8,
        required=False,
        label=gettext_lazy("Prize currency"),
        help_text=HELP["prize_currency"],
    )
    prize_ties = forms.ChoiceField(
        choices=PRIZE_TIE_CHOICES,
        required=False,
        label=gettext_lazy("Players tied on every score before the draw"),
    )

    def __init__(
        self,
        *args,
        series: Series | None = None,
        locked: dict[str, str] | None = None,
        **kwargs,
    ) -> None:
        if series is not None:
            kwargs.setdefault("initial", stored_settings(series))
        super().__init__(*args, **kwargs)
        self.locked = {name: why for name, why in (locked or {}).items() if name in self.fields}
        for name in self.locked:
            if not self.is_bound or name not in self.data:
                self.fields[name].disabled = True

    def shown(self) -> list[tuple[forms.BoundField, str]]:
        """Each field with the reason it can no longer change ("": it can)."""
        return [(self[name], self.locked.get(name, "")) for name in self.fields]

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        if data.get("points_scale") is None:
            data.pop("points_scale", None)
        if data.get("carry_over_step") is None:
            data["carry_over_step"] = 0
        for name in ("slug", "prize_ties"):  # blank: as they are
            if not data.get(name):
                data.pop(name, None)
        return data


class NewSeriesForm(SeriesForm):
    """A new series: a blank scale is the default one (the service leaves it unset)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        first = ", ".join(str(points) for points in default_points_scale()[:3])
        self.fields["slug"].required = True
        self.fields["slug"].help_text = ""
        scale = self.fields["points_scale"]
        scale.help_text = _("best place first; blank: the default (%(first)s, ...)") % {
            "first": first
        }


class EventChoiceForm(forms.Form):
    event = forms.SlugField(max_length=80, label=gettext_lazy("Event"))


class FinalForm(EventChoiceForm):
    seed_by = forms.ChoiceField(
        choices=[
            ("series", gettext_lazy("by series rank")),
            (
                "rating",
                gettext_lazy("by rating across events (players not rated yet after the rated)"),
            ),
        ],
        initial="series",
        required=False,
        error_messages={
            "invalid_choice": gettext_lazy(
                "Seed the final by series rank or by rating across events."
            )
        },
    )

    force = forms.BooleanField(
        required=False, label=gettext_lazy("Seed it although a leg is not finished")
    )
    reason = forms.CharField(max_length=300, required=False, label=gettext_lazy("Why"))

    def clean_seed_by(self) -> str:
        return self.cleaned_data.get("seed_by") or "series"
