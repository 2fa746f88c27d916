"""The settings pages' forms: an event's every setting, grouped as a director thinks
of them, and a prize table edited as rows. They turn what was typed into the
services' values; the services judge the rest, and their refusals are shown beside
the field they name."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from game import prizes as game_prizes
from game.ranking import TIEBREAKS
from tournaments.models import Event, HouseRuleset

# The event settings page, section by section: (title, fields).
EVENT_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The event", ("name", "slug", "starts_on", "venue", "public", "language")),
    (
        "The game",
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
        "The deck and penalties",
        (
            "packs",
            "jokers",
            "director_penalty",
            "overcall_penalty",
            "trinidad_doubling",
            "penalty_per_hand",
        ),
    ),
    ("Time", ("round_minutes", "time_rule")),
    ("Seating", ("seating", "odd_tables", "check_in", "club_avoidance")),
    ("Who enters the hands", ("table_entry",)),
    ("Prizes", ("prize_currency", "prize_ties")),
)
EVENT_SETTINGS = tuple(name for _, names in EVENT_GROUPS for name in names)

LABELS = {
    "slug": "Address (slug)",
    "starts_on": "Starts on",
    "public": "Public: anyone may follow it",
    "language": "Default language",
    "custom_ruleset": "House rules",
    "rounds_planned": "Rounds",
    "table_points": "Table points",
    "advance_per_table": "Through from each table (knockout)",
    "even_knockout_places": "Even places at tables of three and five (knockout)",
    "packs": "Packs",
    "jokers": "Jokers",
    "director_penalty": "Director penalty (points)",
    "overcall_penalty": "Charge the director penalty for an over-call",
    "trinidad_doubling": "Trinidad doubling on a down and out",
    "penalty_per_hand": "Penalty amounts may differ by hand",
    "round_minutes": "Minutes per round",
    "time_rule": "At time",
    "seating": "Seating from round 2",
    "odd_tables": "When the players do not fill tables of four",
    "check_in": "Seat only checked-in players",
    "club_avoidance": "Keep clubs apart",
    "table_entry": "Who enters the hands",
    "prize_currency": "Currency",
    "prize_ties": "Players tied on every score before the draw",
}
HELP = {
    "table_points": "Placement points per table, best place first: 4, 2, 1, 0 (ties share).",
    "tiebreaks": "In order, separated by commas; the seeded draw always ends it. Known: "
    + ", ".join(TIEBREAKS)
    + ".",
    "time_rule": "What happens when the clock runs out, as the players read it.",
    "prize_currency": "As it is written before an amount: J$, TT$, US$.",
    "language": "Of its pages, for a reader who has not chosen one and whose browser "
    "asks for none the site has.",
    "round_minutes": "A round's time on the clock unless the director starts it with another.",
}
PRIZE_TIE_CHOICES = [
    (game_prizes.DRAW, "take their places as the seeded draw orders them"),
    (game_prizes.SHARE, "share the amounts of the places they cover"),
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
            raise forms.ValidationError(f"Write it as {self.example}.") from error


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

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in EVENT_GROUPS]


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
            error_messages={"invalid": "Give the date as 14/12/2026 (day, month, year)."},
        )
    elif name in ("check_in", "club_avoidance"):
        field = forms.BooleanField(required=False)
    elif name == "custom_ruleset":
        field = forms.ModelChoiceField(
            queryset=HouseRuleset.objects.order_by("name"),
            required=False,
            empty_label="none: the ruleset above",
            error_messages={"invalid_choice": "Choose house rules from the list."},
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
    return values


class PrizeRowForm(forms.Form):
    """One place of a prize table: its amount typed as people type it (50,000,
    J$50,000, 50000.00), an item, or both. A blank row is left out."""

    place = forms.IntegerField(
        min_value=1, max_value=game_prizes.MAX_PLACES, required=False, label="Place"
    )
    amount = forms.CharField(max_length=40, required=False, label="Amount")
    item = forms.CharField(max_length=200, required=False, label="Item")

    def clean_amount(self) -> Decimal | None:
        text = self.cleaned_data["amount"].strip()
        if not text:
            return None
        try:
            return game_prizes.parse_amount(text)
        except ValueError:
            raise forms.ValidationError(
                f"{text!r} is not an amount: write it as 50,000 or J$50,000.00."
            ) from None

    def clean(self):
        data = super().clean()
        given = data.get("amount") is not None or data.get("item", "").strip()
        if given and data.get("place") is None and "place" not in self.errors:
            self.add_error("place", "Give the place this prize is for.")
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
            box = f", {field.label.lower()}" if field is not None else ""
            found.extend(f"Prize row {i}{box}: {text}" for text in texts)
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
