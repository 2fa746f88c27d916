"""Corrections and their history: who changed a hand, when, and what it said before."""

from __future__ import annotations

import re

import pytest

from core import services
from scoring.models import Hand
from tests.fixtures import make_world
from tests.html import HTMX, Page, row, signed_in

pytestmark = pytest.mark.django_db

GOOD = dict(seat1=23, seat2=0, seat3=15, seat4=41, went_out=2)


@pytest.fixture
def w():
    return make_world()


def changes(html: bytes) -> list[list[tuple[str, str, str]]]:
    """Each history entry's (what, before, after) rows, newest first, a seat read by its
    number ("Seat 1 (Ann)" as "Seat 1": `test_the_history_names_each_seats_player`)."""
    body = re.sub(r"([Ss]eat \d+) \([^)<]*\)", r"\1", html.decode())
    entries = []
    for block in body.split('<p class="history-head">')[1:]:
        rows = re.findall(
            r'<tr><th scope="row">(.*?)</th><td class="before">(.*?)</td>'
            r'<td aria-hidden="true">→</td><td class="after">(.*?)</td></tr>',
            block,
        )
        entries.append(rows)
    return entries


def heads(html: bytes) -> list[str]:
    return [
        " ".join(re.sub(r"<[^>]+>", "", h).split())
        for h in re.findall(r'<p class="history-head">(.*?)</p>', html.decode(), re.S)
    ]


def test_the_history_is_one_click_from_the_row(w):
    alice = signed_in(w.alice)
    page = alice.post(w.hand_url(1), row(**GOOD), **HTMX).content.decode()
    assert f'href="{w.hand_url(1, rest="history/")}"' in page
    # Not for a hand never recorded.
    assert w.hand_url(2, rest="history/") not in alice.get(w.sheet_url()).content.decode()


def test_a_correction_shows_who_when_and_before_and_after(w):
    signed_in(w.alice).post(w.hand_url(1), row(**GOOD), **HTMX)
    corrected = dict(GOOD, seat1=32, seat2=7, seat4=0, went_out=4)
    response = signed_in(w.root).post(w.hand_url(1), row(**corrected, version=1), **HTMX)
    assert response.status_code == 200
    html = signed_in(w.alice).get(w.hand_url(1, rest="history/")).content
    newest, first = heads(html)
    assert newest.startswith("Corrected · version 2 · by root · ")
    assert first.startswith("Recorded · version 1 · by alice · ")
    newest_changes, first_changes = changes(html)
    assert newest_changes == [
        ("Went out", "seat 2", "seat 4"),
        ("Seat 1", "23", "32"),
        ("Seat 2", "0", "7"),
        ("Seat 4", "41", "0"),
    ]
    assert ("Seat 3", "—", "15") in first_changes
    assert ("Outcome", "—", "Scored") in first_changes


def test_the_history_names_each_seats_player(w):
    signed_in(w.alice).post(w.hand_url(1), row(**GOOD), **HTMX)
    html = signed_in(w.alice).get(w.hand_url(1, rest="history/")).content.decode()
    names = {s.position: s.entry.player.name for s in w.table.seats.select_related("entry__player")}
    assert f'<th scope="row">Seat 1 ({names[1]})</th>' in html
    assert f"seat 2 ({names[2]})" in html  # who went out


def test_penalties_and_doubling_appear_in_the_history(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    data = row(**GOOD, version=1, down_and_out="on", p1_seat=3, p1_kind="overcall")
    alice.post(w.hand_url(1), data, **HTMX)
    newest = changes(alice.get(w.hand_url(1, rest="history/")).content)[0]
    assert ("Down and out", "no", "yes") in newest
    assert ("Seat 3 over-call", "—", "Over-call 100, 1 extra call") in newest
    assert ("Seat 3", "15", "15 (score 130)") in newest


def test_a_redeal_then_the_played_deal(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(2), row(redeal="on"), **HTMX)
    alice.post(w.hand_url(2), row(**GOOD, version=1), **HTMX)
    newest, first = heads(alice.get(w.hand_url(2, rest="history/")).content)
    assert newest.startswith("Recorded (deal 2) · version 2 · by alice")
    assert first.startswith("Redeal · version 1 · by alice")


def test_deleting_a_hand_keeps_its_history(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    response = alice.post(w.hand_url(1, rest="delete/"), {"version": "1"})
    assert response.status_code == 302
    assert not Hand.objects.exists()
    html = alice.get(w.hand_url(1, rest="history/")).content
    assert heads(html)[0].startswith("Deleted · version 1 · by alice")
    assert ("Seat 1", "23", "—") in changes(html)[0]
    # The sheet has the row open again.
    assert Page(alice.get(w.sheet_url()).content).value(1, "version") == "0"


def test_a_stale_delete_is_refused(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    alice.post(w.hand_url(1), row(**dict(GOOD, seat1=24), version=1), **HTMX)
    response = alice.post(w.hand_url(1, rest="delete/"), {"version": "1"}, follow=True)
    assert Hand.objects.count() == 1
    assert "This hand was changed by someone else" in response.content.decode()


def test_a_locked_table_can_be_unlocked_to_correct_a_hand(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    services.lock_table(table=w.table)
    page = Page(alice.get(w.sheet_url()).content)
    assert "disabled" in page.field(1, "seat1")["attrs"]
    assert "Table 1 is locked" in page.text("read-only")
    fix = row(**dict(GOOD, seat1=24), version=1)
    assert alice.post(w.hand_url(1), fix, **HTMX).status_code == 409
    unlock = alice.post(w.url("rounds/1/tables/1/unlock/"), {"next": w.sheet_url()})
    assert unlock["Location"] == w.sheet_url()
    assert alice.post(w.hand_url(1), fix, **HTMX).status_code == 200
    lock = alice.post(w.url("rounds/1/tables/1/lock/"), {"next": w.sheet_url()})
    assert lock["Location"] == w.sheet_url()
    w.table.refresh_from_db()
    assert w.table.locked


def reasons(html: bytes) -> list[str]:
    """Each history entry's reason, newest first ("" for none)."""
    return [
        match.group(1)
        if (match := re.search(r'<p class="history-reason">Reason: <q>(.*?)</q>', b))
        else ""
        for b in html.decode().split('<p class="history-head">')[1:]
    ]


def test_a_correction_on_the_sheet_carries_a_reason_into_the_history(w):
    alice = signed_in(w.alice)
    # A new hand's row has no reason box (the tab order of entering hands is kept).
    page = Page(alice.get(w.sheet_url()).content)
    assert (("hand-1-form", "reason")) not in page.fields
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    page = Page(alice.get(w.sheet_url()).content)
    box = page.field(1, "reason")["attrs"]
    assert (box["maxlength"], box["value"]) == ("300", "")
    assert box["aria-label"].startswith("Hand 1, reason for the change")
    assert ("hand-2-form", "reason") not in page.fields
    fix = row(**dict(GOOD, seat1=32), version=1, reason="  seat 1's 3 was   read as 2 ")
    response = alice.post(w.hand_url(1), fix, **HTMX)
    assert response.status_code == 200
    assert Page(response.content).value(1, "reason") == ""  # saved: the box is empty again
    record = Hand.objects.get(table=w.table, number=1).history.latest()
    assert (record.version, record.history_change_reason) == (2, "seat 1's 3 was read as 2")
    html = alice.get(w.hand_url(1, rest="history/")).content
    assert heads(html)[0].startswith("Corrected · version 2 · by alice")
    assert reasons(html) == ["seat 1&#x27;s 3 was read as 2", ""]
    assert changes(html)[0] == [("Seat 1", "23", "32")]


def test_a_reason_too_long_is_refused_in_the_row_and_nothing_is_saved(w):
    alice = signed_in(w.alice)
    alice.post(w.hand_url(1), row(**GOOD), **HTMX)
    long = "x" * 301
    response = alice.post(
        w.hand_url(1), row(**dict(GOOD, seat1=32), version=1, reason=long), **HTMX
    )
    assert response.status_code == 400
    page = Page(response.content)
    assert page.problems(1) == [
        "Keep the reason for the change to 300 characters (this one has 301)."
    ]
    assert page.field(1, "reason")["attrs"]["aria-invalid"] == "true"
    assert (page.value(1, "reason"), page.value(1, "seat1")) == (long, "32")  # nothing lost
    hand = Hand.objects.get(table=w.table, number=1)
    assert hand.version == 1 and hand.history.count() == 1
