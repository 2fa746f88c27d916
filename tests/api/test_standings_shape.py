"""The standings the API answers with are made directly (`api.standings_shape`), not by
their serializer, which stays their description: the two give the same document, key
for key in the same order, on every kind of row (incomplete sets, adjusted hands, a
replaced no-show, a new player with no movement, no best set), in each language."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.utils import translation

from api import standings_shape
from api.scoring_serializers import StandingsSerializer
from core import services
from core.standings import selectors
from core.standings.selectors import AdjustedHand, IncompleteSet, PlayerRef, StandingRow, Standings
from game import adjusted, ranking
from tests.fixtures import make_event, named_entries
from tests.substitutes import NAMES, NO_SHOW, play_round

# A row with nothing incomplete, adjusted or replaced, a name in another script.
PLAIN = StandingRow(
    rank=3,
    player=PlayerRef(10, "Жанна Доу"),
    club="",
    country="",
    points=90,
    table_points=1,
    sets_played=2,
    sets_incomplete=0,
    hands_won=0,
    penalty_points=0,
    best_set=30,
    movement=-2,
    status="active",
)
ROWS = (
    StandingRow(
        rank=1,
        player=PlayerRef(7, "Marcia Brown", shown="Marcia Brown (Kingston Club)"),
        club="Kingston Club",
        country="JM",
        points=41,
        table_points=7.5,
        sets_played=2,
        sets_incomplete=1,
        hands_won=5,
        penalty_points=50,
        best_set=12,
        movement=3,
        status="active",
        adjusted_hands=61,
        at_fault_hands=1,
        incomplete=(
            IncompleteSet(round=1, table=4, played=6, hands=9, why=ranking.FORCED),
            IncompleteSet(round=2, table=1, played=1, hands=9, why=ranking.WITHDREW),
        ),
        adjusted=(
            AdjustedHand(round=1, table=4, hand=9, score=61, at_fault=True, rule=adjusted.AT_FAULT),
            AdjustedHand(round=1, table=4, hand=8, score=0, at_fault=False, rule=adjusted.RULES[0]),
        ),
        tie="beats on hands won",
    ),
    # A no-show a substitute replaced: no sets, no best set, no movement.
    replace(
        PLAIN,
        rank=2,
        player=PlayerRef(8, "Errol Ferguson"),
        points=0,
        table_points=0,
        sets_played=0,
        best_set=None,
        movement=None,
        status="withdrawn",
        replaced_by=PlayerRef(9, "Jane Doe", shown="Jane Doe (Spanish Town)"),
    ),
    PLAIN,
)


def both(standings: Standings) -> tuple[str, str]:
    """The serializer's document and the one made directly, as JSON (key order kept)."""
    described = StandingsSerializer(standings).data
    made = standings_shape.represented(standings)
    assert made == described
    return json.dumps(made, ensure_ascii=False), json.dumps(described, ensure_ascii=False)


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
@pytest.mark.parametrize("round_", [2, None])
def test_every_kind_of_row_is_made_as_its_serializer_makes_it(language, round_):
    standings = Standings(version=4, round=round_, round_closed=True, final=False, rows=ROWS)
    with translation.override(language):
        made, described = both(standings)
    assert made == described
    assert '"replaced_by": {"id": 9, "name": "Jane Doe"}' in made  # not the name as shown


def test_no_rows_at_all_are_made_as_the_serializer_makes_them():
    made, described = both(
        Standings(version=0, round=None, round_closed=False, final=False, rows=())
    )
    assert made == described


@pytest.mark.django_db
def test_an_event_played_with_a_substitute_and_a_withdrawal_reads_the_same():
    event = make_event(slug="kingston", rounds_planned=2)
    entries = named_entries(event, NAMES)
    services.substitute_entry(entry=entries[NO_SHOW], name="Jane Doe")
    play_round(event, 1)
    services.withdraw_entry(entry=entries[1])
    services.refresh_standings(event=event)
    standings = selectors.standings_after(event, None)
    assert any(row.replaced_by for row in standings.rows)
    for language in ("en", "ru"):
        with translation.override(language):
            made, described = both(standings)
        assert made == described
