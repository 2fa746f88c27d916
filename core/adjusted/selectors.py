"""A table's adjusted scores as the pages and the API show them."""

from __future__ import annotations

from core.words import translated
from game.adjusted import words
from scoring.models import AdjustedScore
from tournaments.models import Table


def table_adjusted(table: Table) -> list[dict]:
    """The table's adjusted scores once its round is closed, by hand then seat: each
    {"hand", "seat", "score", "at_fault", "rule", "words"}: 1 query."""
    rows = (
        AdjustedScore.objects.filter(seat__table=table)
        .order_by("number", "seat__position")
        .values_list("number", "seat__position", "score", "at_fault", "rule")
    )
    return [
        {
            "hand": number,
            "seat": position,
            "score": score,
            "at_fault": at_fault,
            "rule": rule,
            "words": translated(words(number, score, rule)),
        }
        for number, position, score, at_fault, rule in rows
    ]
