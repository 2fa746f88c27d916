"""A hand the players entered and confirmed reaches the standings through a real
`celery worker` (marker `worker`: Redis and PostgreSQL), as a director's entry does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from core import services
from core.errors import TooManyAttempts
from core.table_entry import codes
from scoring.models import Standing
from tests.fixtures import codes_of, hand, make_world
from tests.processes import ROOT, Worker, wait_until
from tournaments.models import Event

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_confirmed_hand_changes_the_standings_within_five_seconds():
    w = make_world(table_entry=Event.TableEntry.PLAYERS)
    seated = codes_of(w.round)
    worker = Worker("table-entry")
    try:
        services.propose_hand(
            table=w.table, number=1, entry=hand(2, 4), code=seated[(1, 1)], client="c"
        )
        services.confirm_proposal(table=w.table, number=1, code=seated[(1, 3)], client="c")
        took = wait_until(lambda: Standing.objects.filter(round=w.round, points=13).exists(), 5)
        assert took < 5
        points = dict(
            Standing.objects.filter(round=w.round, entry__seats__table=w.table).values_list(
                "entry__seats__position", "points"
            )
        )
        assert points == {1: 11, 2: 0, 3: 13, 4: 14}
    finally:
        worker.stop()


def test_wrong_codes_are_counted_across_web_processes(settings):
    """Two other processes (as two web workers would) each count wrong codes from one
    address in the shared cache; a third then refuses that address."""
    assert settings.CACHE_URL, "the shared cache is Redis (CACHE_URL) in these runs"
    settings.TABLE_CODE_ATTEMPTS = 6
    count = (
        "from core.table_entry import codes\nfor _ in range(3): codes.count_wrong('203.0.113.9')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kalooki_site.settings_test"}
    for _ in range(2):
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", count], cwd=ROOT, env=env, check=True
        )
    with pytest.raises(TooManyAttempts):
        codes.check_allowed("203.0.113.9")
    codes.check_allowed("203.0.113.10")  # another address is not affected
