"""Which of an event's settings can no longer change, and why, in the words the
settings page shows beside each one. The update service refuses the same changes
(core.events.services.check_update); this says so before the director tries."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.events.services import FROZEN_FIELDS, SCORING_FIELDS, house_settings
from core.hands.selectors import event_has_hands
from tournaments.models import PLAYED_ROUND_STATUSES, Event, Round


def locked_settings(event: Event) -> dict[str, str]:
    """Each setting that cannot change now, with the reason. 3 queries at most."""
    locked: dict[str, str] = {}
    rounds = list(event.rounds.order_by("number").values_list("number", "status"))
    if rounds:
        locked["slug"] = _(
            "It is in the address of the event's pages and of the QR codes printed on its "
            "score sheets, so it stays as it is once a round has started."
        )
    closed = [number for number, status in rounds if status == Round.Status.CLOSED]
    if closed:
        if len(closed) == 1:
            held = _(
                "Played results stay as they were ranked: round %(round)s closed with this setting."
            ) % {"round": closed[0]}
        else:
            held = _(
                "Played results stay as they were ranked: rounds %(first)s to %(last)s "
                "closed with this setting."
            ) % {"first": closed[0], "last": closed[-1]}
        for name in FROZEN_FIELDS:
            locked[name] = held
    if event.format == Event.Format.KNOCKOUT and any(
        status in PLAYED_ROUND_STATUSES for _, status in rounds
    ):
        locked.setdefault(
            "format",
            _("A knockout stays one once a round is played: who went through seats it."),
        )
    if rounds and event_has_hands(event):
        for name in SCORING_FIELDS:
            locked[name] = _("Hands have been recorded with it: it stays as they were played.")
    for name in house_settings(event):
        locked.setdefault(
            name,
            _("The house rules (%(name)s) set it; change them there, or play a built-in ruleset.")
            % {"name": event.house_values["name"]},
        )
    return locked
