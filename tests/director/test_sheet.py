"""The table sheet: a grid like the paper sheet, each hand row saved through HTMX with
the row and the running totals coming back in place."""

from __future__ import annotations

import pytest

from scoring.models import Hand, HandScore, Penalty
from tests.fixtures import make_entries, make_event, make_round, make_world
from tests.html import HTMX, Page, row, signed_in
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

HAND_1 = row(seat1=23, seat2=0, seat3="JK AS 10H 7D", seat4=41, went_out=2)


def test_the_sheet_shows_hands_down_and_seats_across(w, director):
    page = Page(director.get(w.sheet_url()).content)
    for hand, dealt, contract in [
        (1, 9, "three threes"),
        (4, 12, "three fours"),
        (9, 16, "four fours"),
    ]:
        assert f"Hand {hand}" in page.text(f"hand-{hand}")
        assert f"{dealt} cards · {contract}" in page.text(f"hand-{hand}")
    assert not page.has("hand-10")
    seat_names = [s.entry.player.name for s in Seat.objects.filter(table=w.table)]
    for hand in (1, 9):
        for position, name in enumerate(seat_names, start=1):
            label = page.field(hand, f"seat{position}")["attrs"]["aria-label"]
            assert label == f"Hand {hand}, seat {position} ({name}): points or cards"
    assert page.text("sheet-progress") == "0 of 9 hands entered"


def test_the_cursor_starts_on_the_first_hand_still_to_enter(w, director):
    director.post(w.hand_url(1), HAND_1, **HTMX)
    page = Page(director.get(w.sheet_url()).content)
    assert "autofocus" in page.field(2, "seat1")["attrs"]
    assert "autofocus" not in page.field(1, "seat1")["attrs"]


def test_a_trinidad_sheet_has_seven_hands_a_challenge_and_no_down_and_out():
    w = make_world(ruleset="trinidad")
    page = Page(signed_in(w.alice).get(w.sheet_url()).content)
    assert page.has("hand-7") and not page.has("hand-8")
    assert ("hand-1-form", "down_and_out") not in page.fields
    body = signed_in(w.alice).get(w.sheet_url()).content.decode()
    assert '<option value="challenge">Challenge</option>' in body


def test_saving_a_row_records_the_hand_and_answers_the_row_and_totals(w, director):
    response = director.post(w.hand_url(1), HAND_1, **HTMX)
    assert response.status_code == 200
    hand = Hand.objects.get(table=w.table, number=1)
    assert (hand.went_out.position, hand.version, hand.recorded_by) == (2, 1, w.alice)
    page = Page(response.content)
    assert page.attrs("hand-1")["data-state"] == "saved"
    assert page.value(1, "version") == "1"
    # The cards stay as typed (canonical), and their points are shown.
    assert page.value(1, "seat3") == "JK AS 10H 7D"
    assert page.text("h1-s3-calc") == "82 pts"
    # The totals come back out of band, to be swapped in place.
    assert page.attrs("sheet-totals")["hx-swap-oob"] == "true"
    assert [page.text(f"total-{s}") for s in (1, 2, 3, 4)] == [
        f"Seat {s} total {t}" for s, t in ((1, 23), (2, 0), (3, 82), (4, 41))
    ]
    assert page.text("sheet-progress") == "1 of 9 hands entered"
    assert (
        page.text("announce") == "Hand 1 saved. Totals: seat 1 23, seat 2 0, seat 3 82, seat 4 41."
    )


def test_running_totals_add_up_hand_by_hand(w, director):
    director.post(w.hand_url(1), HAND_1, **HTMX)
    second = row(seat1=10, seat2=5, seat3=0, seat4=7, went_out=3, version=0)
    page = Page(director.post(w.hand_url(2), second, **HTMX).content)
    assert page.text("run-2-1") == "running total 33"
    assert page.text("run-2-3") == "running total 82"
    # Every other row's running totals come along out of band.
    assert page.attrs("run-1-3")["hx-swap-oob"] == "true"
    assert page.text("run-1-3") == "running total 82"
    assert page.text("total-4") == "Seat 4 total 48"


def test_correcting_an_early_hand_updates_the_later_running_totals(w, director):
    director.post(w.hand_url(1), HAND_1, **HTMX)
    director.post(w.hand_url(2), row(seat1=10, seat2=5, seat3=0, seat4=7, went_out=3), **HTMX)
    # Only the changed box is typed: everything else is as the row was pre-filled.
    before = Page(director.get(w.sheet_url()).content)
    edited = {
        name: before.value(1, name)
        for name in ("seat1", "seat2", "seat3", "seat4", "went_out", "version")
    }
    edited["seat1"] = "30"
    page = Page(director.post(w.hand_url(1), edited, **HTMX).content)
    assert page.value(1, "version") == "2"
    assert page.text("run-2-1") == "running total 40"
    assert page.text("total-1") == "Seat 1 total 40"
    assert HandScore.objects.get(hand__number=1, seat__position=3).cards == "JK AS 10H 7D"


def test_a_down_and_out_doubles_the_others_and_says_how(w, director):
    data = row(seat1=23, seat2=0, seat3=10, seat4=41, went_out=2, down_and_out="on")
    page = Page(director.post(w.hand_url(1), data, **HTMX).content)
    assert page.value(1, "down_and_out") is True
    assert page.text("h1-s1-calc") == "×2 = 46"
    assert page.text("total-1") == "Seat 1 total 46"
    assert page.text("total-2") == "Seat 2 total 0"


def test_an_overcall_adds_the_director_penalty(w, director):
    data = row(seat1=23, seat2=0, seat3=10, seat4=41, went_out=2, p1_seat=4, p1_kind="overcall")
    page = Page(director.post(w.hand_url(1), data, **HTMX).content)
    penalty = Penalty.objects.get()
    assert (penalty.seat.position, penalty.kind, penalty.points, penalty.extra_calls) == (
        4,
        "overcall",
        100,
        1,
    )
    assert page.text("h1-s4-calc") == "+100 = 141"
    assert (page.value(1, "p1_seat"), page.value(1, "p1_kind"), page.value(1, "p1_calls")) == (
        "4",
        "overcall",
        "1",
    )
    # A second, empty penalty line is there to charge another.
    assert (page.value(1, "p2_seat"), page.value(1, "p2_kind")) == ("", "")


def test_a_custom_penalty_amount_survives_saving_the_row_again(w, director):
    from core import services
    from game import rules

    # An event that allows a penalty its own amount in a hand (through the API).
    type(w.event).objects.filter(pk=w.event.pk).update(penalty_per_hand=True)
    services.record_hand(
        table=w.table,
        number=1,
        entry=rules.HandEntry(
            went_out=2,
            scores=tuple(rules.SeatEntry(s, points=p) for s, p in ((1, 5), (2, 0), (3, 5), (4, 5))),
            penalties=(rules.PenaltyEntry(seat=3, kind="false_laydown", points=250),),
        ),
    )
    page = Page(director.get(w.sheet_url()).content)
    assert page.value(1, "p1_points") == "250"
    data = {k: page.value(1, k) for k in ("seat1", "seat2", "seat3", "seat4", "went_out")}
    data.update(version=page.value(1, "version"), p1_seat="3", p1_kind="false_laydown")
    data.update(p1_points="250", seat4="6")
    assert director.post(w.hand_url(1), data, **HTMX).status_code == 200
    assert Penalty.objects.get().points == 250


def test_a_redeal_is_kept_and_the_row_waits_for_the_new_deal(w, director):
    page = Page(director.post(w.hand_url(3), row(redeal="on"), **HTMX).content)
    assert "redealt" in page.text("hand-3")
    assert page.value(3, "redeal") is False
    assert page.value(3, "version") == "1"
    assert page.text("sheet-progress") == "0 of 9 hands entered"
    data = row(seat1=5, seat2=0, seat3=7, seat4=9, went_out=2, version=1)
    page = Page(director.post(w.hand_url(3), data, **HTMX).content)
    assert list(Hand.objects.filter(number=3).values_list("attempt", "outcome")) == [
        (1, "redeal"),
        (2, "scored"),
    ]
    assert page.text("sheet-progress") == "1 of 9 hands entered"


def test_a_player_who_left_mid_round_has_no_box_in_later_hands():
    event = make_event(slug="mandeville")
    round_ = make_round(event, table_sizes=(5,), entries=make_entries(event, 5))
    from tests.fixtures import make_user

    director = make_user("alice")
    event.directors.add(director)
    table = round_.tables.get()
    Seat.objects.filter(table=table, position=5).update(left_after_hand=2)
    client = signed_in(director)
    url = "/director/mandeville/rounds/1/tables/1/"
    page = Page(client.get(url).content)
    assert ("hand-2-form", "seat5") in page.fields
    assert ("hand-3-form", "seat5") not in page.fields
    assert "left the table" in page.text("hand-3")
    data = row(seat1=5, seat2=0, seat3=7, seat4=9, went_out=2)
    assert client.post(url + "hands/3/", data, **HTMX).status_code == 200
    assert HandScore.objects.filter(hand__number=3).count() == 4


def test_without_htmx_a_save_redirects_back_to_the_row(w, director):
    response = director.post(w.hand_url(1), HAND_1)
    assert response.status_code == 302
    assert response["Location"] == w.sheet_url() + "#hand-1"
    body = director.get(w.sheet_url()).content
    assert Page(body).value(1, "seat1") == "23"
    assert "Hand 1 saved." in body.decode()


def test_without_htmx_a_refused_save_shows_the_whole_sheet_with_the_problem(w, director):
    data = row(seat1=23, seat2=0, seat3=0, seat4=41, went_out=2)
    response = director.post(w.hand_url(1), data)
    assert response.status_code == 400
    page = Page(response.content)
    assert page.problems(1) == ["Seat 3 shows 0 points, but seat 2 went out."]
    assert page.has("hand-9")


def test_getting_a_row_answers_it_as_stored(w, director):
    director.post(w.hand_url(1), HAND_1, **HTMX)
    page = Page(director.get(w.hand_url(1), **HTMX).content)
    assert page.attrs("hand-1")["data-state"] == "recorded"
    assert page.value(1, "seat4") == "41"
    assert director.get(w.hand_url(1)).status_code == 302


def test_a_hand_that_the_set_does_not_have_is_not_found(w, director):
    assert director.post(w.hand_url(10), HAND_1, **HTMX).status_code == 404
    assert director.get(w.url("rounds/1/tables/9/")).status_code == 404


def test_a_closed_round_shows_its_sheet_read_only(w, director):
    director.post(w.hand_url(1), HAND_1, **HTMX)
    w.round.status = "closed"
    w.round.save()
    page = Page(director.get(w.sheet_url()).content)
    assert "disabled" in page.field(1, "seat1")["attrs"]
    assert "Round 1 is closed" in page.text("read-only")


def test_a_trinidad_challenge_adds_fifty_and_sits_the_seat_out():
    w = make_world(ruleset="trinidad")
    data = row(seat1=12, seat2=0, seat3=20, seat4=9, went_out=2, p1_seat=3, p1_kind="challenge")
    page = Page(signed_in(w.alice).post(w.hand_url(1), data, **HTMX).content)
    assert page.text("h1-s3-calc") == "sat out +50 = 70"
    assert page.text("total-3") == "Seat 3 total 70"
    score = HandScore.objects.get(seat__position=3)
    assert (score.card_points, score.penalty_points, score.score) == (20, 50, 70)
    assert score.sat_out


def test_a_penalty_line_past_the_last_slot_refuses_the_row_instead_of_dropping_it(w, director):
    """A 13th penalty line used to be dropped silently."""
    data = {**HAND_1, "p1_seat": "1", "p1_kind": "false_laydown"}
    data |= {"p13_seat": "3", "p13_kind": "false_laydown"}
    response = director.post(w.hand_url(1), data, **HTMX)
    assert response.status_code == 400
    assert "at most 12 penalty lines" in response.content.decode()
    assert not Hand.objects.filter(table=w.table).exists()
    assert not Penalty.objects.exists()
