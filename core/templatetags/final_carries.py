"""{% load final_carries %}: where each entrant's carry into a series' final comes from,
for the final's field on its public page (`templates/public/_field.html`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.translation import gettext as _

from core.series.final import entrant_carries
from core.series.selectors import seeded_final_of
from tournaments.models import Entry, Event

register = template.Library()


@register.simple_tag
def carry_sources(event: Event, rows: Iterable[Any]) -> dict[int, str]:
    """player -> where their carry comes from, in words (`entrant_carries`): a
    qualifier's series rank, a player level but for the draw carrying the rank above's,
    a wildcard's or a reserve's carry as the series sets it. A carry the series would no
    longer give (it changed after the final was seeded) is said to be as entered, with
    what the series would give now. 3 queries; 1 for an event that is no seeded final."""
    series = seeded_final_of(event)
    if series is None:
        return {}
    rows = list(rows)
    # `entrant_carries` reads each entry's player alone: the rows' players will do.
    carries = entrant_carries(series, [Entry(player_id=row.player) for row in rows])
    found = {}
    for row in rows:
        carried, why = carries[row.player]
        if carried != row.carried:  # out of step: what it carries is not the series' word
            why = _("as entered; the series would now give %(carry)s") % {"carry": carried}
        found[row.player] = why
    return found


@register.simple_tag
def carry_source(sources: dict[int, str], row: Any) -> str:
    """One row's words from `carry_sources` ("" when none)."""
    return sources.get(row.player, "")
