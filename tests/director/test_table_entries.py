"""The players' entries as the director follows them: the dashboard's live panel per
table, a disputed hand on the sheet with both versions side by side (the director's
entry wins), the players' codes, and the entries in a hand's history."""

from __future__ import annotations

import pytest

from core import services
from core.table_entry.codes import shown
from scoring.models import Hand, Proposal
from tests.fixtures import hand, make_world
from tests.html import Page, signed_in

pytestmark = pytest.mark.django_db
CLIENT = "192.0.2.10"


@pytest.fixture
def w(entry_world):
    return entry_world


def enter(w, codes, seat, number=1, table=1, entry=None):
    found = w.round.tables.get(number=table)
    services.propose_hand(
        table=found,
        number=number,
        entry=entry or hand(2, 4),
        code=codes[(table, seat)],
        client=CLIENT,
    )


def act(w, codes, action, seat, number=1, table=1, **extra):
    found = w.round.tables.get(number=table)
    action(table=found, number=number, code=codes[(table, seat)], client=CLIENT, **extra)


@pytest.fixture
def busy(w, codes):
    """Table 1: hand 1 confirmed, hand 2 waiting, hand 3 disputed; table 2: nothing."""
    enter(w, codes, seat=1, number=1)
    act(w, codes, services.confirm_proposal, seat=2, number=1)
    enter(w, codes, seat=1, number=2)
    enter(w, codes, seat=2, number=3, entry=hand(3, 4))
    act(w, codes, services.dispute_proposal, seat=4, number=3, entry=hand(4, 4))
    return w


def test_the_dashboard_shows_each_tables_entries(busy):
    page = Page(signed_in(busy.alice).get(busy.url("rounds/1/")).content)
    assert page.text("entries-summary").startswith("1 disputed · 1 waiting for confirmation")
    row = page.attrs("entries-1")
    assert (row["data-confirmed"], row["data-pending"], row["data-disputed"]) == ("1", "2", "3")
    assert page.attrs("entries-2")["data-pending"] == ""
    assert "hand 3" in page.text("entries-1")


def test_the_panel_follows_by_itself(busy, codes):
    director = signed_in(busy.alice)
    panel = Page(director.get(busy.url("rounds/1/")).content).attrs("table-entries")
    assert panel["hx-get"] == busy.url("rounds/1/proposals/") and "every" in panel["hx-trigger"]
    enter(busy, codes, seat=3, number=1, table=2)
    fresh = Page(director.get(panel["hx-get"]).content)
    assert fresh.attrs("entries-2")["data-pending"] == "1"


def test_only_the_events_directors_see_the_panel(busy):
    assert signed_in(busy.bob).get(busy.url("rounds/1/proposals/")).status_code == 404


def test_a_disputed_hand_opens_on_the_sheet_with_both_versions(busy):
    page = Page(signed_in(busy.alice).get(busy.sheet_url()).content)
    card = page.text("entry-3")
    assert "disputed by seat 4" in card
    assert card.index("Entered by seat 2") < card.index("Disputed by seat 4")
    assert page.text("entry-2").startswith("Hand 2: waiting for a player to confirm it")


def test_the_director_records_one_version_and_it_wins(busy, codes):
    director = signed_in(busy.alice)
    # The director's own entry for the disputed hand, typed in the sheet's row.
    response = director.post(
        busy.hand_url(3),
        {
            "version": "0",
            "seat1": "11",
            "seat2": "12",
            "seat3": "13",
            "seat4": "0",
            "went_out": "4",
        },
    )
    assert response.status_code == 302
    recorded = Hand.objects.get(table=busy.table, number=3)
    assert recorded.went_out.position == 4 and recorded.recorded_by == busy.alice
    assert Proposal.objects.get(number=3).state == "overruled"
    assert not Page(director.get(busy.sheet_url()).content).has("entry-3")


def test_record_this_version_posts_exactly_that_version(busy):
    director = signed_in(busy.alice)
    html = director.get(busy.sheet_url()).content.decode()
    start = html.index('id="entry-3"')
    forms = html[start : html.index("</article>", start)].split("<form")[1:]
    disputed = forms[1]
    action = disputed.split('action="')[1].split('"')[0]
    fields = dict(
        (part.split('name="')[1].split('"')[0], part.split('value="')[1].split('"')[0])
        for part in disputed.split("<input")[1:]
    )
    fields.pop("csrfmiddlewaretoken")
    assert action == busy.hand_url(3, rest="proposal/record/")
    assert fields == {"entry": "1", "which": "disputed"}
    assert director.post(action, fields).status_code == 302
    assert Hand.objects.get(table=busy.table, number=3).went_out.position == 4


def test_the_players_codes_for_the_director(busy, codes):
    page = Page(signed_in(busy.alice).get(busy.url("rounds/1/codes/")).content)
    assert shown(codes[(2, 3)]) in page.text("code-2-3")
    assert signed_in(busy.bob).get(busy.url("rounds/1/codes/")).status_code == 404


def test_a_hands_history_keeps_the_players_entries(busy):
    page = Page(signed_in(busy.alice).get(busy.hand_url(1, rest="history/")).content)
    text = page.text("player-entries-history")
    assert "Entered by seat 1" in text and "confirmed by seat 2" in text
    history = signed_in(busy.alice).get(busy.hand_url(1, rest="history/")).content.decode()
    # Who recorded it: the players, named as such (not "by entered by ...").
    assert "by <strong>the players (entered by seat 1" in history
    assert "confirmed by seat 2" in history and "by entered by" not in history


def test_the_director_chooses_who_enters_from_the_dashboard():
    w = make_world(tag="s")
    director = signed_in(w.alice)
    page = Page(director.get(w.url("rounds/1/")).content)
    assert page.has("table-entry-setting") and not page.has("entries-summary")
    response = director.post(w.url("table-entry/"), {"table_entry": "players"})
    assert response.status_code == 302
    w.event.refresh_from_db()
    assert w.event.table_entry == "players"
    assert Page(director.get(w.url("rounds/1/")).content).has("entries-summary")
    assert director.post(w.url("table-entry/"), {"table_entry": "all"}).status_code == 302
    w.event.refresh_from_db()
    assert w.event.table_entry == "players"  # an unknown choice changes nothing
    assert (
        signed_in(w.bob).post(w.url("table-entry/"), {"table_entry": "directors"}).status_code
        == 404
    )
