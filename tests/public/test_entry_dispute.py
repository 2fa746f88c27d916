"""The phone page around a dispute: before anyone types, it says the table may enter a
hand again instead of disputing it; once a hand is disputed, it says so and offers no
form for it (the director decides), except to the player who disputed, who may give
their own version; and once the director records it, the page says it is recorded."""

from __future__ import annotations

import pytest

from core import services
from scoring.models import Proposal
from tests.fixtures import hand
from tests.html import Page
from tests.public.test_entry import ENTRY, HAND_1, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def w(entry_world):
    return entry_world


@pytest.fixture
def entered(w, codes):
    """Seat 1 entered hand 1; it waits for another player's confirmation."""
    assert player(codes, 1).post(ENTRY + "hands/1/", HAND_1).status_code == 302
    return w


def test_before_anyone_types_the_page_says_the_hand_may_be_entered_again(entered, codes):
    page = Page(player(codes, 3).get(ENTRY).content)
    choices = page.text("choices-1")
    assert "enter the hand again instead of disputing it" in choices
    assert "your entry replaces this one, and another player confirms it again" in choices
    assert "You may give the director your own version of the hand with it" in choices


def test_the_form_for_a_waiting_hand_offers_both_ways(entered, codes):
    page = Page(player(codes, 3).get(ENTRY + "?hand=1").content)
    form = page.attrs("hand-form")
    assert (form["data-hand"], form["data-mode"], form["data-shown"]) == ("1", "replace", "1")
    now = page.text("form-now")
    assert "entered by seat 1" in now and "your entry replaces the one waiting" in now
    assert "Send hand 1 again for confirmation" in page.text("hand-form")
    assert "Dispute, with this version" in page.text("hand-form")
    assert page.fields[("hand-form", "seat3")]["value"] == "JK AS 10H 7D"  # the entry shown


def test_once_disputed_the_page_says_so_before_anyone_types(entered, codes):
    assert player(codes, 3).post(ENTRY + "hands/1/dispute/").status_code == 302
    other = player(codes, 2)
    page = Page(other.get(ENTRY + "?hand=1").content)
    assert not page.has("hand-form")
    note = page.text("form-disputed")
    assert note.startswith("Hand 1 is disputed (by seat 3")
    assert "the director decides it" in note and "Nothing can be entered for it" in note
    assert "Nothing can be entered for hand 1 meanwhile" in page.text("proposal-1")
    # Nor is it offered by default: the form goes on to the next hand.
    assert Page(other.get(ENTRY).content).attrs("hand-form")["data-hand"] == "2"
    # A form sent from an older page is still refused, and nothing is written.
    assert other.post(ENTRY + "hands/1/", HAND_1).status_code == 409
    assert Proposal.objects.get().entry["scores"][0] == {"seat": 1, "points": 23}


def test_the_player_who_disputed_gives_the_director_their_version(entered, codes):
    phone = player(codes, 3)
    tapped = phone.post(ENTRY + "hands/1/dispute/", follow=True)
    assert "You may give the director your version" in tapped.content.decode()
    card = Page(tapped.content).text("proposal-1")
    assert "the director decides this hand" in card
    assert "Give the director your version of hand 1" in card

    page = Page(phone.get(ENTRY + "?hand=1").content)
    form = page.attrs("hand-form")
    assert form["action"] == ENTRY + "hands/1/dispute/" and form["data-mode"] == "my-version"
    assert page.fields[("hand-form", "with_version")]["value"] == "1"
    assert "Your version of hand 1, for the director" in page.text("hand-form")
    assert "Send my version to the director" in page.text("hand-form")

    sent = phone.post(ENTRY + "hands/1/dispute/", {**HAND_1, "seat4": "45", "with_version": "1"})
    assert sent.status_code == 302
    given = {score["seat"]: score for score in Proposal.objects.get().alternative["scores"]}
    assert given[4] == {"seat": 4, "points": 45}
    shown = phone.get(ENTRY).content
    assert "Hand 1 is disputed, with your version" in shown.decode()
    page = Page(shown)
    assert "Your version" in page.text("proposal-1")
    assert "Change your version" in page.text("my-version-1")
    # Shown again, the form holds the version given, to change it.
    again = Page(phone.get(ENTRY + "?hand=1").content)
    assert again.fields[("hand-form", "seat4")]["value"] == "45"


def test_the_others_see_both_versions(entered, codes):
    player(codes, 3).post(
        ENTRY + "hands/1/dispute/", {**HAND_1, "seat4": "45", "with_version": "1"}
    )
    card = Page(player(codes, 4).get(ENTRY).content).text("proposal-1")
    assert "As entered" in card and "Seat 3's version" in card and "45" in card


def test_once_recorded_the_live_region_says_so(
    w, entered, codes, django_capture_on_commit_callbacks
):
    player(codes, 3).post(ENTRY + "hands/1/dispute/")
    phone = player(codes, 1)
    poll = Page(phone.get(ENTRY).content).attrs("entry-live")["hx-get"]
    with django_capture_on_commit_callbacks(execute=True):
        services.record_hand(table=w.table, number=1, entry=hand(2, 4), by=w.alice)
    region = Page(phone.get(poll).content)
    settled = region.text("settled").replace(" :", ":")
    assert (
        settled == "Hand 1 is recorded: the director settled the dispute. The sheet below shows it."
    )
    assert not region.has("proposal-1") and "No hand is waiting" in region.text("waiting")


def test_a_confirmed_hand_is_said_to_be_recorded_too(entered, codes):
    player(codes, 2).post(ENTRY + "hands/1/confirm/", {"version": "1"})
    settled = Page(player(codes, 1).get(ENTRY).content).text("settled").replace(" :", ":")
    assert settled.startswith("Hand 1 is recorded: confirmed by seat 2 · ")
