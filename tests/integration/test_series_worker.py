"""A series' standings rebuilt by a real worker (marker `worker`): closing a leg's last
round is enough, the event standings job and then the series job run in the worker."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from core import background, derived, services
from scoring.models import SeriesStanding
from tests.fixtures import hand_at, make_event, make_round
from tests.processes import Worker, wait_until
from tournaments.models import Entry, Player

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_broker_and_postgres():
    assert settings.CELERY_BROKER_URL, "worker tests need CELERY_BROKER_URL"
    assert connection.vendor == "postgresql", "worker tests need PostgreSQL"
    assert not settings.CELERY_TASK_ALWAYS_EAGER


def test_a_worker_ranks_the_series_once_a_leg_is_final(root):
    series = services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=root)
    event = make_event(slug="leg", rounds_planned=1)
    services.add_leg(series=series, event=event)
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    entries = [Entry.objects.create(event=event, player=p) for p in players]
    round_ = make_round(event, entries=entries)
    table = round_.tables.get()
    worker = Worker("series")
    try:
        for number in range(1, 10):
            services.record_hand(table=table, number=number, entry=hand_at([1, 2, 3, 4]))
        services.close_round(round=round_)
        wait_until(lambda: SeriesStanding.objects.filter(series=series).count() == 4, 15)
        ranked = list(
            SeriesStanding.objects.filter(series=series)
            .order_by("rank")
            .values_list("player__name", "points")
        )
        assert ranked == [("P0", 100), ("P1", 80), ("P2", 65), ("P3", 55)]
        wait_until(lambda: not derived.is_dirty(background.SERIES_STANDINGS, series.pk), 10)
    finally:
        worker.stop()
