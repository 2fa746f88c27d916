"""The table's entry page (no login): a player gives their code once, enters a hand
with the director's sheet's fields and messages, another player confirms or disputes
it in one tap; every refusal is shown and nothing is written."""

from __future__ import annotations

import pytest
from django.test import Client

from core import services
from scoring.models import Hand, Proposal
from tests.fixtures import hand, make_world
from tests.html import Page
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ENTRY = "/events/kingston/rounds/1/tables/1/enter/"


@pytest.fixture
def w(entry_world):
    return entry_world


def player(codes, seat: int, table: int = 1) -> Client:
    """A phone whose player scanned their slip's QR code (the code in the address)."""
    client = Client()
    response = client.get(
        f"/events/kingston/rounds/1/tables/{table}/enter/?code={codes[(table, seat)]}"
    )
    assert (
        response.status_code == 302
        and response["Location"] == f"/events/kingston/rounds/1/tables/{table}/enter/"
    )
    return client


HAND_1 = {"seat1": "23", "seat2": "", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"}


def test_a_player_gives_their_code_once_and_sees_the_table(w, codes):
    phone = player(codes, 1)
    cookie = phone.cookies["kalooki_player_code"]
    assert cookie["path"] == ENTRY and cookie["httponly"] and cookie["samesite"] == "Lax"
    page = Page(phone.get(ENTRY).content)
    name = w.table.seats.get(position=1).entry.player.name
    assert page.text("who").startswith(f"You are seat 1 · {name}")
    assert page.has("hand-form") and page.has("sheet")


def test_a_forged_cookie_opens_nothing(w, codes):
    phone = Client()
    phone.cookies["kalooki_player_code"] = codes[(1, 1)]  # not signed by the site
    assert Page(phone.get(ENTRY).content).has("sign-in")
    assert phone.post(ENTRY + "hands/1/", HAND_1).status_code == 403


def test_typing_the_code_works_as_the_qr_code_does(w, codes):
    phone = Client()
    typed = codes[(1, 2)].lower()
    response = phone.post(ENTRY, {"code": f"{typed[:4]} {typed[4:]}"})
    assert response.status_code == 302
    assert "seat 2" in Page(phone.get(ENTRY).content).text("who")


def test_a_player_finds_their_table_from_the_events_page_by_code(w, codes):
    phone = Client()
    response = phone.post("/events/kingston/enter/", {"code": codes[(2, 3)]})
    assert response.status_code == 302
    assert response["Location"] == "/events/kingston/rounds/1/tables/2/enter/"
    assert "seat 3" in Page(phone.get(response["Location"]).content).text("who")


def test_a_hand_is_entered_confirmed_in_one_tap_and_recorded(w, codes):
    first = player(codes, 1)
    response = first.post(ENTRY + "hands/1/", {**HAND_1, "version": "0"})
    assert response.status_code == 302
    assert not Hand.objects.exists()
    waiting = Page(first.get(ENTRY).content)
    assert "Waiting for another player" in waiting.text("proposal-1")

    second = player(codes, 3)
    shown = Page(second.get(ENTRY).content)
    card = shown.text("proposal-1")
    assert "Confirm hand 1" in card and "Dispute" in card
    # Exactly what will be recorded: seat 3's cards, counted.
    assert "JK AS 10H 7D = 82" in card

    response = second.post(ENTRY + "hands/1/confirm/")
    assert response.status_code == 302
    recorded = Hand.objects.get(table=w.table, number=1)
    assert recorded.version == 1
    assert {s.seat.position: s.score for s in recorded.scores.select_related("seat")} == {
        1: 23,
        2: 0,
        3: 82,
        4: 41,
    }
    assert "Hand 1 is recorded." in second.get(ENTRY).content.decode()


def test_a_bad_hand_gets_the_directors_words_and_keeps_what_was_typed(w, codes):
    phone = player(codes, 1)
    bad = {**HAND_1, "seat1": "0"}
    response = phone.post(ENTRY + "hands/1/", bad)
    assert response.status_code == 400
    page = Page(response.content)
    assert page.text("hand-problems") == "Seat 1 shows 0 points, but seat 2 went out."
    assert page.fields[("hand-form", "seat3")]["value"] == "JK AS 10H 7D"
    assert page.fields[("hand-form", "seat1")]["attrs"].get("aria-invalid") == "true"
    assert not Proposal.objects.exists()


def test_the_player_who_entered_cannot_confirm(w, codes):
    phone = player(codes, 1)
    phone.post(ENTRY + "hands/1/", HAND_1)
    response = phone.post(ENTRY + "hands/1/confirm/")
    assert response.status_code == 409
    assert "another player at the table confirms it" in Page(response.content).text("problems")
    assert not Hand.objects.exists()


def test_a_dispute_is_one_tap_and_shows_on_the_page(w, codes):
    player(codes, 1).post(ENTRY + "hands/1/", HAND_1)
    other = player(codes, 4)
    assert other.post(ENTRY + "hands/1/dispute/").status_code == 302
    assert Proposal.objects.get().state == "disputed"
    assert "the director decides" in Page(other.get(ENTRY).content).text("proposal-1")


def test_a_dispute_may_carry_the_players_own_version(w, codes):
    player(codes, 1).post(ENTRY + "hands/1/", HAND_1)
    other = player(codes, 4)
    mine = {**HAND_1, "seat1": "13", "with_version": "1"}
    assert other.post(ENTRY + "hands/1/dispute/", mine).status_code == 302
    proposal = Proposal.objects.get()
    assert proposal.alternative["scores"][0] == {"seat": 1, "points": 13}


def test_a_recorded_hand_is_refused_and_the_page_shows_it(w, codes):
    phone = player(codes, 1)
    services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    response = phone.post(ENTRY + "hands/1/", HAND_1)
    assert response.status_code == 409
    page = Page(response.content)
    assert "Hand 1 is already recorded" in page.text("recorded")
    assert "1 · " in page.text("recorded") and "11" in page.text("recorded")  # seat 1's score
    assert not page.has("hand-form") and not Proposal.objects.exists()
    shown = Page(phone.get(ENTRY + "?hand=1").content)
    assert "Hand 1 is already recorded" in shown.text("recorded")


def test_a_wrong_code_is_403_and_then_429(w, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 2
    phone = Client()
    for _ in range(2):
        response = phone.get(ENTRY + "?code=AAAAAAAA")
        assert response.status_code == 403
        assert "not the code of a player at table 1" in Page(response.content).text("sign-in-error")
    response = phone.get(ENTRY + f"?code={codes[(1, 1)]}")
    assert response.status_code == 429
    assert "Too many wrong codes" in Page(response.content).text("sign-in-error")
    assert "kalooki_player_code" not in response.cookies


def test_another_tables_code_does_not_open_this_table(w, codes):
    response = Client().get(ENTRY + f"?code={codes[(2, 1)]}")
    assert response.status_code == 403


def test_without_a_code_the_page_asks_for_it_and_takes_no_hand(w, codes):
    phone = Client()
    page = Page(phone.get(ENTRY).content)
    assert page.has("sign-in") and not page.has("hand-form")
    assert phone.post(ENTRY + "hands/1/", HAND_1).status_code == 403
    assert not Proposal.objects.exists()


def test_a_closed_rounds_page_takes_no_more_hands(w, codes):
    phone = player(codes, 1)
    services.close_round(round=w.round, force=True)
    page = Page(phone.get(ENTRY).content)
    assert "closed" in page.text("read-only") and not page.has("hand-form")
    assert phone.post(ENTRY + "hands/1/", HAND_1).status_code == 409


def test_where_directors_enter_the_page_says_so(w, codes):
    Event.objects.filter(pk=w.event.pk).update(table_entry=Event.TableEntry.DIRECTORS)
    page = Page(Client().get(ENTRY).content)
    assert page.has("directors-enter") and not page.has("sign-in")


def test_forgetting_the_code_signs_the_phone_out(w, codes):
    phone = player(codes, 1)
    phone.post(ENTRY + "leave/")
    assert Page(phone.get(ENTRY).content).has("sign-in")


def test_the_live_region_answers_204_while_nothing_changed(
    w, codes, django_capture_on_commit_callbacks, django_assert_num_queries
):
    phone = player(codes, 2)
    page = Page(phone.get(ENTRY).content)
    poll = page.attrs("entry-live")["hx-get"]
    with django_assert_num_queries(0):  # unchanged: the cache alone answers
        assert phone.get(poll).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        player(codes, 1).post(ENTRY + "hands/1/", HAND_1)
    changed = phone.get(poll)
    assert changed.status_code == 200
    assert "Confirm hand 1" in Page(changed.content).text("proposal-1")


def test_a_hand_at_another_table_leaves_this_tables_region_unchanged(
    w, codes, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """Every recorded hand rebuilds the standings, which this region does not show: the
    phones of every other table keep answering 204 from the cache alone."""
    phone = player(codes, 2)
    poll = Page(phone.get(ENTRY).content).attrs("entry-live")["hx-get"]
    other = w.round.tables.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.record_hand(table=other, number=1, entry=hand(1, 4))
    w.event.refresh_from_db()
    assert w.event.standings_version > 0  # the standings moved
    with django_assert_num_queries(0):
        assert phone.get(poll).status_code == 204


@pytest.mark.parametrize("change", ["lock the table", "close the round", "reopen the round"])
def test_what_this_tables_page_shows_changing_answers_the_region_again(
    w, codes, django_capture_on_commit_callbacks, change
):
    phone = player(codes, 2)
    if change == "reopen the round":
        with django_capture_on_commit_callbacks(execute=True):
            services.close_round(round=w.round, force=True)
    poll = Page(phone.get(ENTRY).content).attrs("entry-live")["hx-get"]
    assert phone.get(poll).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        if change == "lock the table":
            services.lock_table(table=w.table)
        elif change == "close the round":
            services.close_round(round=w.round, force=True)
        else:
            services.reopen_round(round=w.round)
    changed = phone.get(poll)
    assert changed.status_code == 200, change
    page = Page(changed.content)
    if change == "reopen the round":
        assert not page.has("read-only")
    else:
        assert ("locked" if "lock" in change else "closed") in page.text("read-only")


def test_a_draft_round_has_no_entry_page(w, codes):
    w.round.status = "draft"
    w.round.save()
    assert Client().get(ENTRY).status_code == 404


def test_a_private_event_has_no_entry_page_for_the_public(w, codes):
    """Without a code (tests/public/test_private_event_entry.py: with one)."""
    Event.objects.filter(pk=w.event.pk).update(public=False)
    response = Client().get(ENTRY)
    assert response.status_code == 404 and w.event.name not in response.content.decode()


def test_the_tables_public_page_leads_its_players_here(w, codes):
    page = Page(Client().get("/events/kingston/rounds/1/tables/1/").content)
    assert "enter a hand" in page.text("enter-hands")
    other = make_world(tag="2")  # an event where the directors enter
    page = Page(Client().get(f"/events/{other.event.slug}/rounds/1/tables/1/").content)
    assert not page.has("enter-hands")


def test_an_entry_the_rules_no_longer_accept_offers_no_confirm(w, codes):
    """Seat 3 left before hand 1 after it was entered: the page says why it cannot be
    recorded and offers to enter it again or dispute, not a Confirm that would fail."""
    player(codes, 1).post(ENTRY + "hands/1/", HAND_1)
    leaver = w.round.seats.get(table__number=1, position=3).entry
    services.withdraw_entry(entry=leaver, left_after_hand=0)
    page = Page(player(codes, 4).get(ENTRY).content)
    card = page.text("proposal-1")
    assert "The rules no longer accept this entry" in card
    assert "Confirm hand 1" not in card and "Dispute" in card
    assert "enter the hand again" in card
