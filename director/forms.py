"""The dashboard's small forms: they only turn what was posted into the services'
arguments (an entry of this event, a whole number); the services judge the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core import selectors
from core.services import MAX_SEED
from game.clock import ACTIONS
from tournaments.models import Entry, Event, SeatingPolicy


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return obj.player.name


def entries_field(event: Event, label: str, status: str | None = None) -> EntryChoiceField:
    return EntryChoiceField(
        queryset=selectors.entries_by_name(event, status),
        label=label,
        error_messages={"invalid_choice": _("Choose a player of this event.")},
    )


LEAVE_POINT_HELP = gettext_lazy("The last hand of the set they played (0: before the first).")


class WithdrawForm(forms.Form):
    """Withdraw a player; during a round, after which hand they left their table
    (empty: the last hand entered there)."""

    left_after_hand = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=99,
        label=gettext_lazy("left after hand"),
        help_text=LEAVE_POINT_HELP,
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, _("Withdraw"), Entry.Status.ACTIVE)


class LeavePointForm(forms.Form):
    """Correct after which hand a withdrawn player left their table."""

    left_after_hand = forms.IntegerField(
        min_value=0,
        max_value=99,
        label=gettext_lazy("left after hand"),
        help_text=LEAVE_POINT_HELP,
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, _("Player"), Entry.Status.WITHDRAWN)


class SeedForm(forms.Form):
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED - 1,
        label=pgettext_lazy("draw", "Seed"),
        help_text=gettext_lazy("Leave empty for a fresh random draw."),
    )


class StartRoundForm(SeedForm):
    policy = forms.ChoiceField(required=False, label=gettext_lazy("Seating"))

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if event.rounds.exists():
            default = _("Default (the event's setting)")
        else:
            default = _("Default (random draw for round 1)")
        self.fields["policy"].choices = [("", default), *SeatingPolicy.choices]


class SwapForm(forms.Form):
    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"] = entries_field(event, _("Swap"))
        self.fields["second"] = entries_field(event, _("with"))


class MoveForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=9999, label=gettext_lazy("to table"))

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, _("Move"))


class TableJumpForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=9999, label=gettext_lazy("Table"))


class TableEntryForm(forms.Form):
    table_entry = forms.ChoiceField(
        choices=Event.TableEntry.choices, label=gettext_lazy("Who enters the hands")
    )


class ClockForm(forms.Form):
    """A clock action: the service (and `game.clock`) judge the minutes and the table."""

    action = forms.ChoiceField(
        choices=[(a, a) for a in ACTIONS], label=pgettext_lazy("clock", "Action")
    )
    minutes = forms.IntegerField(required=False, label=gettext_lazy("Minutes"))
    table = forms.IntegerField(
        required=False, min_value=1, max_value=9999, label=gettext_lazy("Table")
    )


class AnnouncementForm(forms.Form):
    text = forms.CharField(max_length=2000, label=gettext_lazy("Announcement"))


class TimeRuleForm(forms.Form):
    time_rule = forms.CharField(max_length=2000, required=False, label=gettext_lazy("At time"))


class LatePlayerForm(forms.Form):
    """A player who arrives late: the service adds them to the registry and the event."""

    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    club = forms.CharField(max_length=120, required=False, label=gettext_lazy("Club"))
    seed_number = forms.IntegerField(
        required=False, min_value=1, max_value=99999, label=gettext_lazy("Seed")
    )


class CheckInForm(forms.Form):
    """The check-in list: the players ticked are present, the others are not; "everyone"
    (the *Everyone is here* button) or "nobody" (*Nobody yet*) ticks or unticks them all."""

    everyone = forms.BooleanField(required=False, label=gettext_lazy("Everyone is here"))
    nobody = forms.BooleanField(required=False, label=gettext_lazy("Nobody yet"))

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"] = forms.ModelMultipleChoiceField(
            queryset=selectors.entries_by_name(event, Entry.Status.ACTIVE),
            required=False,
            label=_("Present"),
            error_messages={"invalid_choice": _("Choose active players of this event.")},
        )

    def clean(self):
        data = super().clean()
        if data.get("everyone"):
            data["present"] = list(self.fields["present"].queryset)
        elif data.get("nobody"):
            data["present"] = []
        return data


class SubstituteForm(forms.Form):
    """A no-show and who replaces them: a new player's name, or a player who withdrew."""

    name = forms.CharField(max_length=120, required=False, label=gettext_lazy("New player"))
    club = forms.CharField(max_length=120, required=False, label=gettext_lazy("Club"))

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, _("No-show"), Entry.Status.ACTIVE)
        self.fields["substitute"] = entries_field(event, _("or"), Entry.Status.WITHDRAWN)
        self.fields["substitute"].required = False

    def clean(self):
        data = super().clean()
        if not data.get("name", "").strip() and not data.get("substitute"):
            raise forms.ValidationError(
                _("Give the substitute: a new player's name, or a player who withdrew.")
            )
        if data.get("name", "").strip() and data.get("substitute"):
            raise forms.ValidationError(_("Give a new player's name or choose one, not both."))
        return data


class DayOptionsForm(forms.Form):
    check_in = forms.BooleanField(
        required=False, label=gettext_lazy("Seat only checked-in players")
    )
    club_avoidance = forms.BooleanField(required=False, label=gettext_lazy("Keep clubs apart"))


def event_help(name: str) -> str:
    """A setting's help, as the model (and so the admin) gives it (worded when shown)."""
    return Event._meta.get_field(name).help_text


OVERCALL_CHOICES = [
    ("", gettext_lazy("as the ruleset says (Jamaica: on, Trinidad: off)")),
    ("on", gettext_lazy("on: an over-call costs the director penalty")),
    ("off", gettext_lazy("off: an over-call costs nothing")),
]


class NewEventForm(forms.Form):
    """A new event's main settings and agreed variants; the service checks them as the
    API does (Trinidad doubling only for a Trinidad set, say)."""

    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    slug = forms.SlugField(max_length=80, label=gettext_lazy("Address (slug)"))
    starts_on = forms.DateField(
        required=False,
        label=gettext_lazy("Starts on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        # As people write a date here: 2026-12-14, 14/12/2026, 14.12.2026, 14 Dec 2026.
        input_formats=["%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y", "%d %b %Y", "%d %B %Y"],
        help_text=gettext_lazy("pick it, or type it as 14/12/2026"),
        error_messages={"invalid": gettext_lazy("Give the date as 14/12/2026 (day, month, year).")},
    )
    venue = forms.CharField(max_length=200, required=False, label=gettext_lazy("Venue"))
    ruleset = forms.ChoiceField(choices=Event.Ruleset.choices, label=gettext_lazy("Ruleset"))
    format = forms.ChoiceField(choices=Event.Format.choices, label=gettext_lazy("Format"))
    rounds_planned = forms.IntegerField(
        min_value=1, max_value=50, initial=3, label=gettext_lazy("Rounds")
    )
    odd_tables = forms.ChoiceField(
        choices=Event.OddTables.choices,
        initial=Event.OddTables.FIVES,
        required=False,
        label=gettext_lazy("When the players do not fill tables of four"),
        help_text=gettext_lazy(
            "22 players: two tables of five and three of four, or two of three and four of four"
        ),
    )
    seating = forms.ChoiceField(
        choices=SeatingPolicy.choices, label=gettext_lazy("Seating from round 2")
    )
    check_in = forms.BooleanField(
        required=False, label=gettext_lazy("Seat only checked-in players")
    )
    club_avoidance = forms.BooleanField(required=False, label=gettext_lazy("Keep clubs apart"))
    # The agreed variants (README, "The agreed variants"): fixed once a hand is recorded.
    # A choice, not a box: a box starts ticked or not whatever the ruleset, so a Trinidad
    # event would be made with the Jamaican penalty unless the director saw to untick it.
    overcall_penalty = forms.TypedChoiceField(
        choices=OVERCALL_CHOICES,
        coerce=lambda value: value == "on",
        empty_value=None,
        required=False,
        initial="",
        label=gettext_lazy("Charge the director penalty for an over-call"),
        help_text=event_help("overcall_penalty"),
    )
    trinidad_doubling = forms.BooleanField(
        required=False,
        label=gettext_lazy("Trinidad doubling on a down and out"),
        help_text=event_help("trinidad_doubling"),
    )
    penalty_per_hand = forms.BooleanField(
        required=False,
        label=gettext_lazy("Penalty amounts may differ by hand"),
        help_text=event_help("penalty_per_hand"),
    )

    SETTINGS = (
        "name",
        "slug",
        "starts_on",
        "venue",
        "ruleset",
        "format",
        "rounds_planned",
        "odd_tables",
        "overcall_penalty",
        "trinidad_doubling",
        "penalty_per_hand",
    )

    def settings(self) -> dict:
        data = {name: self.cleaned_data[name] for name in self.SETTINGS}
        data["seating"] = self.cleaned_data["seating"]
        if data["starts_on"] is None:
            del data["starts_on"]
        if data["overcall_penalty"] is None:
            del data["overcall_penalty"]  # as the ruleset says: the service knows it
        data["odd_tables"] = data["odd_tables"] or Event.OddTables.FIVES
        return data
