"""The hand row's form and the wording of the engine's answers: plain Python, no
database (the rules themselves are tested in tests/game)."""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest

from core.hands.sheet_form import HandRowForm, sheet_problem
from game import rules
from tests.fixtures import engine_problems


def form(**data) -> HandRowForm:
    return HandRowForm({k: str(v) for k, v in data.items()}, seats=(1, 2, 3, 4))


def test_a_box_holds_points_or_cards():
    entry = form(seat1="23", seat2="", seat3="jk as 10h", seat4=" 41 ", went_out="2").entry()
    assert entry.scores == (
        rules.SeatEntry(seat=1, points=23),
        rules.SeatEntry(seat=3, cards="jk as 10h"),
        rules.SeatEntry(seat=4, points=41),
    )
    assert entry.went_out == 2


@pytest.mark.parametrize("dash", ["-", "–", "—"])
def test_a_dash_is_an_empty_box_as_on_paper(dash):
    assert form(seat1=dash).entry().scores == ()


def test_what_is_not_a_whole_number_goes_to_the_engine_as_typed():
    entry = form(seat1="2.5", seat2="-3", went_out="two").entry()
    assert entry.scores == (rules.SeatEntry(1, points=2.5), rules.SeatEntry(2, points=-3))
    assert entry.went_out == "two"


def test_flags_and_penalty_lines():
    entry = form(
        down_and_out="on",
        redeal="",
        p1_seat="3",
        p1_kind="overcall",
        p1_calls="2",
        p2_seat="",
        p2_kind="",
        p3_seat="1",
        p3_kind="false_laydown",
        p3_points="250",
    ).entry()
    assert entry.down_and_out is True and entry.redeal is False
    assert entry.penalties == (
        rules.PenaltyEntry(seat=3, kind="overcall", extra_calls=2),
        rules.PenaltyEntry(seat=1, kind="false_laydown", points=250),
    )


def test_a_penalty_line_with_something_missing_still_reaches_the_engine():
    assert form(p1_kind="overcall").entry().penalties == (
        rules.PenaltyEntry(seat=None, kind="overcall"),
    )


def test_the_version_is_a_whole_number_or_nothing():
    assert form(version="3").version == 3
    assert form().version is None
    with pytest.raises(BadRequest):
        form(version="3; drop table")


def worded(entry: rules.HandEntry, **where) -> list:
    return [sheet_problem(p, entry.went_out) for p in engine_problems(entry, **where)]


def scores(*points, went_out=None) -> rules.HandEntry:
    return rules.HandEntry(
        went_out=went_out,
        scores=tuple(rules.SeatEntry(seat, points=p) for seat, p in enumerate(points, 1)),
    )


def test_zero_points_names_who_went_out():
    (problem,) = worded(scores(5, 0, 0, 7, went_out=2))[-1:]
    assert problem.text == "Seat 3 shows 0 points, but seat 2 went out."
    (problem,) = [
        sheet_problem(p, None)
        for p in engine_problems(scores(5, 0, 0, 7, went_out=2))
        if p.code == "zero_points"
    ]
    assert problem.text == "Seat 3 shows 0 points, but only the player who went out scores 0."


def test_a_finding_without_words_of_its_own_is_the_engines_as_a_sentence():
    entry = rules.HandEntry(went_out=9, scores=scores(5, 0, 6, 7).scores)
    assert [p.text for p in worded(entry)] == ["Seat 9 is not at this table (seats 1, 2, 3, 4)."]


def test_problems_point_at_their_seats():
    entry = rules.HandEntry(
        scores=(
            rules.SeatEntry(1, cards="JK JK JK"),
            rules.SeatEntry(2, points=5),
            rules.SeatEntry(3, cards="JK JK"),
        )
    )
    found = [(p.field, p.seats) for p in worded(entry)]
    assert ("went_out", ()) in found
    assert ("scores", (4,)) not in found  # seat 4 is empty, but so is nobody else: no pair
    assert ("scores", (1, 3)) in found  # five jokers between seats 1 and 3


def test_every_engine_message_about_a_row_reads_as_a_sentence():
    """Whatever the engine says about a plausible row comes out capitalised and ended."""
    entries = [
        rules.HandEntry(went_out=2, scores=(rules.SeatEntry(1, points=0),)),
        rules.HandEntry(redeal=True, went_out=1, down_and_out=True),
        rules.HandEntry(went_out=1, penalties=(rules.PenaltyEntry(1, "challenge", points=7),)),
    ]
    for entry in entries:
        for problem in worded(entry):
            assert problem.text[0].isupper() and problem.text.endswith(".")
