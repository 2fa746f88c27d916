"""A phone that gave its right code keeps its place whatever guessers at the same
address (a venue's Wi-Fi) do: what the page signed for it is never throttled by other
phones' wrong codes, while typed codes stay throttled per address and table."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Hand, Proposal
from tests.html import Page

pytestmark = pytest.mark.django_db

ENTRY = "/events/kingston/rounds/1/tables/1/enter/"
HAND_1 = {"seat1": "23", "seat2": "", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"}
HAND_2 = {"seat1": "30", "seat2": "12", "seat3": "", "seat4": "9", "went_out": "3"}


def scanned(codes, seat: int) -> Client:
    phone = Client()
    assert phone.get(ENTRY + f"?code={codes[(1, seat)]}").status_code == 302
    return phone


def guess_until_blocked(settings) -> None:
    settings.TABLE_CODE_ATTEMPTS = 3
    guesser = Client()
    statuses = [guesser.post(ENTRY, {"code": "AAAAAAAA"}).status_code for _ in range(4)]
    assert statuses == [403, 403, 403, 429]


def test_phones_with_their_code_keep_entering_while_a_guesser_is_blocked(
    entry_world, codes, settings
):
    entering, confirming, disputing = scanned(codes, 1), scanned(codes, 2), scanned(codes, 3)
    guess_until_blocked(settings)

    assert Page(entering.get(ENTRY).content).has("hand-form")
    assert entering.post(ENTRY + "hands/1/", HAND_1).status_code == 302
    assert confirming.post(ENTRY + "hands/1/confirm/", {"version": "1"}).status_code == 302
    assert Hand.objects.filter(number=1).exists()
    assert entering.post(ENTRY + "hands/2/", HAND_2).status_code == 302
    assert disputing.post(ENTRY + "hands/2/dispute/").status_code == 302
    assert Proposal.objects.get(number=2).state == "disputed"


def test_a_typed_code_stays_throttled_for_the_address(entry_world, codes, settings):
    """A phone without the signed cookie proves nothing: guessing stays throttled."""
    guess_until_blocked(settings)
    typed = Client().post(ENTRY, {"code": codes[(1, 4)]})
    assert typed.status_code == 429 and "kalooki_player_code" not in typed.cookies
    forged = Client()
    forged.cookies["kalooki_player_code"] = codes[(1, 4)]  # not signed by the site
    assert forged.post(ENTRY + "hands/1/", HAND_1).status_code == 429
    assert not Proposal.objects.exists()
