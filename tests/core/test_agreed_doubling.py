"""Where the event's agreed rules double on a down and out, the paper and the phone
say so and take it: the score sheet PDF has its D&O column and note, and the players'
entry page its down-and-out box (RULES.md, "Down and out"; a Trinidad set doubles only
when the event agrees: `trinidad_doubling`)."""

from __future__ import annotations

import pytest
from django.test import Client

from core import printing
from tests.core.test_printing import pages
from tests.fixtures import codes_of, make_world
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("doubling", [True, False])
def test_a_trinidad_score_sheet_has_the_down_and_out_column_when_the_event_agrees(doubling):
    world = make_world(ruleset="trinidad", trinidad_doubling=doubling)
    (page, *_) = pages(
        printing.score_sheets_pdf(
            event=world.event, round_=world.round, base_url="https://k.example.org"
        )
    )
    assert ("D&O" in page) is doubling
    assert ("Down and out doubles the others' cards" in page) is doubling
    assert ("Tick D&O when the winner went down and out" in page) is doubling


@pytest.mark.parametrize("doubling", [True, False])
def test_the_players_entry_page_offers_down_and_out_when_the_event_agrees(doubling):
    world = make_world(
        ruleset="trinidad", trinidad_doubling=doubling, table_entry=Event.TableEntry.PLAYERS
    )
    phone = Client()
    code = codes_of(world.round)[(1, 1)]
    url = "/events/kingston/rounds/1/tables/1/enter/"
    phone.get(f"{url}?code={code}")
    page = phone.get(f"{url}?hand=1").content.decode()
    assert ('name="down_and_out"' in page) is doubling
