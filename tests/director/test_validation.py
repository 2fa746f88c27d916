"""What the director is told when a row cannot be saved: in the words of the paper
sheet, beside the row, with nothing saved and everything typed still in the form."""

from __future__ import annotations

import pytest

from core import services
from scoring.models import Hand, HandScore
from tests.html import HTMX, Page, row, signed_in

pytestmark = pytest.mark.django_db

GOOD = dict(seat1=23, seat2=0, seat3=15, seat4=41, went_out=2)


def refused(client, w, status=400, hand=1, **fields):
    response = client.post(w.hand_url(hand), row(**fields), **HTMX)
    assert response.status_code == status, response.content.decode()[:500]
    assert not Hand.objects.filter(number=hand).exists()
    return Page(response.content)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            dict(GOOD, seat3=0),
            "Seat 3 shows 0 points, but seat 2 went out.",
        ),
        (
            # Two seats at 0 and no one chosen (with one, it is taken as who went out).
            dict(GOOD, went_out="", seat3=0),
            "Choose who went out (or tick Redeal if the stock ran out twice).",
        ),
        (
            dict(GOOD, seat4=""),
            "Seat 4: enter the points or the cards left in hand.",
        ),
        (
            dict(GOOD, seat2=12),
            "Seat 2 went out, so it scores 0, not 12.",
        ),
        (
            dict(GOOD, seat1=500),  # 15 cards: 4 jokers, 4 black aces, 7 tens = 330
            "Seat 1 shows 500 points, but 15 cards are worth at most 330 "
            "(hand 1 deals 9, plus 6 from three calls). Check the number.",
        ),
        (
            dict(GOOD, seat3="JK AS 1OH"),
            'Seat 3: "1OH" is not a card: unknown rank "1" '
            "(ranks are A, 2-10 (or T), J, Q, K and suits S, H, D, C (or ♠ ♥ ♦ ♣), "
            "or JK (or JOKER) for a joker).",
        ),
        (
            dict(GOOD, p1_seat=2, p1_kind="overcall"),
            "Seat 2 is charged an over-call, so it cannot have gone out.",
        ),
        (
            dict(GOOD, p1_seat=3),
            "Seat 3's penalty: choose its kind.",
        ),
        (
            dict(GOOD, p1_kind="false_laydown"),
            "Penalty 1: choose the seat it is charged to.",
        ),
        (
            dict(GOOD, p1_seat=3, p1_kind="false_laydown", p1_calls=2),
            "Seat 3: extra calls go with an over-call or a challenge, not a false laydown.",
        ),
        (
            dict(seat1=5, redeal="on"),
            "A redeal has no scores: clear the seats' boxes, or untick Redeal.",
        ),
        (
            dict(GOOD, seat1=-4),
            "Seat 1: points cannot be negative.",
        ),
    ],
    ids=[
        "zero-but-not-out",
        "nobody-out",
        "no-score",
        "out-with-points",
        "too-many-points",
        "bad-card",
        "overcall-went-out",
        "penalty-without-kind",
        "penalty-without-seat",
        "laydown-with-calls",
        "redeal-with-scores",
        "negative",
    ],
)
def test_each_problem_is_told_in_the_directors_words(w, director, fields, message):
    page = refused(director, w, **fields)
    assert message in page.problems(1)
    assert page.attrs("hand-1")["data-state"] == "error"


def test_everything_typed_stays_in_the_form(w, director):
    fields = dict(GOOD, seat3="JK JK JK JK JK", down_and_out="on", p1_seat=4, p1_kind="overcall")
    fields["p1_calls"] = "2"
    page = refused(director, w, **fields)
    assert page.problems(1) == [
        "The JK appears 5 times at the table (seat 3), but the deck holds only 4."
    ]
    assert [page.value(1, f"seat{s}") for s in (1, 2, 3, 4)] == ["23", "0", "JK JK JK JK JK", "41"]
    assert page.value(1, "went_out") == "2"
    assert page.value(1, "down_and_out") is True
    assert (page.value(1, "p1_seat"), page.value(1, "p1_kind"), page.value(1, "p1_calls")) == (
        "4",
        "overcall",
        "2",
    )
    assert page.value(1, "version") == "0"


def test_the_box_at_fault_is_marked_and_described(w, director):
    page = refused(director, w, **dict(GOOD, seat3=0))
    box = page.field(1, "seat3")["attrs"]
    assert box["aria-invalid"] == "true"
    assert "hand-1-problems" in box["aria-describedby"]
    assert "aria-invalid" not in page.field(1, "seat1")["attrs"]
    assert page.attrs("hand-1-problems")["role"] == "alert"


def test_several_problems_are_told_together(w, director):
    page = refused(director, w, **dict(GOOD, seat3=0, seat4=""))
    assert page.problems(1) == [
        "Seat 3 shows 0 points, but seat 2 went out.",
        "Seat 4: enter the points or the cards left in hand.",
    ]


def test_a_stale_edit_is_refused_never_overwriting(w, director):
    director.post(w.hand_url(1), row(**GOOD), **HTMX)
    # Root corrects the hand meanwhile (version 1 -> 2) ...
    root = signed_in(w.root)
    assert (
        root.post(w.hand_url(1), row(**dict(GOOD, seat1=30), version=1), **HTMX).status_code == 200
    )
    # ... while director's page still holds version 1.
    response = director.post(w.hand_url(1), row(**dict(GOOD, seat1=99), version=1), **HTMX)
    assert response.status_code == 412
    page = Page(response.content)
    assert page.problems(1) == [
        "Someone else saved this hand meanwhile (now version 2); your change was not saved. "
        "Show the saved hand, then enter your change again."
    ]
    assert page.attrs("hand-1")["data-state"] == "stale"
    assert page.value(1, "seat1") == "99"  # what director typed is still there ...
    assert page.value(1, "version") == "1"  # ... and saving it again is refused again
    assert HandScore.objects.get(seat__position=1).card_points == 30
    assert 'hx-get="/director/kingston/rounds/1/tables/1/hands/1/"' in response.content.decode()


def test_a_new_hand_someone_else_entered_meanwhile_is_not_overwritten(w, director):
    signed_in(w.root).post(w.hand_url(1), row(**GOOD), **HTMX)
    response = director.post(w.hand_url(1), row(**dict(GOOD, seat1=7)), **HTMX)  # version 0
    assert response.status_code == 412
    assert HandScore.objects.get(seat__position=1).card_points == 23


def test_a_locked_table_refuses_a_save(w, director):
    services.lock_table(table=w.table)
    page = refused(director, w, status=409, **GOOD)
    assert page.problems(1) == ["Table 1 is locked; unlock it to change its hands."]


def test_a_round_not_yet_published_refuses_a_save(w, director):
    w.round.status = "draft"
    w.round.save()
    page = refused(director, w, status=409, **GOOD)
    assert page.problems(1) == ["Round 1 is not published yet; publish the seating first."]


def test_a_version_that_is_not_a_number_is_a_bad_request(w, director):
    data = row(**GOOD)
    data["version"] = "two"
    assert director.post(w.hand_url(1), data, **HTMX).status_code == 400
    assert not Hand.objects.exists()


@pytest.mark.parametrize("out_box", ["", "0", "-"])
def test_the_one_seat_left_empty_or_at_0_is_taken_as_who_went_out(w, director, out_box):
    fields = dict(GOOD, went_out="", seat2=out_box)
    response = director.post(w.hand_url(1), row(**fields), **HTMX)
    assert response.status_code == 200
    hand = Hand.objects.get(table=w.table, number=1)
    assert hand.went_out.position == 2
    assert dict(hand.scores.values_list("seat__position", "score"))[1] == 23


def test_a_redeal_keeps_the_row_open_for_the_new_deal(w, director):
    response = director.post(w.hand_url(1), row(redeal="on"), **HTMX)
    assert response.status_code == 200
    page = Page(response.content)
    assert page.attrs("hand-1")["data-state"] == "redealt"
    body = response.content.decode()
    assert "Redeal recorded: enter the new deal's scores" in body
    assert ">Saved<" not in body
    assert "Hand 1 redealt: enter the new deal" in body
    # The new deal's scores are then recorded as the hand.
    response = director.post(w.hand_url(1), row(**GOOD, version="1"), **HTMX)
    assert Page(response.content).attrs("hand-1")["data-state"] == "saved"
    assert Hand.objects.filter(table=w.table, number=1).count() == 2
