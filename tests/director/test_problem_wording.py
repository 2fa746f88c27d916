"""Every finding the rules engine can report (`rules.CODES`) reaches the director's sheet
in words: each code is raised by a real entry here, worded by the sheet, and, where a
row of the sheet can carry it, shown on the page after a save is refused."""

from __future__ import annotations

import pytest

from core.hands.sheet_form import WORDING, sheet_problem
from game import rules
from tests.fixtures import engine_problems, make_world
from tests.html import HTMX, Page, signed_in

S, P, H = rules.SeatEntry, rules.PenaltyEntry, rules.HandEntry
SIXTEEN = "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H"
TWENTY = SIXTEEN + " 2D 3D 4D 5D"
SEATS_OK = {"went_out": "2", "seat1": "5", "seat3": "6", "seat4": "7"}


def ok(**changes) -> rules.HandEntry:
    """A good hand 1 at a table of four (seat 2 went out), with `changes`."""
    fields = {"went_out": 2, "scores": (S(1, points=5), S(3, points=6), S(4, points=7))}
    return H(**{**fields, **changes})


# code -> (ruleset, hand number, the engine's entry, the sheet row's POST or None when a
# row of the sheet cannot carry it: the form sends text, never a list or a flag of
# another type)
CASES: dict[str, tuple[str, object, rules.HandEntry, dict | None]] = {
    "number_not_whole": ("jamaica", "1", ok(), None),
    "number_unknown": ("jamaica", 10, ok(), None),
    "redeal_not_bool": ("jamaica", 1, H(redeal="yes"), None),
    "redeal_went_out": (
        "jamaica",
        1,
        H(redeal=True, went_out=1),
        {"redeal": "on", "went_out": "1"},
    ),
    "redeal_down_and_out": (
        "jamaica",
        1,
        H(redeal=True, down_and_out=True),
        {"redeal": "on", "down_and_out": "on"},
    ),
    "redeal_scores": (
        "jamaica",
        1,
        H(redeal=True, scores=(S(1, points=3),)),
        {"redeal": "on", "seat1": "3"},
    ),
    "redeal_penalties": (
        "jamaica",
        1,
        H(redeal=True, penalties=(P(1, "false_laydown"),)),
        {"redeal": "on", "p1_seat": "1", "p1_kind": "false_laydown"},
    ),
    "went_out_missing": (
        "jamaica",
        1,
        ok(went_out=None),
        # Two seats left empty: which of them went out cannot be told (with one, it
        # is taken as who went out).
        {"seat1": "5", "seat3": "6"},
    ),
    "went_out_not_seat": ("jamaica", 1, ok(went_out="two"), {"went_out": "two", "seat1": "5"}),
    "went_out_not_at_table": ("jamaica", 1, ok(went_out=9), {"went_out": "9", "seat1": "5"}),
    "down_and_out_not_bool": ("jamaica", 1, ok(down_and_out="yes"), None),
    "down_and_out_not_allowed": (
        "trinidad",
        1,
        ok(down_and_out=True),
        {"went_out": "2", "seat1": "5", "seat3": "6", "seat4": "7", "down_and_out": "on"},
    ),
    "not_a_list": ("jamaica", 1, ok(scores="5 6 7"), None),
    "entry_not_object": ("jamaica", 1, ok(scores=("5",)), None),
    "entry_seat_invalid": (
        "jamaica",
        1,
        ok(penalties=(P(None, "overcall"),)),
        {"went_out": "2", "seat1": "5", "seat3": "6", "seat4": "7", "p1_kind": "overcall"},
    ),
    "seat_not_at_table": (
        "jamaica",
        1,
        ok(penalties=(P(9, "false_laydown"),)),
        {
            "went_out": "2",
            "seat1": "5",
            "seat3": "6",
            "seat4": "7",
            "p1_seat": "9",
            "p1_kind": "false_laydown",
        },
    ),
    "penalty_kind_unknown": (
        "jamaica",
        1,
        ok(penalties=(P(1, None),)),
        {"went_out": "2", "seat1": "5", "seat3": "6", "seat4": "7", "p1_seat": "1"},
    ),
    "penalty_twice": (
        "jamaica",
        1,
        ok(penalties=(P(1, "false_laydown"), P(1, "false_laydown"))),
        {
            "went_out": "2",
            **{"seat1": "5", "seat3": "6", "seat4": "7"},
            **{
                "p1_seat": "1",
                "p1_kind": "false_laydown",
                "p2_seat": "1",
                "p2_kind": "false_laydown",
            },
        },
    ),
    "challenge_not_allowed": (
        "jamaica",
        1,
        ok(penalties=(P(1, "challenge"),)),
        {
            "went_out": "2",
            "seat1": "5",
            "seat3": "6",
            "seat4": "7",
            "p1_seat": "1",
            "p1_kind": "challenge",
        },
    ),
    "challenge_went_out": (
        "trinidad",
        1,
        ok(penalties=(P(2, "challenge"),)),
        {
            "went_out": "2",
            "seat1": "5",
            "seat3": "6",
            "seat4": "7",
            "p1_seat": "2",
            "p1_kind": "challenge",
        },
    ),
    "challenge_points": ("trinidad", 1, ok(penalties=(P(1, "challenge", points=7),)), None),
    "overcall_went_out": (
        "jamaica",
        1,
        ok(penalties=(P(2, "overcall"),)),
        {
            "went_out": "2",
            "seat1": "5",
            "seat3": "6",
            "seat4": "7",
            "p1_seat": "2",
            "p1_kind": "overcall",
        },
    ),
    "penalty_points_range": (
        "jamaica",
        1,
        ok(penalties=(P(1, "false_laydown", points=20),)),
        {**SEATS_OK, "p1_seat": "1", "p1_kind": "false_laydown", "p1_points": "20"},
    ),
    "penalty_points_fixed": (
        "jamaica",
        1,
        ok(penalties=(P(1, "false_laydown", points=150),)),
        {**SEATS_OK, "p1_seat": "1", "p1_kind": "false_laydown", "p1_points": "150"},
    ),
    "overcall_not_charged": (
        "jamaica",
        1,
        ok(penalties=(P(1, "overcall", points=100),)),
        {**SEATS_OK, "p1_seat": "1", "p1_kind": "overcall", "p1_points": "100"},
    ),
    "extra_calls_too_many": (
        "jamaica",
        1,
        ok(penalties=(P(1, "overcall", extra_calls=40000),)),
        {**SEATS_OK, "p1_seat": "1", "p1_kind": "overcall", "p1_calls": "40000"},
    ),
    "challenge_and_overcall": (
        "trinidad",
        1,
        ok(penalties=(P(1, "challenge"), P(1, "overcall"))),
        {
            **SEATS_OK,
            **{"p1_seat": "1", "p1_kind": "challenge", "p2_seat": "1", "p2_kind": "overcall"},
        },
    ),
    "challenge_extra_calls": (
        "trinidad",
        1,
        ok(
            scores=(S(1, cards=TWENTY), S(3, points=6), S(4, points=7)),
            penalties=(P(1, "challenge"),),
        ),
        {**SEATS_OK, "seat1": TWENTY, "p1_seat": "1", "p1_kind": "challenge"},
    ),
    "table_over_bound": (
        "jamaica",
        1,
        ok(scores=(S(1, points=330), S(3, points=330), S(4, points=330))),
        {"went_out": "2", "seat1": "330", "seat3": "330", "seat4": "330"},
    ),
    "extra_calls_not_allowed": (
        "jamaica",
        1,
        ok(penalties=(P(1, "false_laydown", extra_calls=1),)),
        {
            "went_out": "2",
            **{"seat1": "5", "seat3": "6", "seat4": "7"},
            **{"p1_seat": "1", "p1_kind": "false_laydown", "p1_calls": "1"},
        },
    ),
    "extra_calls_invalid": (
        "jamaica",
        1,
        ok(penalties=(P(1, "overcall", extra_calls=0),)),
        {
            "went_out": "2",
            **{"seat1": "5", "seat3": "6", "seat4": "7"},
            **{"p1_seat": "1", "p1_kind": "overcall", "p1_calls": "0"},
        },
    ),
    "score_twice": (
        "jamaica",
        1,
        ok(scores=(S(1, points=5), S(1, points=6), S(3, points=6), S(4, points=7))),
        None,
    ),
    "points_and_cards": (
        "jamaica",
        1,
        ok(scores=(S(1, points=5, cards="5S"), S(3, points=6), S(4, points=7))),
        None,
    ),
    "no_value": ("jamaica", 1, ok(scores=(S(1), S(3, points=6), S(4, points=7))), None),
    "points_not_whole": (
        "jamaica",
        1,
        ok(scores=(S(1, points=2.5), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "2.5", "seat3": "6", "seat4": "7"},
    ),
    "points_negative": (
        "jamaica",
        1,
        ok(scores=(S(1, points=-3), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "-3", "seat3": "6", "seat4": "7"},
    ),
    "went_out_points": (
        "jamaica",
        1,
        ok(scores=(S(1, points=5), S(2, points=4), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "5", "seat2": "4", "seat3": "6", "seat4": "7"},
    ),
    "cards_not_text": (
        "jamaica",
        1,
        ok(scores=(S(1, cards=5), S(3, points=6), S(4, points=7))),
        None,
    ),
    "card_notation": (
        "jamaica",
        1,
        ok(scores=(S(1, cards="ZZ"), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "ZZ", "seat3": "6", "seat4": "7"},
    ),
    "went_out_cards": (
        "jamaica",
        1,
        ok(scores=(S(1, points=5), S(2, cards="AS"), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "5", "seat2": "AS", "seat3": "6", "seat4": "7"},
    ),
    "too_many_cards": (
        "jamaica",
        1,
        ok(scores=(S(1, cards=SIXTEEN), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": SIXTEEN, "seat3": "6", "seat4": "7"},
    ),
    "points_over_bound": (
        "jamaica",
        1,
        ok(scores=(S(1, points=500), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "500", "seat3": "6", "seat4": "7"},
    ),
    "several_empty": (
        "jamaica",
        1,
        ok(went_out=None, scores=(S(3, points=6), S(4, points=7))),
        {"seat3": "6", "seat4": "7"},
    ),
    "score_missing": (
        "jamaica",
        1,
        ok(scores=(S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat3": "6", "seat4": "7"},
    ),
    "no_cards": ("jamaica", 1, ok(scores=(S(1, cards=""), S(3, points=6), S(4, points=7))), None),
    "zero_points": (
        "jamaica",
        1,
        ok(scores=(S(1, points=0), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "0", "seat3": "6", "seat4": "7"},
    ),
    "card_copies": (
        "jamaica",
        1,
        ok(scores=(S(1, cards="AS AS AS"), S(3, points=6), S(4, points=7))),
        {"went_out": "2", "seat1": "AS AS AS", "seat3": "6", "seat4": "7"},
    ),
}


# What the event agreed, for the codes that need a setting other than the default.
AGREED: dict[str, dict] = {
    "penalty_points_range": {"penalty_per_hand": True},
    "overcall_not_charged": {"overcall_penalty": False},
}


def table_rules(code: str) -> rules.TableRules:
    agreed = AGREED.get(code, {})
    return rules.TableRules(
        overcall_penalty=agreed.get("overcall_penalty", True),
        penalty_per_hand=agreed.get("penalty_per_hand", False),
    )


def raised(code: str) -> rules.Problem:
    ruleset, number, entry, _ = CASES[code]
    problems = engine_problems(entry, ruleset=ruleset, number=number, table_rules=table_rules(code))
    found = [p for p in problems if p.code == code]
    assert found, f"{code} not raised: {[p.code for p in problems]}"
    return found[0]


def test_every_code_has_a_case_and_a_wording():
    assert set(CASES) == set(rules.CODES) == set(WORDING)


@pytest.mark.parametrize("code", rules.CODES)
def test_every_code_is_raised_by_the_engine_and_worded_for_the_sheet(code):
    problem = raised(code)
    text = sheet_problem(problem, CASES[code][2].went_out).text
    assert text[0].isupper() and text.endswith("."), text
    assert "{" not in text and "}" not in text


SHEET_CASES = [code for code, case in CASES.items() if case[3] is not None]


@pytest.mark.django_db
@pytest.mark.parametrize("code", SHEET_CASES)
def test_every_code_a_row_can_carry_shows_on_the_sheet(code):
    ruleset, _, entry, post = CASES[code]
    world = make_world(table_sizes=(4,), ruleset=ruleset, **AGREED.get(code, {}))
    response = signed_in(world.alice).post(world.hand_url(1), {"version": "0", **post}, **HTMX)
    assert response.status_code == 400
    shown = Page(response.content).problems(1)
    expected = sheet_problem(raised(code), entry.went_out).text
    assert expected in shown
