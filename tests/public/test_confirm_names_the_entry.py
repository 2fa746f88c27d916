"""The entry page's Confirm carries the entry it showed: if the table entered the hand
again meanwhile, nothing is recorded (409) and the page shows the new entry."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.models import Hand
from tests.html import Page

pytestmark = pytest.mark.django_db

ENTRY = "/events/kingston/rounds/1/tables/1/enter/"


def scanned(codes, seat: int) -> Client:
    phone = Client()
    assert phone.get(ENTRY + f"?code={codes[(1, seat)]}").status_code == 302
    return phone


def seat_3_holds(points: int) -> dict[str, str]:
    return {"seat1": "23", "seat2": "", "seat3": str(points), "seat4": "41", "went_out": "2"}


CONFIRM_FORM = re.compile(r'action="[^"]*/hands/1/confirm/">(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def confirm_form(html: bytes) -> dict[str, str]:
    """The hidden fields of hand 1's Confirm form as the page shows it."""
    form = CONFIRM_FORM.search(html.decode())
    assert form is not None
    return dict(HIDDEN.findall(form.group(1)))


def test_confirm_refuses_an_entry_the_table_replaced_and_shows_the_new_one(entry_world, codes):
    scanned(codes, 1).post(ENTRY + "hands/1/", seat_3_holds(25))
    confirmer = scanned(codes, 2)
    shown = confirm_form(confirmer.get(ENTRY).content)
    assert shown["version"] == "1"
    scanned(codes, 3).post(ENTRY + "hands/1/", seat_3_holds(5))

    refused = confirmer.post(ENTRY + "hands/1/confirm/", shown)
    assert refused.status_code == 409
    page = Page(refused.content)
    assert "entered again" in page.text("problems")
    assert "entered by seat 3" in page.text("proposal-1")
    again = confirm_form(refused.content)
    assert again["version"] == "2"
    assert not Hand.objects.exists()

    assert confirmer.post(ENTRY + "hands/1/confirm/", again).status_code == 302
    recorded = Hand.objects.get(table=entry_world.table, number=1)
    assert recorded.scores.get(seat__position=3).card_points == 5


def test_a_version_that_is_no_version_is_refused(entry_world, codes):
    scanned(codes, 1).post(ENTRY + "hands/1/", seat_3_holds(25))
    response = scanned(codes, 2).post(ENTRY + "hands/1/confirm/", {"version": "one"})
    assert response.status_code == 400
    assert not Hand.objects.exists()
