"""The demo circuit `make demo` loads: three finished legs sharing players, the series
standings ranked, and a final taking entries with the qualifiers seeded by rank."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.models import PlayerRating, RatedRound, SeriesStanding
from tournaments.models import Entry, Event, Series

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_circuit_has_three_finished_legs_and_a_final_taking_entries(root):
    out = io.StringIO()
    call_command("demo_series", "--organiser", root.username, stdout=out)
    series = Series.objects.get(slug="jamaica-circuit")
    legs = list(series.legs.order_by("starts_on"))
    assert [leg.status for leg in legs] == [Event.Status.FINISHED] * 3
    assert len({leg.venue for leg in legs}) == 3
    rows = list(SeriesStanding.objects.filter(series=series).select_related("player"))
    rows.sort(key=lambda r: r.rank)
    assert len(rows) > 16 and any(r.events_played == 3 for r in rows)
    names = [r.player.name for r in rows]
    assert len(set(names)) == len(names)  # one name, one player: the board reads true
    assert any(not r["counted"] for row in rows for r in row.results)  # best 2 of 3
    final = series.final
    assert final.status == Event.Status.REGISTRATION
    seeded = list(Entry.objects.filter(event=final).order_by("seed_number"))
    assert [e.player_id for e in seeded] == [r.player_id for r in rows if r.qualified]
    assert len(seeded) == 8
    assert series.organisers.get() == root
    # The legs' rounds are rated: a player of all three legs has six rated sets.
    assert RatedRound.objects.filter(round__event__in=legs).count() == 6
    three = [r.player_id for r in rows if r.events_played == 3]
    assert PlayerRating.objects.get(player_id=three[0]).sets == 6
    call_command("demo_series", "--if-missing", stdout=out)  # a second run changes nothing
    assert "already loaded" in out.getvalue()
