"""The settings pages' forms: an event's every setting, grouped as a director thinks
of them, and a prize table edited as rows. They turn what was typed into the
services' values; the services judge the rest, and their refusals are shown beside
the field they name."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game import prizes as game_prizes
from game.ranking import TIEBREAKS
from tournaments.models import Event, HouseRuleset

# The event settings page, section by section: (title, fields).
EVENT_GROUPS: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (gettext_lazy("The event"), ("name", "slug", "starts_on", "venue", "public", "language")),
    (
        gettext_lazy("The game"),
        (
            "ruleset",
            "custom_ruleset",
            "format",
            "rounds_planned",
            "table_points",
            "advance_per_table",
            "even_knockout_places",
            "tiebreaks",
        ),
    ),
    (
        gettext_lazy("The deck and penalties"),
        (
            "packs",
            "jokers",
            "director_penalty",
            "overcall_penalty",
            "trinidad_doubling",
            "penalty_per_hand",
        ),
    ),
    (gettext_lazy("Time"), ("round_minutes", "time_rule")),
    (gettext_lazy("Seating"), ("seating", "odd_tables", "check_in", "club_avoidance")),
    (gettext_lazy("Who enters the hands"), ("table_entry",)),
    (gettext_lazy("Prizes"), ("prize_currency", "prize_ties")),
)
EVENT_SETTINGS = tuple(name for title, names in EVENT_GROUPS for name in names)

LABELS = {
    "name": gettext_lazy("Name"),
    "venue": gettext_lazy("Venue"),
    "ruleset": gettext_lazy("Ruleset"),
    "format": gettext_lazy("Format"),
    "tiebreaks": gettext_lazy("Tiebreaks"),
    "slug": gettext_lazy("Address (slug)"),
    "starts_on": gettext_lazy("Starts on"),
    "public": gettext_lazy("Public: anyone may follow it"),
    "language": gettext_lazy("Default language"),
    "custom_ruleset": gettext_lazy("House rules"),
    "rounds_planned": gettext_lazy("Rounds"),
    "table_points": gettext_lazy("Table points"),
    "advance_per_table": gettext_lazy("Through from each table (knockout)"),
    "even_knockout_places": gettext_lazy("Even places at tables of three and five (knockout)"),
    "packs": gettext_lazy("Packs"),
    "jokers": gettext_lazy("Jokers"),
    "director_penalty": gettext_lazy("Director penalty (points)"),
    "overcall_penalty": gettext_lazy("Charge the director penalty for an over-call"),
    "trinidad_doubling": gettext_lazy("Trinidad doubling on a down and out"),
    "penalty_per_hand": gettext_lazy("Penalty amounts may differ by hand"),
    "round_minutes": gettext_lazy("Minutes per round"),
    "time_rule": gettext_lazy("At time"),
    "seating": gettext_lazy("Seating from round 2"),
    "odd_tables": gettext_lazy("When the players do not fill tables of four"),
    "check_in": gettext_lazy("Seat only checked-in players"),
    "club_avoidance": gettext_lazy("Keep clubs apart"),
    "table_entry": gettext_lazy("Who enters the hands"),
    "prize_currency": gettext_lazy("Currency"),
    "prize_ties": gettext_lazy("Players tied on every score before the draw"),
}


def tiebreaks_help() -> str:
    return _("In order, separated by commas; the seeded draw always ends it. Known: %(known)s.") % {
        "known": ", ".join(TIEBREAKS)
    }


HELP = {
    "table_points": gettext_lazy(
        "Placement points per table, best place first: 4, 2, 1, 0 (ties share)."
    ),
    "tiebreaks": lazy(tiebreaks_help, str)(),
    "time_rule": gettext_lazy("What happens when the clock runs out, as the players read it."),
    "prize_currency": gettext_lazy("As it is written before an amount: J$, TT$, US$."),
    "language": gettext_lazy(
        "Of its pages, for a reader who has not chosen one and whose browser asks for none the "
        "site has."
    ),
    "round_minutes": gettext_lazy(
        "A round's time on the clock unless the director starts it with another."
    ),
}
PRIZE_TIE_CHOICES = [
    (game_prizes.DRAW, gettext_lazy("take their places as the seeded draw orders them")),
    (game_prizes.SHARE, gettext_lazy("share the amounts of the places they cover")),
]


class ListField(forms.CharField):
    """A list typed as "4, 2, 1, 0"; `item` turns each part into its value."""

    def __init__(self, *, item=str, example: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.item, self.example = item, example

    def prepare_value(self, value):
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value):
        text = super().to_python(value)
        try:
            return [self.item(p.strip()) for p in text.replace(";", ",").split(",") if p.strip()]
        except ValueError as error:
            raise forms.ValidationError(
                _("Write it as %(example)s.") % {"example": self.example}
            ) from error


def model_field(name: str) -> forms.Field:
    return Event._meta.get_field(name).formfield()


class EventSettingsForm(forms.Form):
    """Every setting of an event (the API's, check-in and club avoidance included), with
    its value now; `changed_settings` gives the service only what the director changed,
    so a setting that can no longer change is never sent back."""

    def __init__(self, *args, event: Event, locked: dict[str, str], **kwargs) -> None:
        super().__init__(*args, initial=initial_settings(event), **kwargs)
        self.event, self.locked = event, locked
        for name in EVENT_SETTINGS:
            self.fields[name] = settings_field(name)
        for name in locked:
            if name in self.fields:
                self.fields[name].disabled = True

    def changed_settings(self) -> dict:
        data = {}
        for name in EVENT_SETTINGS:
            value = self.cleaned_data.get(name)
            if name == "custom_ruleset":
                stored = self.event.custom_ruleset
            else:
                stored = getattr(self.event, name)
            if value != stored:
                data[name] = value
        return data

    def groups(self) -> list[tuple[str, list[tuple[forms.BoundField, str]], bool]]:
        """Each section: its title, its fields each with the reason it can no longer
        change ("": it can), and whether the prize table's rows follow."""
        return [
            (
                title,
                [(self[name], self.locked.get(name, "")) for name in names],
                "prize_currency" in names,
            )
            for title, names in EVENT_GROUPS
        ]


def settings_field(name: str) -> forms.Field:
    if name == "table_points":
        field = ListField(item=int, example="4, 2, 1, 0")
    elif name == "tiebreaks":
        field = ListField(example="points, hands_won, penalty_points, best_set, draw")
    elif name == "starts_on":
        field = forms.DateField(
            required=False,
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            input_formats=["%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y", "%d %b %Y"],
            error_messages={
                "invalid": gettext_lazy("Give the date as 14/12/2026 (day, month, year).")
            },
        )
    elif name in ("check_in", "club_avoidance"):
        field = forms.BooleanField(required=False)
    elif name == "custom_ruleset":
        field = forms.ModelChoiceField(
            queryset=HouseRuleset.objects.order_by("name"),
            required=False,
            empty_label=gettext_lazy("none: the ruleset above"),
            error_messages={"invalid_choice": gettext_lazy("Choose house rules from the list.")},
        )
    elif name == "prize_ties":
        field = forms.ChoiceField(choices=PRIZE_TIE_CHOICES)
    elif name == "time_rule":
        field = forms.CharField(
            max_length=300, required=False, widget=forms.Textarea(attrs={"rows": 2})
        )
    else:
        field = model_field(name)
    field.label = LABELS.get(name, field.label)
    help_text = HELP.get(name) or str(Event._meta.get_field(name).help_text or "")
    field.help_text = help_text
    return field


def initial_settings(event: Event) -> dict:
    values = {name: getattr(event, name) for name in EVENT_SETTINGS if name != "custom_ruleset"}
    values["custom_ruleset"] = event.custom_ruleset_id
    values["time_rule"] = event.time_rule_text  # the default in the reader's words
    return values


class PrizeRowForm(forms.Form):
    """One place of a prize table: its amount typed as people type it (50,000,
    J$50,000, 50000.00), an item, or both. A blank row is left out."""

    place = forms.IntegerField(
        min_value=1, max_value=game_prizes.MAX_PLACES, required=False, label=gettext_lazy("Place")
    )
    amount = forms.CharField(max_length=40, required=False, label=gettext_lazy("Amount"))
    item = forms.CharField(max_length=200, required=False, label=gettext_lazy("Item"))

    def clean_amount(self) -> Decimal | None:
        text = self.cleaned_data["amount"].strip()
        if not text:
            return None
        try:
            return game_prizes.parse_amount(text)
        except ValueError:
            raise forms.ValidationError(
                _("%(text)s is not an amount: write it as 50,000 or J$50,000.00.")
                % {"text": repr(text)}
            ) from None

    def clean(self):
        data = super().clean()
        given = data.get("amount") is not None or data.get("item", "").strip()
        if given and data.get("place") is None and "place" not in self.errors:
            self.add_error("place", _("Give the place this prize is for."))
        return data


PrizeRows = forms.formset_factory(PrizeRowForm, extra=3, max_num=game_prizes.MAX_PLACES)


def prize_rows(data, prizes: list[dict]) -> forms.BaseFormSet:
    """The prize table's rows as stored, and three blank ones to add places."""
    initial = [
        {"place": p["place"], "amount": shown_amount(p["amount"]), "item": p["item"]}
        for p in prizes
    ]
    return PrizeRows(data, initial=initial, prefix="prize")


def prize_row_errors(rows: forms.BaseFormSet) -> list[str]:
    """Each row's refusals as a sentence naming the row and the box."""
    found = []
    for i, errors in enumerate(rows.errors, start=1):
        for name, texts in errors.items():
            field = rows.forms[i - 1].fields.get(name)
            for text in texts:
                values = {"row": i, "text": text}
                if field is not None:
                    values["box"] = str(field.label).lower()
                    found.append(_("Prize row %(row)s, %(box)s: %(text)s") % values)
                else:
                    found.append(_("Prize row %(row)s: %(text)s") % values)
    return found


def shown_amount(stored: str) -> str:
    """A stored amount as the row shows it: 50,000.00 (blank: an item alone)."""
    amount = Decimal(stored)
    return f"{amount:,.2f}" if amount else ""


def prizes_from_rows(rows: forms.BaseFormSet) -> list[dict]:
    """The prize table the rows give (blank rows left out), as the service takes it."""
    table = []
    for row in rows:
        data = row.cleaned_data
        if data.get("place") is None:
            continue
        amount = data.get("amount") or Decimal(0)
        cents = amount.quantize(game_prizes.CENT)
        table.append(
            {
                "place": data["place"],
                # As stored (50000.00); more decimals are left for the service to refuse.
                "amount": str(cents if cents == amount else amount),
                "item": data.get("item", "").strip(),
            }
        )
    return sorted(table, key=lambda p: p["place"])
