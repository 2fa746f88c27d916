"""On SQLite a service's write can be refused for a moment while another connection reads
the same table (the venue's phones and screens poll while the director saves): the
service's transaction, rolled back whole, runs again before the refusal is answered as
busy (core.locks.for_request)."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from core import locks
from tests.conftest import on_postgres
from tournaments.models import Player

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(on_postgres(), reason="PostgreSQL answers a lock wait as busy at once"),
]


def refused(times: int, error: str = "database table is locked: tournaments_event"):
    """A service that writes a player, then is refused `times` times before it is not."""
    calls = []

    @locks.for_request("event")
    def service(name: str) -> Player:
        calls.append(name)
        player = Player.objects.create(name=f"{name} {len(calls)}")
        if len(calls) <= times:
            raise OperationalError(error)
        return player

    return service, calls


def test_a_write_refused_for_a_locked_table_is_run_again_and_written_once():
    service, calls = refused(2)
    player = service("Andre")
    assert len(calls) == 3
    # The refused attempts were rolled back whole: only the third one's write is kept.
    assert list(Player.objects.values_list("name", flat=True)) == ["Andre 3"] == [player.name]


def test_a_lock_that_stays_and_other_failures_are_not_tried_again():
    service, calls = refused(locks.SQLITE_TRIES, "database is locked")
    with pytest.raises(OperationalError):
        service("Beverley")
    assert len(calls) == locks.SQLITE_TRIES
    service, calls = refused(1, "no such table: nowhere")
    with pytest.raises(OperationalError):
        service("Carl")
    assert len(calls) == 1
    assert not Player.objects.exists()
