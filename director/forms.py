"""The dashboard's small forms: they only turn what was posted into the services'
arguments (an entry of this event, a whole number); the services judge the rest."""

from __future__ import annotations

from django import forms

from core.services import MAX_SEED
from game.clock import ACTIONS
from tournaments.models import Entry, Event, SeatingPolicy


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return obj.player.name


def entries_field(event: Event, label: str, status: str | None = None) -> EntryChoiceField:
    entries = Entry.objects.filter(event=event).select_related("player")
    if status is not None:
        entries = entries.filter(status=status)
    return EntryChoiceField(
        queryset=entries.order_by("player__name", "pk"),
        label=label,
        error_messages={"invalid_choice": "Choose a player of this event."},
    )


LEAVE_POINT_HELP = "The last hand of the set they played (0: before the first)."


class WithdrawForm(forms.Form):
    """Withdraw a player; during a round, after which hand they left their table
    (empty: the last hand entered there)."""

    left_after_hand = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=99,
        label="left after hand",
        help_text=LEAVE_POINT_HELP,
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, "Withdraw", Entry.Status.ACTIVE)


class LeavePointForm(forms.Form):
    """Correct after which hand a withdrawn player left their table."""

    left_after_hand = forms.IntegerField(
        min_value=0, max_value=99, label="left after hand", help_text=LEAVE_POINT_HELP
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, "Player", Entry.Status.WITHDRAWN)


class SeedForm(forms.Form):
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED - 1,
        help_text="Leave empty for a fresh random draw.",
    )


class StartRoundForm(SeedForm):
    policy = forms.ChoiceField(required=False, label="Seating")

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        default = "the event's setting" if event.rounds.exists() else "random draw for round 1"
        self.fields["policy"].choices = [("", f"Default ({default})"), *SeatingPolicy.choices]


class SwapForm(forms.Form):
    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"] = entries_field(event, "Swap")
        self.fields["second"] = entries_field(event, "with")


class MoveForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=9999, label="to table")

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = entries_field(event, "Move")


class TableJumpForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=9999, label="Table")


class TableEntryForm(forms.Form):
    table_entry = forms.ChoiceField(choices=Event.TableEntry.choices, label="Who enters the hands")


class ClockForm(forms.Form):
    """A clock action: the service (and `game.clock`) judge the minutes and the table."""

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    minutes = forms.IntegerField(required=False, label="Minutes")
    table = forms.IntegerField(required=False, min_value=1, max_value=9999, label="Table")


class AnnouncementForm(forms.Form):
    text = forms.CharField(max_length=2000, label="Announcement")


class TimeRuleForm(forms.Form):
    time_rule = forms.CharField(max_length=2000, required=False, label="At time")
