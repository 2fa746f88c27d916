"""Players' personal codes: every player seated in a published round has one for that
round (`core.codes` says what a code looks like and how wrong ones are limited)."""

from __future__ import annotations

from django.db import transaction

from core.codes import new_code
from tournaments.models import PlayerCode, Round, Seat


@transaction.atomic
def issue_codes(*, round: Round) -> int:
    """Give each player seated in `round` who has no code for it yet their own code
    (publishing a round does this; so does seating a player into a round in play).
    Codes already given never change. Returns how many were issued."""
    seated = set(Seat.objects.filter(round=round).values_list("entry_id", flat=True))
    given = dict(PlayerCode.objects.filter(round=round).values_list("entry_id", "code"))
    taken = set(given.values())
    issued = []
    for entry_id in sorted(seated - set(given)):
        code = new_code()
        while code in taken:  # about one chance in a billion per code
            code = new_code()
        taken.add(code)
        issued.append(PlayerCode(round=round, entry_id=entry_id, code=code))
    PlayerCode.objects.bulk_create(issued)
    return len(issued)
