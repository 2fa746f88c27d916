"""Which of an event's settings can no longer change, and why, in the words the
settings page shows beside each one. The update service refuses the same changes
(core.events.services.check_update); this says so before the director tries."""

from __future__ import annotations

from core.events.services import FROZEN_FIELDS, SCORING_FIELDS, house_settings
from core.hands.selectors import event_has_hands
from tournaments.models import PLAYED_ROUND_STATUSES, Event, Round


def locked_settings(event: Event) -> dict[str, str]:
    """Each setting that cannot change now, with the reason. 3 queries at most."""
    locked: dict[str, str] = {}
    rounds = list(event.rounds.order_by("number").values_list("number", "status"))
    if rounds:
        locked["slug"] = (
            "It is in the address of the event's pages and of the QR codes printed on its "
            "score sheets, so it stays as it is once a round has started."
        )
    closed = [number for number, status in rounds if status == Round.Status.CLOSED]
    if closed:
        held = f"round {closed[0]}" if len(closed) == 1 else f"rounds {closed[0]} to {closed[-1]}"
        for name in FROZEN_FIELDS:
            locked[name] = (
                f"Played results stay as they were ranked: {held} closed with this setting."
            )
    if event.format == Event.Format.KNOCKOUT and any(
        status in PLAYED_ROUND_STATUSES for _, status in rounds
    ):
        locked.setdefault(
            "format", "A knockout stays one once a round is played: who went through seats it."
        )
    if rounds and event_has_hands(event):
        for name in SCORING_FIELDS:
            locked[name] = "Hands have been recorded with it: it stays as they were played."
    for name in house_settings(event):
        locked.setdefault(
            name,
            f"The house rules ({event.house_values['name']}) set it; change them there, or "
            "play a built-in ruleset.",
        )
    return locked
