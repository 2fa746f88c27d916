"""The standings API's rows represented once: at a new version a row the same as at the
last (or the same but for its place: a player others passed) reuses its representation,
and the whole list is what the serializer makes afresh."""

from __future__ import annotations

import pytest
from django.utils import translation

from api import standings as api
from api.scoring_serializers import StandingSerializer, StandingsSerializer
from core import services
from core.standings.selectors import standings_after
from game.rules import HandEntry, SeatEntry
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def save(event: Event, table: int, points: tuple[int, int, int], version=None) -> Event:
    scores = tuple(SeatEntry(seat=s, points=p) for s, p in zip((2, 3, 4), points, strict=True))
    entry = HandEntry(went_out=1, scores=(SeatEntry(seat=1, points=0), *scores))
    round_ = event.rounds.get()
    services.record_hand(
        table=round_.tables.get(number=table), number=1, entry=entry, expected_version=version
    )
    services.refresh_standings(event=Event.objects.get(pk=event.pk))
    return Event.objects.get(pk=event.pk)


def test_only_the_rows_that_changed_are_represented_again(monkeypatch):
    event = make_event(format="total")
    make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    for table in (1, 2, 3):
        event = save(event, table, (10, 20, 30 + table))
    with translation.override("en"):
        api.represented(event, None, standings_after(event))
        event = save(event, 3, (10, 20, 5), version=1)  # 5, not 33: past five players
        calls = []
        real = StandingSerializer.to_representation
        monkeypatch.setattr(
            StandingSerializer,
            "to_representation",
            lambda self, row: calls.append(row.player.id) or real(self, row),
        )
        standings = standings_after(event)
        data = api.represented(event, None, standings)
        mover = event.rounds.get().tables.get(number=3).seats.get(position=4).entry.player_id
        assert calls == [mover]  # the players passed only moved
        monkeypatch.setattr(StandingSerializer, "to_representation", real)
        assert data == StandingsSerializer(standings).data  # as made afresh
        assert [row["rank"] for row in data["standings"]] == list(range(1, 13))
