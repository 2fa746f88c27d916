"""House rules: define a custom ruleset, change it, and freeze it into an event.

A custom ruleset is defined once and used by many events. An event plays to the
ruleset's values as they are when its first hand is recorded: `freeze_house_rules`
copies them onto the event then (`Event.frozen_ruleset`), so a later edit of the
ruleset changes the events still to come and never a result already played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from core.common import full_clean_or_raise, with_history_user
from core.errors import Forbidden, InvalidInput
from core.locks import for_request
from core.series.selectors import can_change_ruleset
from core.words import translated
from game.rulesets import check_house
from tournaments.models import Event, HouseRuleset

HOUSE_FIELDS = ("slug", "name", *HouseRuleset.VALUE_FIELDS)


def check_house_data(data: Mapping[str, Any], current: HouseRuleset | None = None) -> None:
    unknown = sorted(set(data) - set(HOUSE_FIELDS))
    if unknown:
        raise InvalidInput({name: [_("This is not a ruleset setting.")] for name in unknown})
    values = current.values() if current is not None else HouseRuleset().values()
    values.update({k: v for k, v in data.items() if k in HouseRuleset.VALUE_FIELDS})
    problems = check_house(values)
    if problems:
        raise InvalidInput({field: [in_words(why)] for field, why in problems.items()})


def in_words(why: str) -> str:
    """The rules engine's reason as a sentence, in the reader's language. One that says
    what to do ("give 1 to 20 hands") or names its hand ("hand 3: deal 5 to 20 cards,
    not 30") is one already; a bare value ("0 to 8 jokers per pack") is what to give."""
    said = translated(why)
    if not why.startswith(("give ", "hand ")):
        return _("Give %(what)s.") % {"what": said}
    return f"{said[0].upper()}{said[1:]}."


@transaction.atomic
def create_house_ruleset(
    *, data: Mapping[str, Any], by: AbstractBaseUser | None = None
) -> HouseRuleset:
    """Define a custom ruleset; whoever defines it may change it."""
    check_house_data(data)
    ruleset = HouseRuleset(**data)
    full_clean_or_raise(ruleset)
    with_history_user(ruleset, by).save()
    if by is not None and by.is_authenticated:
        ruleset.owners.add(by)
    return ruleset


@for_request("event")
def update_house_ruleset(
    *, ruleset: HouseRuleset, data: Mapping[str, Any], by: AbstractBaseUser | None = None
) -> HouseRuleset:
    """Change a custom ruleset (only who defined it, or a superuser: `by` None is a job
    or the shell): the events that have recorded a hand keep the values they froze; the
    others play to the new ones."""
    if by is not None and not can_change_ruleset(by, ruleset):
        raise Forbidden(_("Only who defined this ruleset may change it."), field="slug")
    ruleset = HouseRuleset.objects.select_for_update().get(pk=ruleset.pk)
    check_house_data(data, ruleset)
    for field, value in data.items():
        setattr(ruleset, field, value)
    full_clean_or_raise(ruleset)
    with_history_user(ruleset, by).save()
    return ruleset


def may_need_freezing(event: Event) -> bool:
    """Whether `freeze_house_rules` may have anything to do for this row of the event:
    a custom ruleset whose values are not frozen yet (once frozen, they stay)."""
    return (
        event.ruleset == Event.Ruleset.CUSTOM
        and not event.frozen_ruleset
        and event.custom_ruleset_id is not None
    )


def freeze_house_rules(*, event_id: int) -> None:
    """Copy the custom ruleset's values onto the event, unless done already: called in
    the transaction that records a hand, before the table's lock is taken (the event's
    row lock comes first). Cheap once frozen: one read."""
    found = (
        Event.objects.filter(pk=event_id, ruleset=Event.Ruleset.CUSTOM, frozen_ruleset__isnull=True)
        .values_list("pk", flat=True)
        .first()
    )
    if found is None:
        return
    event = Event.objects.select_for_update().get(pk=event_id)
    if event.frozen_ruleset or event.custom_ruleset_id is None:
        return
    # The ruleset's row is locked too, so an edit committing meanwhile is either wholly
    # before the freeze or wholly after it.
    ruleset = HouseRuleset.objects.select_for_update().get(pk=event.custom_ruleset_id)
    Event.objects.filter(pk=event_id).update(frozen_ruleset=ruleset.values())
