"""An event's derived identity (game.identity): the migration gave existing events
theirs with it, and old archives are given theirs with it, so it must never change."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from game.identity import derived_uid, new_uid

MADE = datetime(2026, 3, 1, 18, 30, 15, 123456, tzinfo=timezone.utc)


def test_the_derivation_is_fixed_for_good():
    assert derived_uid(MADE, "ab" * 32) == uuid.UUID("2c3f7291-ba96-575b-b7df-39fc925d882a")
    # The oldest events' seeds were numbers, written as text since.
    assert derived_uid(MADE.replace(microsecond=0), 0) == uuid.UUID(
        "8d39cc1c-af04-5909-9283-cfad3dc74bc5"
    )
    assert derived_uid(MADE, 0) == derived_uid(MADE, "0")


def test_the_same_moment_in_any_time_zone_is_the_same_event():
    jamaica = timezone(timedelta(hours=-5))
    assert derived_uid(MADE.astimezone(jamaica), "ab" * 32) == derived_uid(MADE, "ab" * 32)


def test_another_moment_or_seed_is_another_event():
    later = MADE + timedelta(microseconds=1)
    assert len({derived_uid(MADE, "a"), derived_uid(later, "a"), derived_uid(MADE, "b")}) == 3


def test_a_new_event_gets_a_random_identity():
    assert new_uid() != new_uid() and new_uid().version == 4
